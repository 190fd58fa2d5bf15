package forms

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// listField edits a tool argument that is an array of primitives as text
// in a multi-line Text field, rather than as one field per item: a list of
// unknown length fits one field, pasting a list works, and there is no
// add/remove-row machinery for huh to get wrong.
//
// The text is read as:
//   - a JSON array when it starts with "[" (the only way to send [] or a
//     string that spans lines or has edge spaces);
//   - otherwise string items one per line, and number, integer and boolean
//     items separated by commas or new lines. Items are trimmed and empty
//     ones skipped.
//
// Empty text is no answer.
type listField struct {
	p           *schema.Property
	text        string
	placeholder string
}

func newListField(p *schema.Property, tool bool) *listField {
	f := &listField{p: p}
	start, example := initial(p, tool)
	f.text = listText(p, start)
	f.placeholder = examplePlaceholder(listText(p, example))
	return f
}

// listText prints a typed list for editing: one per line or
// comma-separated when that reads back the same, else as JSON.
func listText(p *schema.Property, v any) string {
	items, ok := v.([]any)
	if !ok {
		if ss, isStrings := v.([]string); isStrings {
			for _, s := range ss {
				items = append(items, s)
			}
		} else {
			return ""
		}
	}
	if len(items) == 0 {
		return "[]"
	}
	parts := make([]string, len(items))
	plain := true
	for i, it := range items {
		switch x := it.(type) {
		case string:
			parts[i] = x
			plain = plain && x != "" && x == strings.TrimSpace(x) && !strings.Contains(x, "\n") &&
				!(i == 0 && strings.HasPrefix(x, "["))
		default:
			b, err := json.Marshal(x)
			if err != nil {
				return ""
			}
			parts[i] = string(b)
		}
	}
	if !plain {
		b, err := json.Marshal(items)
		if err != nil {
			return ""
		}
		return string(b)
	}
	if p.Items == schema.String {
		return strings.Join(parts, "\n")
	}
	return strings.Join(parts, ", ")
}

func (f *listField) property() *schema.Property { return f.p }

func (f *listField) build(theme huh.Theme) huh.Field {
	return themed(huh.NewText(), theme).
		Key(f.p.Name).
		Title(title(f.p)).
		Description(description(f.p)).
		Placeholder(untrusted.Text(f.placeholder)).
		Lines(4).
		EditorExtension("txt").
		Value(&f.text).
		Validate(func(s string) error { _, _, err := f.read(s); return err })
}

func (f *listField) value() (any, bool, error) { return f.read(f.text) }

func (f *listField) read(s string) (any, bool, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return answer(f.p, nil, false, nil)
	}
	var raw []any
	fromJSON := strings.HasPrefix(t, "[")
	if fromJSON {
		v, err := decodeJSON(t)
		if err != nil {
			return answer(f.p, nil, false, err)
		}
		arr, ok := v.([]any)
		if !ok {
			return answer(f.p, nil, false, errors.New("not a JSON array"))
		}
		raw = arr
	} else {
		raw = splitItems(t, f.p.Items == schema.String)
	}
	out := make([]any, 0, len(raw))
	for i, it := range raw {
		v, err := listItem(f.p.Items, it, fromJSON)
		if err != nil {
			return answer(f.p, nil, false, fmt.Errorf("item %d: %w", i+1, err))
		}
		out = append(out, v)
	}
	return answer(f.p, out, true, nil)
}

// splitItems splits typed text into trimmed, non-empty items.
func splitItems(s string, linesOnly bool) []any {
	sep := func(r rune) bool { return r == '\n' || r == '\r' || !linesOnly && r == ',' }
	var out []any
	for _, part := range strings.FieldsFunc(s, sep) {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// listItem types one item: text from a line (fromJSON false), or a value
// from a JSON array, where a number must be a JSON number and a boolean a
// JSON boolean.
func listItem(kind schema.Kind, it any, fromJSON bool) (any, error) {
	text, isText := it.(string)
	if fromJSON && kind != schema.String {
		isText = false
	}
	if n, ok := it.(json.Number); ok {
		text, isText = string(n), kind != schema.String
	}
	switch kind {
	case schema.Integer:
		if !isText {
			return nil, errors.New("must be a whole number")
		}
		return readInteger(text)
	case schema.Number:
		if !isText {
			return nil, errors.New("must be a number")
		}
		return readNumber(text)
	case schema.Boolean:
		if b, ok := it.(bool); ok {
			return b, nil
		}
		if isText {
			switch strings.ToLower(text) {
			case "true", "yes", "y":
				return true, nil
			case "false", "no", "n":
				return false, nil
			}
		}
		return nil, errors.New("must be true or false")
	}
	if !isText {
		return nil, errors.New("must be a string")
	}
	return text, nil
}

// jsonField edits a tool argument deeper than the form can draw (an
// object, an array of objects, a union) as JSON text, validated against
// its sub-schema.
type jsonField struct {
	p           *schema.Property
	text        string
	placeholder string
}

func newJSONField(p *schema.Property, tool bool) *jsonField {
	f := &jsonField{p: p}
	start, example := initial(p, tool)
	f.text = jsonText(start)
	f.placeholder = examplePlaceholder(jsonText(example))
	return f
}

// jsonText prints a decoded JSON value for editing, indented.
func jsonText(v any) string {
	if v == nil {
		return ""
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return ""
	}
	return string(b)
}

func (f *jsonField) property() *schema.Property { return f.p }

func (f *jsonField) build(theme huh.Theme) huh.Field {
	return themed(huh.NewText(), theme).
		Key(f.p.Name).
		Title(title(f.p)).
		Description(description(f.p)).
		Placeholder(untrusted.Text(f.placeholder)).
		Lines(jsonLines(f.text, f.placeholder)).
		EditorExtension("json").
		Value(&f.text).
		Validate(func(s string) error { _, _, err := f.read(s); return err })
}

// jsonLines is the height of a JSON box: six lines, or as many as its
// starting text or placeholder (a template) takes, up to twelve.
func jsonLines(text, placeholder string) int {
	n := max(strings.Count(text, "\n"), strings.Count(placeholder, "\n")) + 1
	return min(max(n, 6), 12)
}

func (f *jsonField) value() (any, bool, error) { return f.read(f.text) }

func (f *jsonField) read(s string) (any, bool, error) {
	// DecodeJSON is the schema's own reading: empty text and null are no
	// answer, numbers stay json.Number so big integers are sent as typed.
	v, err := schema.DecodeJSON(f.p, s)
	if err != nil {
		return nil, false, humanize(f.p, err)
	}
	return v, v != nil, nil
}

// decodeJSON reads exactly one JSON value, numbers kept as json.Number so
// that big integers are sent as typed.
func decodeJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %s", jsonReason(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not valid JSON: there is text after the value")
	}
	return v, nil
}

func jsonReason(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s (at byte %d)", strings.TrimPrefix(se.Error(), "json: "), se.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "it ends too early"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}
