package forms

import (
	"errors"
	"strings"

	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// field binds one property to the huh field that edits it. The field owns
// the value huh writes into (huh updates it on every keystroke), so the
// answer can be read at any time, and a huh field can be rebuilt around it
// without losing what the person typed.
type field interface {
	// property is the schema property the field answers.
	property() *schema.Property
	// build returns a new huh field bound to the field's value. The theme
	// is set first: huh styles options as they are added, and without a
	// theme it rebuilds its default theme for every option.
	build(theme huh.Theme) huh.Field
	// value returns the typed answer; ok is false when the field is left
	// empty, so the property is omitted from the content.
	value() (v any, ok bool, err error)
}

// newField picks the field for a property. tool says the form fills a
// tool's arguments, where examples count as starting values.
func newField(p *schema.Property, tool bool) field {
	switch p.Kind {
	case schema.Number, schema.Integer:
		return newNumberField(p, tool)
	case schema.Boolean:
		return newBoolField(p, tool)
	case schema.Enum:
		return newEnumField(p, tool)
	case schema.MultiEnum:
		return newMultiField(p, tool)
	case schema.List:
		return newListField(p, tool)
	case schema.JSON:
		return newJSONField(p, tool)
	}
	return newTextField(p, tool)
}

// initial is the value a field starts with: the default, else (tool forms
// only) the example of a required argument, else its template (a JSON
// argument's skeleton: an array of objects starts with one item to fill
// in). The example or template of an optional argument is only shown as a
// placeholder, so that a person who does not touch the field does not
// send a value they never chose.
func initial(p *schema.Property, tool bool) (start, hint any) {
	var example any
	switch {
	case p.Example != nil:
		example = p.Example
	case p.Template != nil:
		example = p.Template
	}
	switch {
	case p.Default != nil:
		return p.Default, nil
	case tool && example != nil && p.Required:
		return example, nil
	case tool:
		return nil, example
	}
	return nil, nil
}

// title is the field's one-line title; required fields end in " *".
func title(p *schema.Property) string {
	t := p.Title
	if strings.TrimSpace(t) == "" {
		t = p.Name
	}
	t = untrusted.Line(t)
	if p.Required {
		t += " *"
	}
	return t
}

// label is how messages name the field.
func label(p *schema.Property) string {
	if strings.TrimSpace(p.Title) != "" {
		return untrusted.Line(p.Title)
	}
	return untrusted.Line(p.Name)
}

// description is the server's description followed by the constraints a
// person needs to answer (range, length, format, how many to pick).
func description(p *schema.Property) string {
	d := strings.TrimSpace(untrusted.Text(p.Description))
	h := hint(p)
	switch {
	case d == "":
		return h
	case h == "":
		return d
	}
	return d + "\n" + h
}

// check validates a typed answer with the schema's own rules, so that a
// field the form accepts is one Content accepts. v is nil for no answer.
func check(p *schema.Property, v any) error {
	return humanize(p, schema.ValidateValue(p, v))
}

// humanize turns a schema error about p into a message that names the
// field the way the person sees it.
func humanize(p *schema.Property, err error) error {
	if err == nil {
		return nil
	}
	var ve *schema.ValidationError
	if errors.As(err, &ve) {
		if ve.Reason == "is required" {
			return errors.New(label(p) + " is required")
		}
		return errors.New(label(p) + ": " + untrusted.Line(ve.Reason))
	}
	return errors.New(label(p) + ": " + untrusted.Line(err.Error()))
}

// fieldErr names the field in an error of our own making.
func fieldErr(p *schema.Property, err error) error {
	return errors.New(label(p) + ": " + err.Error())
}

// answer turns a field's read into the pair value() returns, checked.
func answer(p *schema.Property, v any, present bool, err error) (any, bool, error) {
	if err != nil {
		return nil, false, fieldErr(p, err)
	}
	if !present {
		return nil, false, check(p, nil)
	}
	if err := check(p, v); err != nil {
		return nil, false, err
	}
	return v, true, nil
}

// themed sets a new huh field's theme before anything else is configured.
func themed[F interface{ WithTheme(huh.Theme) huh.Field }](fl F, theme huh.Theme) F {
	fl.WithTheme(theme)
	return fl
}
