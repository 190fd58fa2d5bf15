package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
)

// Duplicate is a member an object of a JSON text names twice. JSON
// allows it only as a SHOULD NOT (RFC 8259 §4), and encoding/json keeps
// the last silently: where the member decides what runs or where to
// connect (a config's server, its command), a person reading the first
// is shown one thing and gets another.
type Duplicate struct {
	// Path is the members (and array indexes) down to the object.
	Path []string
	// First and Second are the two names as spelt: equal, or equal but
	// for case where the object is read case-insensitively.
	First, Second string
	// FirstEnd and SecondEnd are the byte offsets just after each name.
	FirstEnd, SecondEnd int64
}

// Pointer is Path as a JSON pointer ("" for the top level).
func (d *Duplicate) Pointer() string {
	var b strings.Builder
	for _, p := range d.Path {
		b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// FindDuplicate returns the first member named twice in one object of
// data, in document order, or nil. Two names are one member when key
// gives them the same key (nil: when they are equal). An object read as
// encoding/json reads a struct takes FoldName for key (names regardless
// of case); a map of names (servers, environment variables) the name as
// it is. A text that is not valid JSON is an error.
func FindDuplicate(data []byte, key func(path []string, name string) string) (*Duplicate, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if key == nil {
		key = func(_ []string, name string) string { return name }
	}
	w := dupWalker{dec: dec, key: key}
	d, err := w.value(nil)
	if err != nil {
		return nil, err
	}
	if d == nil {
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return nil, errors.New("more than one JSON value")
		}
	}
	return d, nil
}

type dupWalker struct {
	dec *json.Decoder
	key func(path []string, name string) string
}

type seenName struct {
	name string
	end  int64
}

// value walks the next value, at path.
func (w dupWalker) value(path []string) (*Duplicate, error) {
	tok, err := w.dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('['):
		for i := 0; w.dec.More(); i++ {
			if d, err := w.value(append(path[:len(path):len(path)], strconv.Itoa(i))); d != nil || err != nil {
				return d, err
			}
		}
	case json.Delim('{'):
		seen := map[string]seenName{}
		for w.dec.More() {
			tok, err := w.dec.Token()
			if err != nil {
				return nil, err
			}
			name, ok := tok.(string)
			if !ok {
				return nil, fmt.Errorf("member name %v is not a string", tok)
			}
			key := w.key(path, name)
			end := w.dec.InputOffset()
			if prev, ok := seen[key]; ok {
				return &Duplicate{Path: path, First: prev.name, Second: name, FirstEnd: prev.end, SecondEnd: end}, nil
			}
			seen[key] = seenName{name, end}
			if d, err := w.value(append(path[:len(path):len(path)], name)); d != nil || err != nil {
				return d, err
			}
		}
	default:
		return nil, nil // a scalar
	}
	_, err = w.dec.Token() // the closing ] or }
	return nil, err
}

// FoldName is name with each rune the smallest of its case-folding
// orbit: FoldName(a) == FoldName(b) exactly when strings.EqualFold(a, b),
// which is how encoding/json matches a struct's field names.
func FoldName(name string) string {
	var b strings.Builder
	for _, r := range name {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}
