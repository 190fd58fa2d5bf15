package schema

import (
	"bytes"
	"encoding/json"
)

// templateDepth bounds how deep a template goes: a recursive $ref (a tree
// node naming itself as a required child) ends in null there; and
// templateNodes how many values it has in all, so that a schema whose
// objects each require many members of its own kind stays small.
const (
	templateDepth = 8
	templateNodes = 200
)

// templater writes one template, counting its values.
type templater struct {
	b     bytes.Buffer
	doc   any
	nodes int
}

// template builds the skeleton of a value of sch for a person to fill in
// (see Property.Template); nil when sch gives no shape to build on.
func template(doc any, sch map[string]any) json.RawMessage {
	t := &templater{doc: doc}
	if !t.write(sch, 0) {
		return nil
	}
	return t.b.Bytes()
}

// write writes the skeleton of sch to b and reports whether it
// knew one. The schema's own default, first example, const or first enum
// value wins; then the type decides: an object holds its required
// members, an array one item (none when its items are no object or
// array: [] says it enough), a string "", a number 0, a boolean false. A
// union takes its first alternative.
func (t *templater) write(sch map[string]any, depth int) bool {
	b, doc := &t.b, t.doc
	t.nodes++
	if depth > templateDepth || t.nodes > templateNodes {
		b.WriteString("null")
		return true
	}
	sch, ok := resolve(doc, sch)
	if !ok {
		return false
	}
	sch = nonNull(doc, sch)
	for _, v := range []any{sch["default"], first(sch["examples"]), sch["const"], first(sch["enum"])} {
		if v == nil {
			continue
		}
		if raw, err := json.Marshal(v); err == nil {
			b.Write(raw)
			return true
		}
	}
	typ, _ := sch["type"].(string)
	if ts, ok := sch["type"].([]any); ok && len(ts) > 0 {
		typ, _ = ts[0].(string)
	}
	if _, has := sch["properties"]; has && typ == "" {
		typ = "object"
	}
	switch typ {
	case "object":
		return t.object(sch, depth)
	case "array":
		items, _ := sch["items"].(map[string]any)
		if items != nil {
			if it, ok := resolve(doc, items); ok && (it["type"] == "object" || it["type"] == "array" || it["properties"] != nil) {
				b.WriteByte('[')
				if !t.write(it, depth+1) {
					b.WriteString("null")
				}
				b.WriteByte(']')
				return true
			}
		}
		b.WriteString("[]")
	case "string":
		b.WriteString(`""`)
	case "number", "integer":
		b.WriteByte('0')
	case "boolean":
		b.WriteString("false")
	case "null":
		b.WriteString("null")
	default:
		for _, key := range []string{"oneOf", "anyOf"} {
			if alts, ok := sch[key].([]any); ok && len(alts) > 0 {
				if alt, ok := alts[0].(map[string]any); ok {
					return t.write(alt, depth+1)
				}
			}
		}
		return false
	}
	return true
}

// object writes an object of sch's required members, in the
// order "required" names them (the order a schema writer meant; decoded
// properties have lost theirs).
func (t *templater) object(sch map[string]any, depth int) bool {
	b := &t.b
	props, _ := sch["properties"].(map[string]any)
	req, _ := sch["required"].([]any)
	b.WriteByte('{')
	n := 0
	for _, r := range req {
		name, ok := r.(string)
		if !ok {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		key, _ := json.Marshal(name)
		b.Write(key)
		b.WriteByte(':')
		sub, _ := props[name].(map[string]any)
		if sub == nil || !t.write(sub, depth+1) {
			b.WriteString("null")
		}
	}
	b.WriteByte('}')
	return true
}

// first is the first element of a JSON array, or nil.
func first(v any) any {
	if a, ok := v.([]any); ok && len(a) > 0 {
		return a[0]
	}
	return nil
}
