package client

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
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

func (r *rawRef) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// exactMembers returns a JSON object's members by exact name (the last of
// a repeated name wins, as with encoding/json). The values alias raw.
func exactMembers(raw []byte) (map[string]rawRef, error) {
	var m map[string]rawRef
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// exactString decodes m[name] as a string; ok is false if it is absent,
// and err is set if it is there but not a string (or null).
func exactString(m map[string]rawRef, name string) (s string, ok bool, err error) {
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

// decodeExact is json.Unmarshal into v, except that a top-level member
// whose name matches one of v's fields only without regard to case
// ("IsError" for isError) is left out instead of filling that field. v's
// own nested structs still match leniently. A v that is not a pointer to a
// struct, or that decodes itself, is handed to json.Unmarshal as is.
func decodeExact(raw []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return json.Unmarshal(raw, v)
	}
	if _, custom := v.(json.Unmarshaler); custom {
		return json.Unmarshal(raw, v)
	}
	names := map[string]bool{}
	fieldNames(rv.Elem().Type(), names)
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' {
		return json.Unmarshal(raw, v)
	}
	m, err := exactMembers(t)
	if err != nil {
		return json.Unmarshal(raw, v) // its error, worded as usual
	}
	var drop []string
	for k := range m {
		if names[k] {
			continue
		}
		for n := range names {
			if strings.EqualFold(k, n) {
				drop = append(drop, k)
				break
			}
		}
	}
	if len(drop) == 0 {
		return json.Unmarshal(raw, v)
	}
	kept := make(map[string]json.RawMessage, len(m))
	for k, val := range m {
		if !slices.Contains(drop, k) {
			kept[k] = json.RawMessage(val)
		}
	}
	return json.Unmarshal(object(kept), v)
}

// fieldNames adds the JSON member names of struct type t's fields,
// embedded structs' included, as encoding/json names them.
func fieldNames(t reflect.Type, names map[string]bool) {
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
				fieldNames(ft, names)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names[name] = true
	}
}
