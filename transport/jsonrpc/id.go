package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// ID is a JSON-RPC request id: an integer or a string. The zero ID means
// "absent" (a notification). IDs are comparable and may be used as map keys;
// the integer 1 and the string "1" are different ids, as the spec says.
type ID struct {
	isStr bool
	set   bool
	num   int64
	str   string
}

// IntID returns the integer id n.
func IntID(n int64) ID { return ID{set: true, num: n} }

// StringID returns the string id s.
func StringID(s string) ID { return ID{set: true, isStr: true, str: s} }

// IsValid reports whether the id is present.
func (id ID) IsValid() bool { return id.set }

// IsString reports whether the id is a JSON string.
func (id ID) IsString() bool { return id.isStr }

// Int returns the integer value and whether the id is an integer.
func (id ID) Int() (int64, bool) { return id.num, id.set && !id.isStr }

// String renders the id as it appears on the wire: 7 or "abc".
func (id ID) String() string {
	switch {
	case !id.set:
		return "<none>"
	case id.isStr:
		return strconv.Quote(id.str)
	default:
		return strconv.FormatInt(id.num, 10)
	}
}

// Raw returns the id's value without quotes (for display and headers).
func (id ID) Raw() string {
	if id.isStr {
		return id.str
	}
	if !id.set {
		return ""
	}
	return strconv.FormatInt(id.num, 10)
}

// MarshalJSON implements json.Marshaler.
func (id ID) MarshalJSON() ([]byte, error) {
	switch {
	case !id.set:
		return []byte("null"), nil
	case id.isStr:
		return json.Marshal(id.str)
	default:
		return strconv.AppendInt(nil, id.num, 10), nil
	}
}

// UnmarshalJSON implements json.Unmarshaler. It accepts a string or an
// integer (a float with no fraction, such as 3.0, is taken as 3); null and
// anything else are refused.
func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return fmt.Errorf("jsonrpc: empty id")
	}
	switch b[0] {
	case '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("jsonrpc: bad string id: %w", err)
		}
		*id = StringID(s)
		return nil
	case 'n':
		return fmt.Errorf("jsonrpc: null id")
	}
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*id = IntID(n)
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || f != float64(int64(f)) {
		return fmt.Errorf("jsonrpc: id must be a string or an integer, got %s", truncate(b, 40))
	}
	*id = IntID(int64(f))
	return nil
}

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}
