package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// composition keywords make a form impossible to draw field by field, so
// they are refused wherever the subset does not allow them.
var composition = []string{"$ref", "$dynamicRef", "$recursiveRef", "allOf", "anyOf", "oneOf", "not", "if", "then", "else"}

// Parse checks an MCP elicitation requestedSchema against the subset sub
// and returns it parsed, properties in the order the server wrote them. A
// schema outside the subset gets a *SchemaError naming the property and the
// rule, for a JSON-RPC -32602 answer.
//
// Parse also compiles the schema for Validate, so that a schema that cannot
// be compiled is refused now rather than after the user filled the form,
// and checks every default with ValidateValue.
func Parse(raw json.RawMessage, sub Subset) (*Schema, error) {
	return ParseWith(raw, sub, nil)
}

// ParseWith is Parse that takes the compiled JSON Schema from cache when a
// document of the same validation-relevant form (equal but for titles,
// descriptions, defaults and other annotations) was compiled before, and
// adds it there otherwise. The result is the same as Parse's: the same
// fields, and a Validate that accepts and refuses exactly the same content.
// A nil cache compiles afresh, as Parse does.
//
// The eager compile stays: it refuses a document the compiler rejects
// before a person fills the form, and with a cache it costs one compile per
// distinct shape, not per prompt.
func ParseWith(raw json.RawMessage, sub Subset, cache *Cache) (*Schema, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return nil, schemaErr("", "is missing")
	}
	root, ok := decodeObject(trimmed)
	if !ok {
		// Checked only now: decoding already scans the text once.
		if !json.Valid(trimmed) {
			return nil, schemaErr("", "is not valid JSON")
		}
		return nil, schemaErr("", "must be a JSON object")
	}
	if t, err := root.str("type"); err != nil || t != "object" {
		return nil, schemaErr("", `type must be "object"`)
	}
	for _, k := range composition {
		if root.has(k) {
			return nil, schemaErr("", "%s is not supported (the form must be a flat object)", k)
		}
	}

	var members []member
	if praw, ok := root["properties"]; ok {
		var dup string
		var hasDup, over bool
		members, dup, hasDup, ok, over = orderedMembersUpTo(praw, MaxProperties)
		if over {
			return nil, schemaErr("", "has more than %d properties, the most a form may have", MaxProperties)
		}
		if !ok {
			return nil, schemaErr("", "properties must be an object")
		}
		for _, m := range members {
			if m.name == "" {
				return nil, schemaErr("", "a property has an empty name")
			}
		}
		if hasDup {
			return nil, schemaErr(dup, "is defined twice")
		}
	}

	s := &Schema{Raw: raw, Properties: make([]*Property, 0, len(members))}
	s.lib.cache = cache
	for _, m := range members {
		p, err := parseProperty(m.name, m.raw, sub)
		if err != nil {
			return nil, err
		}
		p.lib = &s.lib
		s.Properties = append(s.Properties, p)
	}

	required, _, err := root.strings("required")
	if err != nil {
		return nil, schemaErr("", "%v", err)
	}
	for _, name := range required {
		p := s.Property(name)
		if p == nil {
			return nil, schemaErr(name, "is required but not defined in properties")
		}
		p.Required = true
	}

	if _, err := s.lib.get(trimmed); err != nil {
		return nil, schemaErr("", "is not a valid JSON Schema: %s", oneLine(err))
	}
	for _, p := range s.Properties {
		if p.Default == nil {
			continue
		}
		if hiddenChars(p.Default) {
			return nil, schemaErr(p.Name, "default contains control or bidirectional-override characters, which would hide what is sent")
		}
		if err := ValidateValue(p, p.Default); err != nil {
			reason := err.Error()
			var ve *ValidationError
			if errors.As(err, &ve) {
				reason = ve.Reason
			}
			return nil, schemaErr(p.Name, "default %s", reason)
		}
	}
	return s, nil
}

// MaxProperties bounds the properties of one form. Nobody answers a wider
// form by hand, and compiling one costs time quadratic in its width, so a
// wider schema is refused (-32602) rather than allowed to burn a core.
const MaxProperties = 1000

// hiddenChars reports whether a default holds characters a person would
// not see in the field they are about to accept: C0 controls other than
// tab and newline, DEL, C1 controls, and bidi embeddings, overrides and
// isolates (U+202A–U+202E, U+2066–U+2069). The terminal never gets them
// raw anyway (untrusted.Text); refusing them keeps what is shown and what
// is sent the same.
func hiddenChars(v any) bool {
	check := func(s string) bool {
		for _, r := range s {
			switch {
			case r == '\t' || r == '\n':
			case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0,
				r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
				return true
			}
		}
		return false
	}
	switch d := v.(type) {
	case string:
		return check(d)
	case []string:
		for _, s := range d {
			if check(s) {
				return true
			}
		}
	}
	return false
}

// parseProperty parses one property schema of a requestedSchema.
func parseProperty(name string, raw json.RawMessage, sub Subset) (*Property, error) {
	m, ok := decodeObject(raw)
	if !ok {
		return nil, schemaErr(name, "must be a schema object")
	}
	p := &Property{Name: name, Raw: raw}
	var err error
	if p.Title, err = m.str("title"); err != nil {
		return nil, schemaErr(name, "%v", err)
	}
	if p.Description, err = m.str("description"); err != nil {
		return nil, schemaErr(name, "%v", err)
	}
	for _, k := range composition {
		if k == "oneOf" || !m.has(k) {
			continue // oneOf is the titled single select, checked below
		}
		return nil, schemaErr(name, "%s is not supported", k)
	}

	typ, err := m.str("type")
	if err != nil {
		return nil, schemaErr(name, "type must be one of string, number, integer, boolean, array")
	}
	if !m.has("type") {
		// Lenient: a select without its type:"string" is still a select.
		if !m.has("enum") && !m.has("oneOf") {
			return nil, schemaErr(name, "type is missing")
		}
		typ = "string"
	}
	if typ != "string" && m.has("oneOf") {
		return nil, schemaErr(name, "oneOf is only supported on strings (titled single select)")
	}

	switch typ {
	case "string":
		err = parseString(p, m)
	case "number", "integer":
		err = parseNumber(p, m, typ == "integer")
	case "boolean":
		p.Kind = Boolean
		if d, ok := m.value("default"); ok {
			b, isBool := d.(bool)
			if !isBool {
				return nil, schemaErr(name, "default must be true or false")
			}
			p.Default = b
		}
	case "array":
		if sub == Subset2025_06_18 {
			return nil, schemaErr(name, "multi-select (type array) needs protocol 2025-11-25 or later")
		}
		err = parseMulti(p, m)
	case "object":
		return nil, schemaErr(name, "nested objects are not supported")
	default:
		return nil, schemaErr(name, "type %q is not supported", typ)
	}
	if err != nil {
		return nil, schemaErr(name, "%v", err)
	}
	return p, nil
}

func parseString(p *Property, m object) error {
	p.Kind = String
	var err error
	if p.MinLength, err = m.count("minLength"); err != nil {
		return err
	}
	if p.MaxLength, err = m.count("maxLength"); err != nil {
		return err
	}
	if p.MinLength != nil && p.MaxLength != nil && *p.MinLength > *p.MaxLength {
		return fmt.Errorf("minLength must not exceed maxLength")
	}
	if p.Format, err = m.str("format"); err != nil {
		return err
	}
	switch p.Format {
	case "", "email", "uri", "date", "date-time":
	default:
		return fmt.Errorf("format must be one of email, uri, date, date-time")
	}
	if err := parsePattern(p, m); err != nil {
		return err
	}

	enum, hasEnum, err := m.strings("enum")
	if err != nil {
		return err
	}
	names, hasNames, err := m.strings("enumNames")
	if err != nil {
		return err
	}
	switch {
	case hasEnum && m.has("oneOf"):
		return fmt.Errorf("enum and oneOf cannot be combined")
	case hasNames && !hasEnum:
		return fmt.Errorf("enumNames needs enum")
	case hasNames && len(names) != len(enum):
		return fmt.Errorf("enumNames must have as many entries as enum")
	case hasEnum:
		p.Kind = Enum
		p.Options = make([]Option, len(enum))
		for i, v := range enum {
			p.Options[i] = Option{Value: v, Label: v}
			if hasNames {
				p.Options[i].Label = names[i]
			}
		}
		if err := checkOptions("enum", p.Options); err != nil {
			return err
		}
	case m.has("oneOf"):
		p.Kind = Enum
		if p.Options, err = m.choices("oneOf"); err != nil {
			return err
		}
		if err := checkOptions("oneOf", p.Options); err != nil {
			return err
		}
	}

	if d, ok := m.value("default"); ok {
		s, isStr := d.(string)
		if !isStr {
			return fmt.Errorf("default must be a string")
		}
		p.Default = s
	}
	return nil
}

// parsePattern keeps a pattern that compiles as RE2 and ignores one that
// does not (see Property.Pattern).
func parsePattern(p *Property, m object) error {
	pat, err := m.str("pattern")
	if err != nil {
		return err
	}
	if re, err := regexp.Compile(pat); pat != "" && err == nil {
		p.Pattern, p.re = pat, re
	}
	return nil
}

func parseNumber(p *Property, m object, integer bool) error {
	p.Kind = Number
	if integer {
		p.Kind = Integer
	}
	var err error
	if p.Minimum, err = m.bound("minimum", integer); err != nil {
		return err
	}
	if p.Maximum, err = m.bound("maximum", integer); err != nil {
		return err
	}
	if p.Minimum != nil && p.Maximum != nil && *p.Minimum > *p.Maximum {
		return fmt.Errorf("minimum must not exceed maximum")
	}
	d, ok := m.value("default")
	if !ok {
		return nil
	}
	if integer {
		i, reason := integerOf(d)
		if reason != "" {
			return fmt.Errorf("default %s", strings.Replace(reason, "a whole number", "an integer", 1))
		}
		p.Default = i
		return nil
	}
	f, reason := numberOf(d)
	if reason != "" {
		return fmt.Errorf("default %s", reason)
	}
	p.Default = f
	return nil
}

func parseMulti(p *Property, m object) error {
	p.Kind = MultiEnum
	items, ok := decodeObject(m["items"])
	if !ok {
		return fmt.Errorf("items must be a schema object with enum or anyOf")
	}
	if t, err := items.str("type"); err != nil || (items.has("type") && t != "string") {
		return fmt.Errorf(`items.type must be "string"`)
	}
	var err error
	switch {
	case items.has("enum"):
		enum, _, err := items.strings("enum")
		if err != nil {
			return fmt.Errorf("items.%w", err)
		}
		p.Options = make([]Option, len(enum))
		for i, v := range enum {
			p.Options[i] = Option{Value: v, Label: v}
		}
	case items.has("anyOf"):
		if p.Options, err = items.choices("anyOf"); err != nil {
			return fmt.Errorf("items.%w", err)
		}
	case items.has("oneOf"): // lenient: some servers write oneOf here
		if p.Options, err = items.choices("oneOf"); err != nil {
			return fmt.Errorf("items.%w", err)
		}
	default:
		return fmt.Errorf("arrays must be multi-selects: items needs enum or anyOf")
	}
	if err := checkOptions("items", p.Options); err != nil {
		return err
	}
	if p.MinItems, err = m.count("minItems"); err != nil {
		return err
	}
	if p.MaxItems, err = m.count("maxItems"); err != nil {
		return err
	}
	if p.MinItems != nil && p.MaxItems != nil && *p.MinItems > *p.MaxItems {
		return fmt.Errorf("minItems must not exceed maxItems")
	}
	if p.MinItems != nil && *p.MinItems > len(p.Options) {
		return fmt.Errorf("minItems must not exceed the number of options")
	}
	if d, ok := m.value("default"); ok {
		list, isList := d.([]any)
		if !isList {
			return fmt.Errorf("default must be an array of strings")
		}
		ss := make([]string, len(list))
		for i, v := range list {
			s, isStr := v.(string)
			if !isStr {
				return fmt.Errorf("default must be an array of strings")
			}
			ss[i] = s
		}
		p.Default = ss
	}
	return nil
}

// oneLine squeezes a multi-line library error onto one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
