package client

import "encoding/json"

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
