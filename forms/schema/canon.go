package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"unicode/utf8"
)

// canonicalForm returns the text a Cache keys a document by: the document
// without its annotations at schema positions (annotations.go), without
// whitespace, and with the members of each object sorted by name. It is
// computed from the raw bytes in one pass, without decoding: decoding the
// document into Go values and encoding it again cost as much per prompt as
// the rest of Parse, and its garbage drove the engine's tail latency.
//
// The text is itself JSON, and decodes to exactly the value the compiler
// would decode from raw, less the stripped annotations; so two documents
// with the same text validate alike (FuzzCanonicalForm checks this against
// a decode-strip reference). stripped is false when the rules of
// annotations.go forbid stripping this document; the text then keeps every
// member. ok is false when raw is not a JSON value the scanner can follow
// (invalid, or nested deeper than maxCanonDepth): compile it uncached.
func canonicalForm(raw []byte) (text []byte, stripped, ok bool) {
	if !json.Valid(raw) {
		return nil, false, false
	}
	c := canonicaliser{src: raw, strip: true, out: make([]byte, 0, len(raw)), stack: make([]span, 0, 8)}
	err := c.run()
	if errors.Is(err, errNoStrip) {
		c = canonicaliser{src: raw, out: c.out[:0], stack: c.stack[:0]}
		err = c.run()
	}
	if err != nil {
		return nil, false, false
	}
	return c.out, c.strip, true
}

// maxCanonDepth bounds the nesting canonicalForm follows (it recurses);
// form schemas are a few levels deep.
const maxCanonDepth = 256

var (
	// errNoStrip restarts canonicalisation with stripping off.
	errNoStrip = errors.New("document must be keyed whole")
	errSyntax  = errors.New("unexpected JSON")
	errDeep    = errors.New("JSON nested too deep to key")
)

// position is what a JSON value is, seen from the schema document.
type position uint8

const (
	posData       position = iota // not a schema: enum, const, default, unknown keywords
	posSchema                     // a schema (object or boolean)
	posSchemaList                 // an array of schemas (allOf, prefixItems …)
	posSchemaMap                  // an object of schemas by name (properties, $defs …)
)

// span is one object member: the offsets of its quoted name and its value
// in the source.
type span struct{ k0, k1, v0, v1 int }

type canonicaliser struct {
	src   []byte
	out   []byte
	strip bool
	depth int
	// stack holds the members of the objects being written, innermost
	// last, so one slice serves the whole document.
	stack []span
}

func (c *canonicaliser) run() error {
	end, err := c.value(c.ws(0), posSchema)
	if err != nil {
		return err
	}
	if c.ws(end) != len(c.src) {
		return errSyntax
	}
	return nil
}

func (c *canonicaliser) ws(i int) int {
	for i < len(c.src) && isSpace(c.src[i]) {
		i++
	}
	return i
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// value writes the value at i and returns the offset just after it.
func (c *canonicaliser) value(i int, pos position) (int, error) {
	if i >= len(c.src) {
		return 0, errSyntax
	}
	switch c.src[i] {
	case '{':
		return c.object(i, pos)
	case '[':
		return c.array(i, pos)
	}
	end, err := skipValue(c.src, i)
	if err != nil {
		return 0, err
	}
	c.out = append(c.out, c.src[i:end]...) // strings and numbers verbatim
	return end, nil
}

func (c *canonicaliser) array(i int, pos position) (int, error) {
	if c.depth++; c.depth > maxCanonDepth {
		return 0, errDeep
	}
	defer func() { c.depth-- }()
	elem := posData
	if pos == posSchemaList {
		elem = posSchema
	}
	c.out = append(c.out, '[')
	j := c.ws(i + 1)
	if j < len(c.src) && c.src[j] == ']' {
		c.out = append(c.out, ']')
		return j + 1, nil
	}
	for {
		end, err := c.value(j, elem)
		if err != nil {
			return 0, err
		}
		j = c.ws(end)
		if j >= len(c.src) {
			return 0, errSyntax
		}
		switch c.src[j] {
		case ',':
			c.out = append(c.out, ',')
			j = c.ws(j + 1)
		case ']':
			c.out = append(c.out, ']')
			return j + 1, nil
		default:
			return 0, errSyntax
		}
	}
}

func (c *canonicaliser) object(i int, pos position) (int, error) {
	if c.depth++; c.depth > maxCanonDepth {
		return 0, errDeep
	}
	defer func() { c.depth-- }()
	base := len(c.stack)
	defer func() { c.stack = c.stack[:base] }()

	j := c.ws(i + 1)
	if j < len(c.src) && c.src[j] == '}' {
		c.out = append(c.out, '{', '}')
		return j + 1, nil
	}
	for {
		if j >= len(c.src) || c.src[j] != '"' {
			return 0, errSyntax
		}
		k0 := j
		k1, err := skipValue(c.src, k0)
		if err != nil {
			return 0, err
		}
		j = c.ws(k1)
		if j >= len(c.src) || c.src[j] != ':' {
			return 0, errSyntax
		}
		v0 := c.ws(j + 1)
		v1, err := skipValue(c.src, v0)
		if err != nil {
			return 0, err
		}
		c.stack = append(c.stack, span{k0: k0, k1: k1, v0: v0, v1: v1})
		j = c.ws(v1)
		if j >= len(c.src) {
			return 0, errSyntax
		}
		if c.src[j] == '}' {
			j++
			break
		}
		if c.src[j] != ',' {
			return 0, errSyntax
		}
		j = c.ws(j + 1)
	}

	// Sorting is safe only when a name's bytes are its decoded text (no
	// escapes, valid UTF-8): otherwise two different byte strings could
	// decode to one name, whose last value wins, and reordering them would
	// change which. The sort is stable, so a name repeated as the same
	// bytes keeps its order (and its last value) too.
	members := c.stack[base:]
	plain := true
	for _, m := range members {
		name := c.src[m.k0+1 : m.k1-1]
		if bytes.IndexByte(name, '\\') >= 0 || !utf8.Valid(name) {
			plain = false
			break
		}
	}
	if plain {
		slices.SortStableFunc(members, func(a, b span) int {
			return bytes.Compare(c.src[a.k0:a.k1], c.src[b.k0:b.k1])
		})
	}
	if c.strip {
		if !plain {
			return 0, errNoStrip
		}
		for n, m := range members {
			if isRefKeyword(string(c.src[m.k0+1:m.k1-1])) ||
				n > 0 && bytes.Equal(c.src[members[n-1].k0:members[n-1].k1], c.src[m.k0:m.k1]) {
				return 0, errNoStrip
			}
		}
	}

	c.out = append(c.out, '{')
	first := true
	for _, m := range members {
		name := c.src[m.k0+1 : m.k1-1]
		if c.strip && pos == posSchema && strippable(string(name), c.src[m.v0]) {
			continue
		}
		if !first {
			c.out = append(c.out, ',')
		}
		first = false
		c.out = append(c.out, c.src[m.k0:m.k1]...)
		c.out = append(c.out, ':')
		child := posData
		switch pos {
		case posSchema:
			child = keywordPos(string(name), c.src[m.v0])
		case posSchemaMap:
			child = posSchema // names, not keywords: nothing stripped here
		}
		if _, err := c.value(m.v0, child); err != nil {
			return 0, err
		}
	}
	c.out = append(c.out, '}')
	return j, nil
}

// keywordPos is the position of the value of keyword k of a schema, whose
// value starts with first.
func keywordPos(k string, first byte) position {
	switch {
	case first == '{' && isSchemaMapKeyword(k):
		return posSchemaMap
	case first == '[' && isSchemaListKeyword(k):
		return posSchemaList
	case isSchemaKeyword(k):
		return posSchema
	}
	return posData
}

// skipValue returns the offset just after the JSON value at i.
func skipValue(src []byte, i int) (int, error) {
	depth := 0
	for i < len(src) {
		switch b := src[i]; b {
		case '"':
			i++
			for i < len(src) && src[i] != '"' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(src) {
				return 0, errSyntax
			}
			i++
		case '{', '[':
			depth++
			i++
		case '}', ']':
			if depth--; depth < 0 {
				return 0, errSyntax
			}
			i++
		default:
			if depth == 0 {
				j := i
				for j < len(src) && !isSpace(src[j]) && src[j] != ',' && src[j] != '}' && src[j] != ']' && src[j] != ':' {
					j++
				}
				if j == i {
					return 0, errSyntax
				}
				return j, nil
			}
			i++
			continue
		}
		if depth == 0 {
			return i, nil
		}
	}
	return 0, errSyntax
}

// plainMembers splits a JSON object into its members in document order,
// values as sub-slices of raw, without the decoder. ok is false (and the
// caller decodes as before) unless raw is a valid JSON object whose every
// name is plain (no escapes, valid UTF-8), so that a name's bytes are its
// text. It stops, with over set, after limit members (0: no limit).
func plainMembers(raw []byte, limit int) (ms []member, over, ok bool) {
	if !json.Valid(raw) {
		return nil, false, false
	}
	c := canonicaliser{src: raw}
	j := c.ws(0)
	if j >= len(raw) || raw[j] != '{' {
		return nil, false, false
	}
	j = c.ws(j + 1)
	if raw[j] == '}' {
		return []member{}, false, true
	}
	for {
		k1, err := skipValue(raw, j) // valid JSON: a quoted name
		if err != nil {
			return nil, false, false
		}
		name := raw[j+1 : k1-1]
		if bytes.IndexByte(name, '\\') >= 0 || !utf8.Valid(name) {
			return nil, false, false
		}
		v0 := c.ws(c.ws(k1) + 1) // past the colon
		v1, err := skipValue(raw, v0)
		if err != nil {
			return nil, false, false
		}
		ms = append(ms, member{string(name), raw[v0:v1:v1]})
		if limit > 0 && len(ms) > limit {
			return ms, true, true
		}
		j = c.ws(v1)
		if raw[j] == '}' {
			return ms, false, true
		}
		j = c.ws(j + 1) // past the comma
	}
}
