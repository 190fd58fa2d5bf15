package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// object is one schema object, keyword by keyword, values still raw.
type object map[string]json.RawMessage

// decodeObject decodes raw as a JSON object; ok is false for any other
// JSON value.
func decodeObject(raw json.RawMessage) (object, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	if ms, _, ok := plainMembers(raw, 0); ok {
		// As json.Unmarshal would: the last of a repeated name wins.
		m := make(object, len(ms))
		for _, x := range ms {
			m[x.name] = x.raw
		}
		return m, true
	}
	var m object
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, false
	}
	return m, true
}

// member is one name/value pair of a JSON object, in document order.
type member struct {
	name string
	raw  json.RawMessage
}

// orderedMembers decodes a JSON object keeping its member order, which a Go
// map would lose. dup is the first name seen twice; hasDup says there is
// one (the name may be "").
func orderedMembers(raw json.RawMessage) (ms []member, dup string, hasDup, ok bool) {
	ms, dup, hasDup, ok, _ = orderedMembersUpTo(raw, 0)
	return ms, dup, hasDup, ok
}

// orderedMembersUpTo is orderedMembers that stops reading, with over set,
// once it has seen more than limit members (0: no limit), so that a
// hostile schema millions of properties wide costs nothing more.
func orderedMembersUpTo(raw json.RawMessage, limit int) (ms []member, dup string, hasDup, ok, over bool) {
	if ms, over, ok := plainMembers(bytes.TrimSpace(raw), limit); ok {
		seen := make(map[string]bool, len(ms))
		for _, m := range ms {
			if seen[m.name] && !hasDup {
				dup, hasDup = m.name, true
			}
			seen[m.name] = true
		}
		return ms, dup, hasDup, true, over
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, "", false, false, false
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, "", false, false, false
		}
		name, isStr := tok.(string)
		if !isStr {
			return nil, "", false, false, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, "", false, false, false
		}
		if seen[name] && !hasDup {
			dup, hasDup = name, true
		}
		seen[name] = true
		ms = append(ms, member{name, v})
		if limit > 0 && len(ms) > limit {
			return ms, dup, hasDup, true, true
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, "", false, false, false
	}
	return ms, dup, hasDup, true, false
}

func (o object) has(key string) bool {
	_, ok := o[key]
	return ok
}

// str reads an optional string keyword.
func (o object) str(key string) (string, error) {
	raw, ok := o[key]
	if !ok {
		return "", nil
	}
	if s, ok := plainString(raw); ok {
		return s, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s must be a string", key)
	}
	return s, nil
}

// plainString reads a JSON string literal that has no escapes and is valid
// UTF-8, whose text is then its bytes, without the decoder (titles and
// descriptions, read for every prompt). ok is false for anything else,
// which json.Unmarshal then reads as before.
func plainString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	in := raw[1 : len(raw)-1]
	for _, b := range in {
		if b == '\\' || b == '"' || b < 0x20 {
			return "", false
		}
	}
	if !utf8.Valid(in) {
		return "", false
	}
	return string(in), true
}

// strings reads an optional array-of-strings keyword.
func (o object) strings(key string) ([]string, bool, error) {
	raw, ok := o[key]
	if !ok {
		return nil, false, nil
	}
	var ss []string
	if err := json.Unmarshal(raw, &ss); err != nil || ss == nil {
		return nil, true, fmt.Errorf("%s must be an array of strings", key)
	}
	return ss, true, nil
}

// number reads an optional numeric keyword as its literal.
func (o object) number(key string) (json.Number, bool, error) {
	raw, ok := o[key]
	if !ok {
		return "", false, nil
	}
	v, err := decodeExact(raw)
	if err != nil {
		return "", true, fmt.Errorf("%s must be a number", key)
	}
	n, isNum := v.(json.Number)
	if !isNum {
		return "", true, fmt.Errorf("%s must be a number", key)
	}
	return n, true, nil
}

// decodeExact decodes one JSON value with numbers as json.Number. A lone
// number, the common case (bounds, counts, defaults), is read without a
// json.Decoder, whose buffer dominated the allocations of Parse.
func decodeExact(raw json.RawMessage) (any, error) {
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && (t[0] == '-' || t[0] >= '0' && t[0] <= '9') && json.Valid(t) {
		return json.Number(t), nil
	}
	var v any
	if err := decodeJSONText(t, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// count reads an optional non-negative integer keyword (minLength,
// maxItems…).
func (o object) count(key string) (*int, error) {
	n, ok, err := o.number(key)
	if !ok || err != nil {
		return nil, err
	}
	i, reason := integerOfText(string(n))
	if reason != "" || i < 0 || i > maxCount {
		return nil, fmt.Errorf("%s must be a non-negative integer", key)
	}
	c := int(i)
	return &c, nil
}

// maxCount bounds counts so that they fit an int on every platform.
const maxCount = 1<<31 - 1

// bound reads minimum or maximum: any finite number, or for integers an
// exact safe integer.
func (o object) bound(key string, integer bool) (*float64, error) {
	n, ok, err := o.number(key)
	if !ok || err != nil {
		return nil, err
	}
	if integer {
		i, reason := integerOfText(string(n))
		switch reason {
		case "":
		case reasonUnsafe:
			return nil, fmt.Errorf("%s %s", key, reasonUnsafe)
		default:
			return nil, fmt.Errorf("%s must be an integer", key)
		}
		f := float64(i)
		return &f, nil
	}
	f, reason := numberOf(n)
	if reason != "" {
		return nil, fmt.Errorf("%s %s", key, reason)
	}
	return &f, nil
}

// value decodes an optional keyword (default, const) keeping numbers
// exact.
func (o object) value(key string) (any, bool) {
	raw, ok := o[key]
	if !ok {
		return nil, false
	}
	v, err := decodeExact(raw)
	if err != nil {
		return nil, false
	}
	return v, true
}

// choices reads oneOf/anyOf options: [{const, title}]. A missing title
// shows the value.
func (o object) choices(key string) ([]Option, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(o[key], &items); err != nil || items == nil {
		return nil, fmt.Errorf("%s must be an array of {const, title}", key)
	}
	opts := make([]Option, 0, len(items))
	for i, item := range items {
		m, ok := decodeObject(item)
		if !ok || !m.has("const") {
			return nil, fmt.Errorf("%s[%d] must be an object with const and title", key, i)
		}
		var v string
		if err := json.Unmarshal(m["const"], &v); err != nil {
			return nil, fmt.Errorf("%s[%d].const must be a string", key, i)
		}
		title, err := m.str("title")
		if err != nil {
			return nil, fmt.Errorf("%s[%d].%w", key, i, err)
		}
		if title == "" {
			title = v
		}
		opts = append(opts, Option{Value: v, Label: title})
	}
	return opts, nil
}

// checkOptions refuses an empty or repetitive option list.
func checkOptions(key string, opts []Option) error {
	if len(opts) == 0 {
		return fmt.Errorf("%s must not be empty", key)
	}
	if len(opts) > MaxOptions {
		return fmt.Errorf("%s lists %d options, more than the %d a person can choose from", key, len(opts), MaxOptions)
	}
	seen := make(map[string]struct{}, len(opts))
	for _, o := range opts {
		if _, dup := seen[o.Value]; dup {
			return fmt.Errorf("%s lists %q twice", key, o.Value)
		}
		seen[o.Value] = struct{}{}
	}
	return nil
}

// MaxOptions bounds the options of one select: past it a question is no
// longer something a person answers, and a server could make each one
// cost us CPU and memory (a 100,000-option enum is a 1.1 MB frame).
const MaxOptions = 10_000

// decodeJSONText decodes one JSON value keeping numbers exact and refusing
// trailing data.
func decodeJSONText(raw []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("decoding JSON: %w", err)
	}
	// More would miss a stray closing bracket ("[1]]"): at the top level it
	// reports no more elements. Only the end of the input may follow.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("decoding JSON: unexpected data after the value")
	}
	return nil
}
