package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ToolInput is a parsed tool inputSchema: its arguments as form fields.
// A ToolInput must not be copied after first use (it caches its compiled
// form).
type ToolInput struct {
	// Fields are the arguments: required ones first, then the rest, each
	// group in document order.
	Fields []*Property
	// Raw is the inputSchema exactly as sent; nil when the tool takes no
	// arguments.
	Raw json.RawMessage

	lib compiled
}

// ParseToolInput reads a tool's inputSchema, full JSON Schema, into fields.
// Arguments that fit an elicitation kind become that kind (string, number,
// integer, boolean, enum including oneOf const, multi-select); arrays of
// primitives become List; anything deeper (objects, arrays of objects,
// unions) becomes JSON. Local $refs ("#/$defs/…", "#/definitions/…") are
// followed, and "X or null" unions read as an optional X. An empty or
// missing schema means no arguments.
//
// Unlike Parse it is lenient about what it does not understand: a default
// or example that does not fit the field's kind is dropped, not refused.
// It fails, with a *SchemaError, only when the document is not a JSON
// Schema object or cannot be compiled (for instance a $ref to another
// document, which is never fetched).
func ParseToolInput(raw json.RawMessage) (*ToolInput, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return &ToolInput{}, nil
	}
	var doc any
	if err := decodeJSONText(trimmed, &doc); err != nil {
		return nil, toolErr("", "is not valid JSON")
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, toolErr("", "must be a JSON object")
	}
	ti := &ToolInput{Raw: raw}
	if len(root) == 0 {
		return ti, nil
	}
	if _, err := ti.lib.get(trimmed); err != nil {
		return nil, toolErr("", "is not a valid JSON Schema: %s", oneLine(err))
	}

	// The object whose properties are the arguments: the root, or what a
	// root $ref names.
	top, _ := resolve(doc, root)
	if t, ok := top["type"]; ok && t != "object" {
		return nil, toolErr("", `type must be "object"`)
	}
	required := map[string]bool{}
	if req, ok := top["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	var members []member
	if props, ok := top["properties"].(map[string]any); ok && len(props) > 0 {
		// Decode again for the order; the map above has lost it.
		members = propertyOrder(trimmed, top, doc)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			if !slices.ContainsFunc(members, func(m member) bool { return m.name == name }) {
				b, _ := json.Marshal(props[name])
				members = append(members, member{name, b})
			}
		}
	}
	var req, opt []*Property
	for _, m := range members {
		sch, _ := top["properties"].(map[string]any)[m.name].(map[string]any)
		p := toolField(m.name, sch, doc)
		p.Raw = m.raw
		p.Required = required[m.name]
		p.lib = &ti.lib
		if p.Required {
			req = append(req, p)
		} else {
			opt = append(opt, p)
		}
	}
	ti.Fields = append(req, opt...)
	return ti, nil
}

// propertyOrder finds the raw properties object of top in the document
// and returns its members in order. top is the root or what its $ref
// names; the properties are found by walking the same path in raw.
func propertyOrder(raw json.RawMessage, top map[string]any, doc any) []member {
	path := []string{}
	if root, ok := doc.(map[string]any); ok {
		if ref, ok := root["$ref"].(string); ok {
			if _, hasProps := root["properties"]; !hasProps {
				path = refPath(ref)
			}
		}
	}
	cur := raw
	for _, tok := range path {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(cur, &m); err != nil {
			return nil
		}
		cur = m[tok]
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(cur, &m); err != nil {
		return nil
	}
	ms, _, hasDup, _ := orderedMembers(m["properties"])
	if hasDup {
		// A repeated name counts once, where it first appears.
		seen := map[string]bool{}
		ms = slices.DeleteFunc(ms, func(m member) bool {
			dup := seen[m.name]
			seen[m.name] = true
			return dup
		})
	}
	return ms
}

// toolField maps one argument schema onto a field.
func toolField(name string, sch map[string]any, doc any) *Property {
	p := &Property{Name: name, Kind: JSON}
	if sch == nil {
		return p // true, false, or not a schema: free JSON
	}
	sch, ok := resolve(doc, sch)
	if ok {
		sch = nonNull(doc, sch)
	}
	p.Title, _ = sch["title"].(string)
	p.Description, _ = sch["description"].(string)
	if ok {
		p.Kind = toolKind(p, sch, doc)
	}
	if d, has := sch["default"]; has {
		p.Default = fitValue(p, d)
	}
	if ex, has := sch["examples"].([]any); has && len(ex) > 0 {
		p.Example = fitValue(p, ex[0])
	}
	if p.Kind == JSON {
		p.Template = template(doc, sch)
	}
	return p
}

// toolKind fills p from sch and returns its kind.
func toolKind(p *Property, sch map[string]any, doc any) Kind {
	for _, k := range []string{"allOf", "anyOf", "not", "if", "$dynamicRef", "$recursiveRef"} {
		if _, has := sch[k]; has {
			return JSON
		}
	}
	typ, hasType := sch["type"].(string)
	if _, multi := sch["type"].([]any); multi {
		return JSON
	}
	if opts, ok := stringOptions(sch); ok && (!hasType || typ == "string") {
		p.Options = opts
		stringRules(p, sch)
		return Enum
	}
	if _, has := sch["oneOf"]; has {
		return JSON
	}
	switch typ {
	case "string":
		stringRules(p, sch)
		return String
	case "number", "integer":
		p.Minimum = looseBound(sch["minimum"], typ == "integer")
		p.Maximum = looseBound(sch["maximum"], typ == "integer")
		if typ == "integer" {
			return Integer
		}
		return Number
	case "boolean":
		return Boolean
	case "array":
		items, ok := sch["items"].(map[string]any)
		if !ok {
			return JSON
		}
		if items, ok = resolve(doc, items); !ok {
			return JSON
		}
		p.MinItems = looseCount(sch["minItems"])
		p.MaxItems = looseCount(sch["maxItems"])
		if opts, ok := stringOptions(items); ok {
			if t, has := items["type"]; !has || t == "string" {
				p.Options = opts
				return MultiEnum
			}
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf", "not", "if", "enum", "const"} {
			if _, has := items[k]; has {
				return JSON
			}
		}
		switch items["type"] {
		case "string":
			p.Items = String
		case "number":
			p.Items = Number
		case "integer":
			p.Items = Integer
		case "boolean":
			p.Items = Boolean
		default:
			return JSON
		}
		return List
	}
	return JSON
}

// stringOptions reads enum (all strings) or oneOf/anyOf of string consts
// as options; ok is false when sch is no string select.
func stringOptions(sch map[string]any) ([]Option, bool) {
	if enum, has := sch["enum"].([]any); has {
		if len(enum) == 0 {
			return nil, false
		}
		opts := make([]Option, 0, len(enum))
		for _, e := range enum {
			s, isStr := e.(string)
			if !isStr {
				return nil, false
			}
			opts = append(opts, Option{Value: s, Label: s})
		}
		return opts, true
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		alts, has := sch[key].([]any)
		if !has || len(alts) == 0 {
			continue
		}
		opts := make([]Option, 0, len(alts))
		for _, a := range alts {
			m, isObj := a.(map[string]any)
			if !isObj {
				return nil, false
			}
			v, isStr := m["const"].(string)
			if !isStr {
				return nil, false
			}
			label, _ := m["title"].(string)
			if label == "" {
				label = v
			}
			opts = append(opts, Option{Value: v, Label: label})
		}
		return opts, true
	}
	return nil, false
}

func stringRules(p *Property, sch map[string]any) {
	p.MinLength = looseCount(sch["minLength"])
	p.MaxLength = looseCount(sch["maxLength"])
	p.Format, _ = sch["format"].(string)
	if pat, ok := sch["pattern"].(string); ok {
		if re, err := lenientRegexp(pat); err == nil {
			if _, matchesAll := re.(anything); !matchesAll {
				p.Pattern = pat
			}
		}
	}
}

func looseCount(v any) *int {
	n, ok := v.(json.Number)
	if !ok {
		return nil
	}
	i, reason := integerOfText(string(n))
	if reason != "" || i < 0 || i > maxCount {
		return nil
	}
	c := int(i)
	return &c
}

func looseBound(v any, integer bool) *float64 {
	n, ok := v.(json.Number)
	if !ok {
		return nil
	}
	if integer {
		i, reason := integerOfText(string(n))
		if reason != "" {
			return nil
		}
		f := float64(i)
		return &f
	}
	f, reason := numberOf(n)
	if reason != "" {
		return nil
	}
	return &f
}

// fitValue types a default or example for p, or drops it (nil) when it
// does not pass p's own rules.
func fitValue(p *Property, v any) any {
	if v == nil {
		return nil
	}
	nv, reason := checkValue(p, v)
	if reason != "" {
		return nil
	}
	return nv
}

// Property returns the field called name, or nil.
func (ti *ToolInput) Property(name string) *Property {
	for _, p := range ti.Fields {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Defaults returns the typed defaults of every field that has one.
func (ti *ToolInput) Defaults() map[string]any { return defaultsOf(ti.Fields) }

// Validate checks tool arguments against the fields' rules and then the
// whole inputSchema, like Schema.Validate.
func (ti *ToolInput) Validate(args map[string]any) error {
	doc, err := checkFields(ti.Fields, args)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(ti.Raw)) == 0 {
		return nil
	}
	sch, err := ti.lib.get(ti.Raw)
	if err != nil {
		return fmt.Errorf("validating arguments: %w", err)
	}
	return libCheck(sch.Validate(doc), "")
}

// DecodeJSON reads the text of a JSON field and checks it against the
// field's schema; it returns the decoded value (numbers as json.Number).
// Empty text or null means no value: nil, and an error only when the field
// is required.
func DecodeJSON(p *Property, text string) (any, error) {
	if strings.TrimSpace(text) == "" {
		return nil, ValidateValue(p, nil)
	}
	var v any
	if err := decodeJSONText([]byte(text), &v); err != nil {
		return nil, &ValidationError{Property: p.Name, Reason: "is not valid JSON: " + strings.TrimPrefix(err.Error(), "decoding JSON: ")}
	}
	if v == nil {
		// null, like an empty field, means no value: the argument is left
		// out.
		return nil, ValidateValue(p, nil)
	}
	if err := ValidateValue(p, v); err != nil {
		return nil, err
	}
	return v, nil
}

func toolErr(prop, format string, args ...any) *SchemaError {
	e := schemaErr(prop, format, args...)
	e.Doc = "inputSchema"
	return e
}
