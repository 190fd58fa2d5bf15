package wire

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A small JSON scanner that walks a document in place: the exact-name
// decoding reads members and elements as slices of the document, without
// building a map or a slice per object as json.Unmarshal into
// map[string]json.RawMessage does (about 60 bytes per member: a
// gigabyte for a result of a million tiny blocks).
//
// It is written for valid JSON: callers check validity (json.Valid, or
// the document was decoded already) before they trust what it found. On
// other input it stays within bounds and always ends, and reports failure
// where it notices it.

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string that starts at b[i]
// (a '"'), or -1 if it does not end.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index just past the value that starts at b[i], or
// -1 if there is none. Containers are skipped by counting brackets
// outside strings, so depth costs no stack.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				if i = skipString(b, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	// A number or a literal: it runs to the next delimiter.
	start := i
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			if i == start {
				return -1
			}
			return i
		}
		i++
	}
	return i
}

// member is one member of an object, as offsets into the document.
type member struct {
	key      []byte // the name's bytes between the quotes, escapes as sent
	keyStart int    // the opening quote of the name
	valStart int
	valEnd   int
	next     int  // the next member's name, or the closing '}'
	comma    bool // a ',' follows the value
}

// objectScan walks the members of the object at b[start] ('{').
type objectScan struct {
	b    []byte
	i    int
	done bool
	bad  bool // the object broke off
}

func scanObject(b []byte, start int) objectScan {
	i := skipSpace(b, start+1)
	return objectScan{b: b, i: i, done: i >= len(b) || b[i] == '}'}
}

// next returns the next member; ok is false at the end, and s.bad is set
// if the object broke off.
func (s *objectScan) next() (m member, ok bool) {
	if s.done {
		return member{}, false
	}
	b := s.b
	bad := func() (member, bool) {
		s.done, s.bad = true, true
		return member{}, false
	}
	if s.i >= len(b) || b[s.i] != '"' {
		return bad()
	}
	m.keyStart = s.i
	end := skipString(b, s.i)
	if end < 0 {
		return bad()
	}
	m.key = b[s.i+1 : end-1]
	i := skipSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return bad()
	}
	m.valStart = skipSpace(b, i+1)
	if m.valEnd = skipValue(b, m.valStart); m.valEnd < 0 {
		return bad()
	}
	i = skipSpace(b, m.valEnd)
	switch {
	case i < len(b) && b[i] == ',':
		m.comma = true
		s.i = skipSpace(b, i+1)
	case i < len(b) && b[i] == '}':
		s.done = true
		s.i = i
	default:
		return bad()
	}
	m.next = s.i
	return m, true
}

// arrayScan walks the elements of the array at b[start] ('[').
type arrayScan struct {
	b    []byte
	i    int
	done bool
	bad  bool
}

func scanArray(b []byte, start int) arrayScan {
	i := skipSpace(b, start+1)
	return arrayScan{b: b, i: i, done: i >= len(b) || b[i] == ']'}
}

// next returns the next element's bounds; ok is false at the end, and
// s.bad is set if the array broke off.
func (s *arrayScan) next() (start, end int, ok bool) {
	if s.done {
		return 0, 0, false
	}
	b := s.b
	start = s.i
	if end = skipValue(b, start); end < 0 {
		s.done, s.bad = true, true
		return 0, 0, false
	}
	i := skipSpace(b, end)
	switch {
	case i < len(b) && b[i] == ',':
		s.i = skipSpace(b, i+1)
	case i < len(b) && b[i] == ']':
		s.done = true
	default:
		s.done, s.bad = true, true
		return 0, 0, false
	}
	return start, end, true
}

// memberName is a member's name as encoding/json compares it: the bytes
// themselves when they need no unescaping (the usual case, no copy),
// else the unquoted string (escapes decoded, invalid UTF-8 replaced).
func memberName(b []byte, m member) []byte {
	if isPlainString(m.key) {
		return m.key
	}
	var s string
	if json.Unmarshal(b[m.keyStart:m.keyStart+len(m.key)+2], &s) != nil {
		return m.key
	}
	return []byte(s)
}

// isPlainString reports whether the bytes of a JSON string literal
// (between its quotes) are its value: no escapes, valid UTF-8.
func isPlainString(s []byte) bool {
	for i, c := range s {
		if c == '\\' {
			return false
		}
		if c >= utf8.RuneSelf {
			return utf8.Valid(s[i:]) && bytes.IndexByte(s[i:], '\\') < 0
		}
	}
	return true
}

// stringValue decodes the JSON string literal v (quotes included).
func stringValue(v []byte) (string, error) {
	if len(v) >= 2 && isPlainString(v[1:len(v)-1]) {
		return string(v[1 : len(v)-1]), nil
	}
	var s string
	err := json.Unmarshal(v, &s)
	return s, err
}

// EachMember calls yield with the name (unescaped) and the value of each
// member of the JSON object obj, in order, until yield returns false, and
// reports whether obj read as an object. It walks the object's structure
// without checking that every value is valid JSON, and copies nothing: a
// reader that needs a few members of a megabyte-sized frame pays one
// pass over it, not encoding/json's two.
func EachMember(obj []byte, yield func(name, value []byte) bool) bool {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	o := scanObject(obj, i)
	for {
		m, ok := o.next()
		if !ok {
			return !o.bad && skipSpace(obj, o.i+1) == len(obj)
		}
		if !yield(memberName(obj, m), obj[m.valStart:m.valEnd:m.valEnd]) {
			return true
		}
	}
}
