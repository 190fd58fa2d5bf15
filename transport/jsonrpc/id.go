package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ID is a JSON-RPC request id: a string or a number. The zero ID means
// "absent" (a notification). IDs are comparable and may be used as map keys;
// the integer 1 and the string "1" are different ids, as the spec says.
//
// A number that is an int64 written the plain way (7, -3) is an integer
// id. Any other number (9223372036854775808, 1e300, 1.5, -0, 3.0) keeps its
// exact JSON text: JSON-RPC lets a peer use any number and wants "the same
// value" back, and only the bytes it sent are sure to read back as that
// value in its own language; so such an id is echoed byte for byte. Such
// ids compare by text: 3.0 and 3 differ (see Canonical).
type ID struct {
	kind idKind
	num  int64
	str  string // the string, or a number's JSON text
}

type idKind uint8

const (
	idNone idKind = iota
	idInt
	idString
	idNumber // a number that is no plain int64, kept as its text
)

// IntID returns the integer id n.
func IntID(n int64) ID { return ID{kind: idInt, num: n} }

// StringID returns the string id s.
func StringID(s string) ID { return ID{kind: idString, str: s} }

// IsValid reports whether the id is present.
func (id ID) IsValid() bool { return id.kind != idNone }

// IsString reports whether the id is a JSON string.
func (id ID) IsString() bool { return id.kind == idString }

// Int returns the integer value and whether the id is an integer. A number
// kept as its text (see ID) is not, even when Canonical makes one of it.
func (id ID) Int() (int64, bool) { return id.num, id.kind == idInt }

// Canonical returns the id that equals id by value among the ids this side
// issues (integers and strings): a number written another way (3.0, 3e0,
// 30e-1, -0) becomes that integer. A response answers one of our requests,
// so its id is read this way, in case the peer rewrote ours. ok is false
// for a number that is no int64 (1.5, 1e300), which answers nothing we
// could have sent.
func (id ID) Canonical() (c ID, ok bool) {
	if id.kind != idNumber {
		return id, true
	}
	n, ok := exactInt64(id.str)
	if !ok {
		return ID{}, false
	}
	return IntID(n), true
}

// String renders the id as it appears on the wire: 7 or "abc".
func (id ID) String() string {
	switch id.kind {
	case idNone:
		return "<none>"
	case idString:
		return strconv.Quote(id.str)
	case idNumber:
		return id.str
	default:
		return strconv.FormatInt(id.num, 10)
	}
}

// Raw returns the id's value without quotes (for display and headers).
func (id ID) Raw() string {
	switch id.kind {
	case idNone:
		return ""
	case idInt:
		return strconv.FormatInt(id.num, 10)
	default:
		return id.str
	}
}

// MarshalJSON implements json.Marshaler.
func (id ID) MarshalJSON() ([]byte, error) {
	switch id.kind {
	case idNone:
		return []byte("null"), nil
	case idString:
		return json.Marshal(id.str)
	case idNumber:
		return []byte(id.str), nil
	default:
		return strconv.AppendInt(nil, id.num, 10), nil
	}
}

// UnmarshalJSON implements json.Unmarshaler. It accepts a string or a
// number (see ID for how a number is kept); null and anything else are
// refused.
func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return fmt.Errorf("jsonrpc: empty id")
	}
	switch c := b[0]; {
	case c == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("jsonrpc: bad string id: %w", err)
		}
		*id = StringID(s)
		return nil
	case c == 'n':
		return fmt.Errorf("jsonrpc: null id")
	case c != '-' && (c < '0' || c > '9'), !json.Valid(b):
		return fmt.Errorf("jsonrpc: id must be a string or a number, got %s", truncate(b, 40))
	}
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil && strconv.FormatInt(n, 10) == string(b) {
		*id = IntID(n)
		return nil
	}
	*id = ID{kind: idNumber, str: string(b)}
	return nil
}

// exactInt64 returns the value of the JSON number s if it is an integer
// that fits int64, computed on the decimal digits: floats would round
// (9007199254740993.0) and big.Rat would build 10^exponent for any
// exponent a peer writes.
func exactInt64(s string) (int64, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e := strings.TrimPrefix(s[i+1:], "+")
		// More than 4 digits of exponent can only be 0, out of range or
		// a fraction, for any mantissa a sane frame holds: bound the work.
		if len(strings.TrimLeft(strings.TrimPrefix(e, "-"), "0")) > 4 {
			if strings.Trim(mant, "0.") == "" {
				return 0, true
			}
			return 0, false
		}
		n, err := strconv.Atoi(e)
		if err != nil {
			return 0, false
		}
		exp = n
	}
	digits := mant
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		digits = mant[:i] + mant[i+1:]
		exp -= len(mant) - i - 1
	}
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return 0, true // -0, 0.0, 0e7
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	digits = trimmed
	if exp < 0 || len(digits)+exp > 19 {
		return 0, false // a fraction, or more digits than an int64 has
	}
	text := digits + strings.Repeat("0", exp)
	if neg {
		text = "-" + text
	}
	n, err := strconv.ParseInt(text, 10, 64)
	return n, err == nil
}

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}
