package forms

import (
	"strconv"
	"strings"

	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// textField edits a string property in a one-line Input. The text is sent
// exactly as typed; an empty text is no answer.
type textField struct {
	p           *schema.Property
	text        string
	placeholder string
	in          *huh.Input // the last one built, for setText
}

func newTextField(p *schema.Property, tool bool) *textField {
	f := &textField{p: p}
	start, example := initial(p, tool)
	if s, ok := start.(string); ok {
		f.text = s
	}
	if s, ok := example.(string); ok {
		f.placeholder = examplePlaceholder(untrusted.Line(s))
	}
	return f
}

func (f *textField) property() *schema.Property { return f.p }

func (f *textField) build(theme huh.Theme) huh.Field {
	in := themed(huh.NewInput(), theme).
		Key(f.p.Name).
		Title(title(f.p)).
		Description(description(f.p)).
		Placeholder(f.placeholder).
		Value(&f.text).
		Validate(func(s string) error { _, _, err := f.read(s); return err })
	if f.p.MaxLength != nil && *f.p.MaxLength > 0 {
		in.CharLimit(*f.p.MaxLength)
	}
	f.in = in
	return in
}

func (f *textField) value() (any, bool, error) { return f.read(f.text) }

func (f *textField) read(s string) (any, bool, error) {
	if s == "" {
		return answer(f.p, nil, false, nil)
	}
	return answer(f.p, s, true, nil)
}

// numberField edits a number or integer property in an Input; the text is
// read as a float64 (number) or an exact int64 (integer).
type numberField struct {
	p           *schema.Property
	text        string
	placeholder string
}

func newNumberField(p *schema.Property, tool bool) *numberField {
	f := &numberField{p: p}
	start, example := initial(p, tool)
	f.text = numberText(start)
	f.placeholder = examplePlaceholder(numberText(example))
	return f
}

// numberText prints a typed default or example for editing.
func numberText(v any) string {
	switch n := v.(type) {
	case int64:
		return strconv.FormatInt(n, 10)
	case float64:
		return fmtNumber(n)
	case int:
		return strconv.Itoa(n)
	}
	return ""
}

func (f *numberField) property() *schema.Property { return f.p }

func (f *numberField) build(theme huh.Theme) huh.Field {
	return themed(huh.NewInput(), theme).
		Key(f.p.Name).
		Title(title(f.p)).
		Description(description(f.p)).
		Placeholder(f.placeholder).
		Value(&f.text).
		Validate(func(s string) error { _, _, err := f.read(s); return err })
}

func (f *numberField) value() (any, bool, error) { return f.read(f.text) }

func (f *numberField) read(s string) (any, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return answer(f.p, nil, false, nil)
	}
	if f.p.Kind == schema.Integer {
		n, err := readInteger(s)
		return answer(f.p, n, true, err)
	}
	x, err := readNumber(s)
	return answer(f.p, x, true, err)
}
