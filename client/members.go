package client

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

// rawRef is a member's value as a slice of the document, not a copy: the
// document outlives the lookup, and a result may be megabytes.
type rawRef []byte

func (r *wire.RawRef) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// exactMembers returns a JSON object's members by exact name (the last of
// a repeated name wins, as with encoding/json). The values alias raw.
func exactMembers(raw []byte) (map[string]wire.RawRef, error) {
	var m map[string]wire.RawRef
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// exactString decodes m[name] as a string; ok is false if it is absent,
// and err is set if it is there but not a string (or null).
func exactString(m map[string]wire.RawRef, name string) (s string, ok bool, err error) {
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

// decodeExact is json.Unmarshal into v, except that a member whose name
// matches one of a struct's fields only without regard to case ("IsError"
// for isError) is left out instead of filling that field: at every depth
// v's type describes (structs, and slices, arrays, maps and pointers of
// them), down to exactDepth. Types that decode themselves are left to
// their UnmarshalJSON.
func decodeExact(raw []byte, v any) error {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer {
		return json.Unmarshal(raw, v)
	}
	if out, changed := stripVariants(raw, t.Elem(), 0); changed {
		raw = out
	}
	return json.Unmarshal(raw, v)
}

// exactDepth bounds how deep stripVariants follows a document: result
// types are a few levels deep, and a hostile document may be thousands.
const exactDepth = 32

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// stripVariants returns raw without the case-variant members of t's struct
// types (see decodeExact), and whether it left anything out. Anything it
// cannot read is returned as is, for json.Unmarshal to judge.
func stripVariants(raw []byte, t reflect.Type, depth int) ([]byte, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if depth > exactDepth || !hasFields(t, depth) {
		return raw, false
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return raw, false
	}
	switch t.Kind() {
	case reflect.Struct:
		if trimmed[0] != '{' {
			return raw, false
		}
		m, err := wire.ExactMembers(trimmed)
		if err != nil {
			return raw, false
		}
		fields := map[string]reflect.Type{}
		fieldTypes(t, fields)
		changed := false
		kept := make(map[string]json.RawMessage, len(m))
		for k, val := range m {
			ft, exact := fields[k]
			if !exact {
				if caseVariantOf(k, fields) {
					changed = true // "IsError" is not isError
					continue
				}
				kept[k] = json.RawMessage(val)
				continue
			}
			out, c := stripVariants(val, ft, depth+1)
			changed = changed || c
			kept[k] = out
		}
		if !changed {
			return raw, false
		}
		return wire.Object(kept), true
	case reflect.Slice, reflect.Array:
		if trimmed[0] != '[' || t.Elem().Kind() == reflect.Uint8 {
			return raw, false
		}
		var items []wire.RawRef
		if json.Unmarshal(trimmed, &items) != nil {
			return raw, false
		}
		changed := false
		out := make([]json.RawMessage, len(items))
		for i, it := range items {
			o, c := stripVariants(it, t.Elem(), depth+1)
			changed = changed || c
			out[i] = o
		}
		if !changed {
			return raw, false
		}
		b, err := json.Marshal(out)
		if err != nil {
			return raw, false
		}
		return b, true
	case reflect.Map:
		if trimmed[0] != '{' || t.Key().Kind() != reflect.String {
			return raw, false
		}
		m, err := wire.ExactMembers(trimmed)
		if err != nil {
			return raw, false
		}
		changed := false
		kept := make(map[string]json.RawMessage, len(m))
		for k, val := range m {
			o, c := stripVariants(val, t.Elem(), depth+1)
			changed = changed || c
			kept[k] = o
		}
		if !changed {
			return raw, false
		}
		return wire.Object(kept), true
	}
	return raw, false
}

// caseVariantOf reports whether k spells one of the field names but for
// case.
func caseVariantOf(k string, fields map[string]reflect.Type) bool {
	for n := range fields {
		if strings.EqualFold(k, n) {
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
