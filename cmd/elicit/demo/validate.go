package demo

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/mail"
	"net/url"
	"slices"
	"time"
	"unicode/utf8"
)

// In the 2025-11-25 era go-sdk's Session.Elicit validates an accepted answer
// against the requested schema and fills in its defaults. In the 2026-07-28
// era answers arrive as inputResponses on the retried call and go-sdk checks
// nothing, so the demo does it itself for the subset its own forms use.

// formSchema is the part of a requested schema the checks need.
type formSchema struct {
	Properties map[string]fieldSchema `json:"properties"`
	Required   []string               `json:"required"`
}

type constOption struct {
	Const any `json:"const"`
}

type fieldSchema struct {
	Type      string        `json:"type"`
	Format    string        `json:"format"`
	Enum      []any         `json:"enum"`
	OneOf     []constOption `json:"oneOf"`
	MinLength *int          `json:"minLength"`
	MaxLength *int          `json:"maxLength"`
	Minimum   *float64      `json:"minimum"`
	Maximum   *float64      `json:"maximum"`
	MinItems  *int          `json:"minItems"`
	MaxItems  *int          `json:"maxItems"`
	Items     *struct {
		Enum  []any         `json:"enum"`
		AnyOf []constOption `json:"anyOf"`
	} `json:"items"`
	Default any `json:"default"`
}

// checkAnswer validates accepted content against schema (a map or raw JSON
// the demo wrote) and returns a copy with the defaults of absent fields
// filled in. Fields the schema does not name are kept, as JSON Schema allows.
func checkAnswer(schema any, content map[string]any) (map[string]any, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("encoding the requested schema: %w", err)
	}
	var s formSchema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("decoding the requested schema: %w", err)
	}
	out := maps.Clone(content)
	if out == nil {
		out = map[string]any{}
	}
	for _, name := range s.Required {
		if _, ok := out[name]; !ok {
			return nil, fmt.Errorf("the answer lacks the required field %q", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) { // sorted: the first error is stable
		f := s.Properties[name]
		v, ok := out[name]
		if !ok {
			if f.Default != nil {
				out[name] = f.Default
			}
			continue
		}
		if err := f.check(v); err != nil {
			return nil, fmt.Errorf("field %q: %w", name, err)
		}
	}
	return out, nil
}

func (f fieldSchema) check(v any) error {
	switch f.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("want a string, got %T", v)
		}
		return f.checkString(s)
	case "integer", "number":
		n, ok := v.(float64) // every JSON number decodes to float64
		if !ok {
			return fmt.Errorf("want a number, got %T", v)
		}
		if f.Type == "integer" && n != math.Trunc(n) {
			return fmt.Errorf("want an integer, got %v", n)
		}
		if (f.Minimum != nil && n < *f.Minimum) || (f.Maximum != nil && n > *f.Maximum) {
			return fmt.Errorf("%v is out of bounds", n)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("want a boolean, got %T", v)
		}
	case "array":
		items, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want an array, got %T", v)
		}
		if (f.MinItems != nil && len(items) < *f.MinItems) || (f.MaxItems != nil && len(items) > *f.MaxItems) {
			return fmt.Errorf("%d items is out of bounds", len(items))
		}
		if f.Items == nil {
			return nil
		}
		allowed := append(slices.Clone(f.Items.Enum), consts(f.Items.AnyOf)...)
		for _, item := range items {
			if !slices.Contains(allowed, item) {
				return fmt.Errorf("%v is not one of the options", item)
			}
		}
	}
	return nil
}

func (f fieldSchema) checkString(s string) error {
	n := utf8.RuneCountInString(s)
	if (f.MinLength != nil && n < *f.MinLength) || (f.MaxLength != nil && n > *f.MaxLength) {
		return fmt.Errorf("length %d is out of bounds", n)
	}
	if options := append(slices.Clone(f.Enum), consts(f.OneOf)...); len(options) > 0 && !slices.Contains(options, any(s)) {
		return fmt.Errorf("%q is not one of the options", s)
	}
	var err error
	switch f.Format {
	case "email":
		_, err = mail.ParseAddress(s)
	case "uri":
		var u *url.URL
		if u, err = url.Parse(s); err == nil && u.Scheme == "" {
			err = fmt.Errorf("no scheme")
		}
	case "date":
		_, err = time.Parse(time.DateOnly, s)
	case "date-time":
		_, err = time.Parse(time.RFC3339, s)
	}
	if err != nil {
		return fmt.Errorf("%q is not a valid %s: %w", s, f.Format, err)
	}
	return nil
}

func consts(options []constOption) []any {
	out := make([]any, 0, len(options))
	for _, o := range options {
		out = append(out, o.Const)
	}
	return out
}
