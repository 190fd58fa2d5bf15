package schema_test

import (
	"encoding/json"
	"errors"
	"math"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
)

// kitchen has one property per kind and constraint.
const kitchen = `{
  "type": "object",
  "properties": {
    "name":  {"type": "string", "minLength": 2, "maxLength": 5},
    "nonempty": {"type": "string", "minLength": 1},
    "email": {"type": "string", "format": "email"},
    "site":  {"type": "string", "format": "uri"},
    "day":   {"type": "string", "format": "date"},
    "when":  {"type": "string", "format": "date-time"},
    "code":  {"type": "string", "pattern": "^[A-Z]{3}$"},
    "age":   {"type": "integer", "minimum": 0, "maximum": 150},
    "big":   {"type": "integer"},
    "ratio": {"type": "number", "minimum": -1, "maximum": 1.5},
    "ok":    {"type": "boolean"},
    "color": {"type": "string", "enum": ["red", "green"]},
    "hero":  {"type": "string", "oneOf": [{"const": "h1", "title": "Superman"}]},
    "pet":   {"type": "string", "enum": ["p1", "p2"], "enumNames": ["Cat", "Dog"]},
    "tags":  {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2},
    "fish":  {"type": "array", "items": {"anyOf": [{"const": "f1", "title": "Tuna"}, {"const": "f2", "title": "Salmon"}]}},
    "even":  {"type": "integer", "multipleOf": 2}
  },
  "required": ["name"],
  "additionalProperties": false
}`

func TestValidate(t *testing.T) {
	t.Parallel()
	s, err := schema.Parse(json.RawMessage(kitchen), schema.Subset2025_11_25)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		field string
		value any
		want  string // "" for valid
	}{
		{"string ok", "name", "Ada", ""},
		{"string not string", "name", 12, `"name": must be a string`},
		{"string null", "name", nil, `"name": must be a string`},
		{"string short", "name", "A", `"name": must be at least 2 characters`},
		{"string long", "name", "Adalovelace", `"name": must be at most 5 characters`},
		{"length counts characters", "name", "Ægirè", ""},
		{"min 1 empty", "nonempty", "", `"nonempty": must not be empty`},
		{"email ok", "email", "ada@example.com", ""},
		{"email no at", "email", "ada.example.com", `"email": must be an email address like name@example.com`},
		{"email display name", "email", "Ada <ada@example.com>", `"email": must be an email address like name@example.com`},
		{"email trailing at", "email", "ada@", `"email": must be an email address like name@example.com`},
		{"uri ok", "site", "https://example.com/x?y=1", ""},
		{"uri mailto", "site", "mailto:ada@example.com", ""},
		{"uri relative", "site", "example.com", `"site": must be a full URI with a scheme, like https://example.com`},
		{"uri space", "site", "https://exa mple.com", `"site": must be a full URI with a scheme, like https://example.com`},
		{"date ok", "day", "2024-02-29", ""},
		{"date not leap", "day", "2025-02-29", `"day": 2025-02-29 is not a real date (February 2025 has 28 days)`},
		{"date Feb 30", "day", "2025-02-30", `"day": 2025-02-30 is not a real date (February 2025 has 28 days)`},
		{"date month 13", "day", "2025-13-01", `"day": 2025-13-01 is not a real date (there is no month 13)`},
		{"date April 31", "day", "2025-04-31", `"day": 2025-04-31 is not a real date (April 2025 has 30 days)`},
		{"date day 0", "day", "2025-04-00", `"day": 2025-04-00 is not a real date (April 2025 has 30 days)`},
		{"date shape", "day", "31/01/2025", `"day": must be a date like 2025-01-31 (YYYY-MM-DD)`},
		{"date with time", "day", "2025-01-31T00:00:00Z", `"day": must be a date like 2025-01-31 (YYYY-MM-DD)`},
		{"date-time ok", "when", "2025-01-31T14:30:00Z", ""},
		{"date-time offset fraction", "when", "2025-01-31t14:30:00.25+02:00", ""},
		{"date-time no zone", "when", "2025-01-31T14:30:00", `"when": must be a date and time like 2025-01-31T14:30:00Z (RFC 3339, with a time zone)`},
		{"date-time bad day", "when", "2025-02-30T14:30:00Z", `"when": 2025-02-30 is not a real date (February 2025 has 28 days)`},
		{"date-time hour 25", "when", "2025-01-31T25:30:00Z", `"when": must be a date and time like 2025-01-31T14:30:00Z (RFC 3339, with a time zone)`},
		{"pattern ok", "code", "ABC", ""},
		{"pattern bad", "code", "abc", `"code": must match the pattern ^[A-Z]{3}$`},
		{"integer ok", "age", 42, ""},
		{"integer int64", "age", int64(42), ""},
		{"integer float64", "age", 42.0, ""},
		{"integer json.Number", "age", json.Number("42"), ""},
		{"integer json.Number exponent", "age", json.Number("4.2e1"), ""},
		{"integer fraction", "age", 4.5, `"age": must be a whole number`},
		{"integer json.Number fraction", "age", json.Number("42.5"), `"age": must be a whole number`},
		{"integer string", "age", "42", `"age": must be a number`},
		{"integer bool", "age", true, `"age": must be a number`},
		{"integer above", "age", 151, `"age": must be at most 150`},
		{"integer below", "age", -1, `"age": must be at least 0`},
		{"integer safe edge", "big", int64(9007199254740991), ""},
		{"integer unsafe int64", "big", int64(9007199254740992), `"big": must be between -9007199254740991 and 9007199254740991`},
		{"integer unsafe float", "big", -9007199254740992.0, `"big": must be between -9007199254740991 and 9007199254740991`},
		{"integer unsafe json.Number", "big", json.Number("12345678901234567890"), `"big": must be between -9007199254740991 and 9007199254740991`},
		{"integer unsafe uint64", "big", uint64(math.MaxUint64), `"big": must be between -9007199254740991 and 9007199254740991`},
		{"integer NaN", "big", math.NaN(), `"big": must be a finite number`},
		{"number ok", "ratio", 0.5, ""},
		{"number int", "ratio", 1, ""},
		{"number json.Number", "ratio", json.Number("-1"), ""},
		{"number above", "ratio", 1.6, `"ratio": must be at most 1.5`},
		{"number below", "ratio", json.Number("-1.01"), `"ratio": must be at least -1`},
		{"number Inf", "ratio", math.Inf(1), `"ratio": must be a finite number`},
		{"number string", "ratio", "0.5", `"ratio": must be a number`},
		{"number bad json.Number", "ratio", json.Number("0x10"), `"ratio": must be a number`},
		{"boolean ok", "ok", false, ""},
		{"boolean string", "ok", "true", `"ok": must be true or false`},
		{"enum ok", "color", "green", ""},
		{"enum other", "color", "blue", `"color": must be one of "red", "green"`},
		{"enum label is not a value", "pet", "Cat", `"pet": must be one of "p1", "p2"`},
		{"enumNames value", "pet", "p2", ""},
		{"oneOf ok", "hero", "h1", ""},
		{"oneOf title is not a value", "hero", "Superman", `"hero": must be one of "h1"`},
		{"multi []string", "tags", []string{"a", "b"}, ""},
		{"multi []any", "tags", []any{"c"}, ""},
		{"multi too few", "tags", []string{}, `"tags": choose at least 1`},
		{"multi too many", "tags", []string{"a", "b", "c"}, `"tags": choose at most 2`},
		{"multi not member", "tags", []string{"z"}, `"tags": "z" is not one of the options "a", "b", "c"`},
		{"multi repeated", "tags", []string{"a", "a"}, `"tags": "a" is chosen twice`},
		{"multi not list", "tags", "a", `"tags": must be a list of choices`},
		{"multi mixed list", "tags", []any{"a", 1}, `"tags": must be a list of choices`},
		{"anyOf ok", "fish", []string{"f2", "f1"}, ""},
		{"anyOf title", "fish", []string{"Tuna"}, `"fish": "Tuna" is not one of the options "f1", "f2"`},
		{"tolerated keyword enforced", "even", 3, `"even": multipleOf: got 3, want 2`},
		{"unknown property refused by additionalProperties", "extra", 1, `"extra": is not allowed here`},
		{"non-JSON value", "extra", struct{}{}, `"extra": is not a JSON value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			content := map[string]any{"name": "Ada", tt.field: tt.value}
			if tt.field == "name" {
				content = map[string]any{"name": tt.value}
			}
			err := s.Validate(content)
			if got := errString(err); got != tt.want {
				t.Errorf("Validate\n got %s\nwant %s", got, tt.want)
			}
			if err != nil {
				var ve *schema.ValidationError
				if !errors.As(err, &ve) || ve.Property != tt.field {
					t.Errorf("error %#v does not name %q", err, tt.field)
				}
			}
			// ValidateValue gives the same verdict for one field.
			if p := s.Property(tt.field); p != nil {
				if got := errString(schema.ValidateValue(p, tt.value)); got != tt.want && tt.value != nil {
					t.Errorf("ValidateValue\n got %s\nwant %s", got, tt.want)
				}
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestValidateRequiredAndOrder(t *testing.T) {
	t.Parallel()
	s, err := schema.Parse(json.RawMessage(kitchen), schema.Subset2025_11_25)
	if err != nil {
		t.Fatal(err)
	}
	if got := errString(s.Validate(nil)); got != `"name": is required` {
		t.Errorf("Validate(nil) = %s", got)
	}
	// Two bad fields: the first in schema order is named.
	if got := errString(s.Validate(map[string]any{"name": "Ada", "ok": 1, "age": -5})); got != `"age": must be at least 0` {
		t.Errorf("Validate = %s, want age first", got)
	}
	// Optional fields may be left out.
	if err := s.Validate(map[string]any{"name": "Ada"}); err != nil {
		t.Errorf("Validate(name only) = %v", err)
	}
	p := s.Property("name")
	if got := errString(schema.ValidateValue(p, nil)); got != `"name": is required` {
		t.Errorf("ValidateValue(required, nil) = %s", got)
	}
	if err := schema.ValidateValue(s.Property("age"), nil); err != nil {
		t.Errorf("ValidateValue(optional, nil) = %v", err)
	}
}

func TestValidateHandBuilt(t *testing.T) {
	t.Parallel()
	// A Schema built by hand, as the form builder's tests may: the rules
	// still apply; with Raw the JSON Schema pass compiles lazily.
	s := &schema.Schema{Properties: []*schema.Property{
		{Name: "n", Kind: schema.Integer, Maximum: ptr(3.0), Required: true},
		{Name: "s", Kind: schema.String, Pattern: "^x"},
	}}
	if got := errString(s.Validate(map[string]any{"n": 4})); got != `"n": must be at most 3` {
		t.Errorf("got %s", got)
	}
	if got := errString(s.Validate(map[string]any{"n": 1, "s": "y"})); got != `"s": must match the pattern ^x` {
		t.Errorf("got %s", got)
	}
	s.Raw = json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","multipleOf":2}}}`)
	if got := errString(s.Validate(map[string]any{"n": 1})); got != `"n": multipleOf: got 1, want 2` {
		t.Errorf("got %s", got)
	}
}

func TestValidateConcurrent(t *testing.T) {
	t.Parallel()
	s := &schema.Schema{
		Properties: []*schema.Property{{Name: "n", Kind: schema.Integer}},
		Raw:        json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","maximum":5}}}`),
	}
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range errs {
		wg.Go(func() { errs[i] = s.Validate(map[string]any{"n": i}) })
	}
	wg.Wait()
	for i, err := range errs {
		if (i > 5) != (err != nil) {
			t.Errorf("n=%d: %v", i, err)
		}
	}
}

func TestDefaultsAreCopies(t *testing.T) {
	t.Parallel()
	s, err := schema.Parse(load(t, "everything.json"), schema.Subset2025_11_25)
	if err != nil {
		t.Fatal(err)
	}
	d := s.Defaults()
	d["untitledMultipleSelectEnum"].([]string)[0] = "Drums"
	if got := s.Property("untitledMultipleSelectEnum").Default.([]string)[0]; got != "Guitar" {
		t.Errorf("changing Defaults() changed the schema: %s", got)
	}
}
