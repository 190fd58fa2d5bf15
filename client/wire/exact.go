package wire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// encoding/json matches member names to struct fields without regard to
// case, but MCP's names are exact: a server's "RequestedSchema",
// "ResultType" or "requestStAte" is some other member, not the one the
// spec names (fuzzing found each being taken for the real one). Objects
// whose members decide what we do are therefore read by exact name.

// RawRef is a member's value as a slice of the document, not a copy: the
// document outlives the lookup, and a result may be megabytes.
type RawRef []byte

func (r *RawRef) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// ExactMembers returns a JSON object's members by exact name (the last of
// a repeated name wins, as with encoding/json). The values alias raw.
func ExactMembers(raw []byte) (map[string]RawRef, error) {
	var m map[string]RawRef
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// ExactString decodes m[name] as a string; ok is false if it is absent,
// and err is set if it is there but not a string (or null).
func ExactString(m map[string]RawRef, name string) (s string, ok bool, err error) {
	raw, ok := m[name]
	if !ok {
		return "", false, nil
	}
	var p *string
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return "", true, err
	}
	if p == nil {
		return "", false, nil // null: as absent, which encoding/json did too
	}
	return *p, true, nil
}

// DecodeExact is json.Unmarshal into v, except that a member whose name
// matches one of a struct's fields only without regard to case ("IsError"
// for isError) is left out instead of filling that field: at every depth
// v's type describes (structs, and slices, arrays, maps and pointers of
// them), down to exactDepth. Types that decode themselves are left to
// their UnmarshalJSON.
//
// The document is walked in place; only when it holds such members is a
// copy made, without them, for json.Unmarshal. So the pass costs no more
// than the document whatever its shape.
func DecodeExact(raw []byte, v any) error {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer || !hasFields(t.Elem(), 0) {
		return json.Unmarshal(raw, v)
	}
	w := exactWalk{types: map[reflect.Type]*exactType{}}
	w.walk(raw, 0, t.Elem(), 0)
	if len(w.cuts) > 0 && json.Valid(raw) {
		raw = w.apply(raw)
	}
	return json.Unmarshal(raw, v)
}

// exactDepth bounds how deep DecodeExact follows a document: result
// types are a few levels deep, and a hostile document may be thousands.
const exactDepth = 32

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// exactWalk is one DecodeExact pass: what it learnt of the types it met
// (once per type, not per object: a result may hold a million), and the
// spans of the document to leave out, in document order.
type exactWalk struct {
	types map[reflect.Type]*exactType
	cuts  []span
}

type span struct{ start, end int }

// exactType is what the walk needs of a type.
type exactType struct {
	walk   bool                    // it can hold struct fields (hasFields)
	fields map[string]reflect.Type // a struct's members by JSON name
	names  [][]byte                // the same names, for case-folded comparison
}

func (w *exactWalk) info(t reflect.Type) *exactType {
	if ti, ok := w.types[t]; ok {
		return ti
	}
	ti := &exactType{walk: hasFields(t, 0)}
	if ti.walk && t.Kind() == reflect.Struct {
		ti.fields = map[string]reflect.Type{}
		fieldTypes(t, ti.fields)
		for n := range ti.fields {
			ti.names = append(ti.names, []byte(n))
		}
	}
	w.types[t] = ti
	return ti
}

// walk notes the case-variant members of the value at b[i] read as type
// t. What it cannot read it leaves alone, for json.Unmarshal to judge.
func (w *exactWalk) walk(b []byte, i int, t reflect.Type, depth int) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if depth > exactDepth || !w.info(t).walk {
		return
	}
	if i = skipSpace(b, i); i >= len(b) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if b[i] == '{' {
			w.object(b, i, t, depth)
		}
	case reflect.Slice, reflect.Array:
		if b[i] != '[' || t.Elem().Kind() == reflect.Uint8 {
			return
		}
		for a := scanArray(b, i); ; {
			start, _, ok := a.next()
			if !ok {
				return
			}
			w.walk(b, start, t.Elem(), depth+1)
		}
	case reflect.Map:
		if b[i] != '{' || t.Key().Kind() != reflect.String {
			return
		}
		for o := scanObject(b, i); ; {
			m, ok := o.next()
			if !ok {
				return
			}
			w.walk(b, m.valStart, t.Elem(), depth+1)
		}
	}
}

// object walks the members of a struct's object at b[i]: exact names are
// followed, case variants cut with one of their commas, so that what is
// left is the same object without them.
func (w *exactWalk) object(b []byte, i int, t reflect.Type, depth int) {
	ti := w.info(t)
	kept := false // a member before this one stays
	prevEnd := i + 1
	for o := scanObject(b, i); ; {
		m, ok := o.next()
		if !ok {
			return
		}
		name := memberName(b, m)
		ft, exact := ti.fields[string(name)]
		switch {
		case exact:
			w.walk(b, m.valStart, ft, depth+1)
			kept = true
		case variantOf(name, ti.names):
			// "IsError" is not isError. After a kept member the comma
			// before goes; before any, the comma after.
			switch {
			case kept:
				w.cuts = append(w.cuts, span{prevEnd, m.valEnd})
			case m.comma:
				w.cuts = append(w.cuts, span{m.keyStart, m.next})
			default:
				w.cuts = append(w.cuts, span{m.keyStart, m.valEnd})
			}
		default:
			kept = true
		}
		prevEnd = m.valEnd
	}
}

// apply returns a copy of b without the cuts.
func (w *exactWalk) apply(b []byte) []byte {
	n := len(b)
	for _, c := range w.cuts {
		n -= c.end - c.start
	}
	out := make([]byte, 0, n)
	at := 0
	for _, c := range w.cuts {
		out = append(out, b[at:c.start]...)
		at = c.end
	}
	return append(out, b[at:]...)
}

// variantOf reports whether name spells one of names but for case, as
// encoding/json folds them (bytes.EqualFold).
func variantOf(name []byte, names [][]byte) bool {
	for _, n := range names {
		if bytes.EqualFold(name, n) {
			return true
		}
	}
	return false
}

// hasFields reports whether a value of type t can hold struct fields that
// decode by name (a struct, or a pointer, slice, array or map leading to
// one, not behind an UnmarshalJSON): only then is there anything for
// stripVariants to do, and a map of raw values is not walked for nothing.
func hasFields(t reflect.Type, depth int) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if depth > exactDepth || reflect.PointerTo(t).Implements(jsonUnmarshaler) || t.Implements(jsonUnmarshaler) {
		return false
	}
	switch t.Kind() {
	case reflect.Struct:
		return true
	case reflect.Slice, reflect.Array, reflect.Map:
		return hasFields(t.Elem(), depth+1)
	}
	return false
}

// fieldTypes adds the JSON member names of struct type t's fields, with
// their types, embedded structs' included, as encoding/json names them.
func fieldTypes(t reflect.Type, fields map[string]reflect.Type) {
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				fieldTypes(ft, fields)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
}
