package schema_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func load(t *testing.T, name string) json.RawMessage {
	t.Helper()
	raw, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func ptr[T any](v T) *T { return &v }

// propOpts compares properties by their exported fields, not Raw.
var propOpts = cmp.Options{
	cmpopts.IgnoreUnexported(schema.Property{}),
	cmpopts.IgnoreFields(schema.Property{}, "Raw"),
}

func TestParseEverything(t *testing.T) {
	t.Parallel()
	s, err := schema.Parse(load(t, "everything.json"), schema.Subset2025_11_25)
	if err != nil {
		t.Fatal(err)
	}
	opts := func(vs ...string) []schema.Option {
		var out []schema.Option
		for i := 0; i < len(vs); i += 2 {
			out = append(out, schema.Option{Value: vs[i], Label: vs[i+1]})
		}
		return out
	}
	want := []*schema.Property{
		{Name: "name", Title: "String", Description: "Your full, legal name", Kind: schema.String, Required: true},
		{Name: "check", Title: "Boolean", Description: "Agree to the terms and conditions", Kind: schema.Boolean},
		{Name: "firstLine", Title: "String with default", Description: "Favorite first line of a story", Kind: schema.String, Default: "It was a dark and stormy night."},
		{Name: "email", Title: "String with email format", Description: "Your email address (will be verified, and never shared with anyone else)", Kind: schema.String, Format: "email"},
		{Name: "homepage", Title: "String with uri format", Description: "Portfolio / personal website", Kind: schema.String, Format: "uri"},
		{Name: "birthdate", Title: "String with date format", Description: "Your date of birth", Kind: schema.String, Format: "date"},
		{Name: "integer", Title: "Integer", Description: "Your favorite integer (do not give us your phone number, pin, or other sensitive info)", Kind: schema.Integer, Minimum: ptr(1.0), Maximum: ptr(100.0), Default: int64(42)},
		{Name: "number", Title: "Number in range 1-1000", Description: "Favorite number (there are no wrong answers)", Kind: schema.Number, Minimum: ptr(0.0), Maximum: ptr(1000.0), Default: 3.14},
		{Name: "untitledSingleSelectEnum", Title: "Untitled Single Select Enum", Description: "Choose your favorite friend", Kind: schema.Enum,
			Options: opts("Monica", "Monica", "Rachel", "Rachel", "Joey", "Joey", "Chandler", "Chandler", "Ross", "Ross", "Phoebe", "Phoebe"), Default: "Monica"},
		{Name: "untitledMultipleSelectEnum", Title: "Untitled Multiple Select Enum", Description: "Choose your favorite instruments", Kind: schema.MultiEnum,
			Options: opts("Guitar", "Guitar", "Piano", "Piano", "Violin", "Violin", "Drums", "Drums", "Bass", "Bass"), MinItems: ptr(1), MaxItems: ptr(3), Default: []string{"Guitar"}},
		{Name: "titledSingleSelectEnum", Title: "Titled Single Select Enum", Description: "Choose your favorite hero", Kind: schema.Enum,
			Options: opts("hero-1", "Superman", "hero-2", "Green Lantern", "hero-3", "Wonder Woman"), Default: "hero-1"},
		{Name: "titledMultipleSelectEnum", Title: "Titled Multiple Select Enum", Description: "Choose your favorite types of fish", Kind: schema.MultiEnum,
			Options: opts("fish-1", "Tuna", "fish-2", "Salmon", "fish-3", "Trout"), MinItems: ptr(1), MaxItems: ptr(3), Default: []string{"fish-1"}},
		{Name: "legacyTitledEnum", Title: "Legacy Titled Single Select Enum", Description: "Choose your favorite type of pet", Kind: schema.Enum,
			Options: opts("pet-1", "Cats", "pet-2", "Dogs", "pet-3", "Birds", "pet-4", "Fish", "pet-5", "Reptiles"), Default: "pet-1"},
	}
	if diff := cmp.Diff(want, s.Properties, propOpts); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
	for _, p := range s.Properties {
		var m map[string]any
		if err := json.Unmarshal(p.Raw, &m); err != nil || m["title"] != p.Title {
			t.Errorf("%s: Raw %s does not hold the property's schema", p.Name, p.Raw)
		}
	}

	// The defaults leave out the one required field; with it, they pass.
	content := s.Defaults()
	if err := s.Validate(content); err == nil || err.Error() != `"name": is required` {
		t.Errorf("Validate(defaults) = %v, want name required", err)
	}
	content["name"] = "Ada Lovelace"
	if err := s.Validate(content); err != nil {
		t.Errorf("Validate(defaults+name) = %v", err)
	}
	// The answer server-everything's own test sends.
	answer := map[string]any{
		"name": "Ada Lovelace", "check": true, "firstLine": "Call me Ishmael.",
		"email": "ada@example.com", "homepage": "https://ada.example.com", "birthdate": "1815-12-10",
		"integer": 7, "number": 2.71, "untitledSingleSelectEnum": "Rachel",
		"untitledMultipleSelectEnum": []any{"Guitar", "Piano"}, "titledSingleSelectEnum": "hero-2",
		"titledMultipleSelectEnum": []string{"fish-2"}, "legacyTitledEnum": "pet-3",
	}
	if err := s.Validate(answer); err != nil {
		t.Errorf("Validate(answer) = %v", err)
	}
	if _, err := schema.Parse(load(t, "everything.json"), schema.Subset2025_06_18); err == nil ||
		err.Error() != `property "untitledMultipleSelectEnum": multi-select (type array) needs protocol 2025-11-25 or later` {
		t.Errorf("Parse(everything, 06-18) = %v, want the first array refused", err)
	}
}

func TestParseSEP1034Defaults(t *testing.T) {
	t.Parallel()
	for _, sub := range []schema.Subset{schema.Subset2025_11_25, schema.Subset2025_06_18} {
		s, err := schema.Parse(load(t, "sep1034-defaults.json"), sub)
		if err != nil {
			t.Fatalf("%v: %v", sub, err)
		}
		want := map[string]any{"name": "John Doe", "age": int64(30), "score": 95.5, "status": "active", "verified": true}
		got := s.Defaults()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v: Defaults (-want +got):\n%s", sub, diff)
		}
		if err := s.Validate(got); err != nil {
			t.Errorf("%v: Validate(Defaults()) = %v", sub, err)
		}
		// The conformance check wants JSON types: integer 30, not 30.0.
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != `{"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}` {
			t.Errorf("%v: defaults marshal to %s", sub, b)
		}
	}
}

func TestParseKeepsOrder(t *testing.T) {
	t.Parallel()
	raw := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"boolean"},"mid":{"type":"number"},"b":{"type":"integer"}}}`
	s, err := schema.Parse(json.RawMessage(raw), schema.Subset2025_11_25)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range s.Properties {
		names = append(names, p.Name)
	}
	if diff := cmp.Diff([]string{"zeta", "alpha", "mid", "b"}, names); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if string(s.Raw) != raw {
		t.Errorf("Raw = %s", s.Raw)
	}
}

// obj wraps property schemas into a requestedSchema.
func obj(props string, extra ...string) json.RawMessage {
	s := `{"type":"object","properties":{` + props + `}`
	for _, e := range extra {
		s += "," + e
	}
	return json.RawMessage(s + "}")
}

func TestParseAccepts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		raw  json.RawMessage
		sub  schema.Subset
		want *schema.Property // the first property
	}{
		{"string bounds", obj(`"s":{"type":"string","minLength":1,"maxLength":5}`), schema.Subset2025_11_25,
			&schema.Property{Name: "s", Kind: schema.String, MinLength: ptr(1), MaxLength: ptr(5)}},
		{"integral float count", obj(`"s":{"type":"string","minLength":2.0}`), schema.Subset2025_11_25,
			&schema.Property{Name: "s", Kind: schema.String, MinLength: ptr(2)}},
		{"equal bounds", obj(`"s":{"type":"string","minLength":3,"maxLength":3}`), schema.Subset2025_11_25,
			&schema.Property{Name: "s", Kind: schema.String, MinLength: ptr(3), MaxLength: ptr(3)}},
		{"date-time", obj(`"s":{"type":"string","format":"date-time","default":"2025-01-31T14:30:00Z"}`), schema.Subset2025_11_25,
			&schema.Property{Name: "s", Kind: schema.String, Format: "date-time", Default: "2025-01-31T14:30:00Z"}},
		{"pattern honoured", obj(`"s":{"type":"string","pattern":"^[a-z]+$"}`), schema.Subset2025_11_25,
			&schema.Property{Name: "s", Kind: schema.String, Pattern: "^[a-z]+$"}},
		{"ECMA pattern ignored", obj(`"s":{"type":"string","pattern":"^(?=a)a$"}`), schema.Subset2025_11_25,
			&schema.Property{Name: "s", Kind: schema.String}},
		{"number bounds", obj(`"n":{"type":"number","minimum":-1.5,"maximum":1e3,"default":0}`), schema.Subset2025_11_25,
			&schema.Property{Name: "n", Kind: schema.Number, Minimum: ptr(-1.5), Maximum: ptr(1000.0), Default: 0.0}},
		{"integer written as 1e2", obj(`"n":{"type":"integer","maximum":1e2,"default":10.0}`), schema.Subset2025_11_25,
			&schema.Property{Name: "n", Kind: schema.Integer, Maximum: ptr(100.0), Default: int64(10)}},
		{"integer at the safe edge", obj(`"n":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991,"default":9007199254740991}`), schema.Subset2025_11_25,
			&schema.Property{Name: "n", Kind: schema.Integer, Minimum: ptr(-9007199254740991.0), Maximum: ptr(9007199254740991.0), Default: int64(9007199254740991)}},
		{"boolean default", obj(`"b":{"type":"boolean","default":false}`), schema.Subset2025_06_18,
			&schema.Property{Name: "b", Kind: schema.Boolean, Default: false}},
		{"06-18 tolerates a string default", obj(`"s":{"type":"string","default":"x"}`), schema.Subset2025_06_18,
			&schema.Property{Name: "s", Kind: schema.String, Default: "x"}},
		{"06-18 tolerates a titled select", obj(`"e":{"type":"string","oneOf":[{"const":"a","title":"A"}]}`), schema.Subset2025_06_18,
			&schema.Property{Name: "e", Kind: schema.Enum, Options: []schema.Option{{"a", "A"}}}},
		{"enum without type", obj(`"e":{"enum":["x","y"]}`), schema.Subset2025_11_25,
			&schema.Property{Name: "e", Kind: schema.Enum, Options: []schema.Option{{"x", "x"}, {"y", "y"}}}},
		{"oneOf without title", obj(`"e":{"type":"string","oneOf":[{"const":"a"}]}`), schema.Subset2025_11_25,
			&schema.Property{Name: "e", Kind: schema.Enum, Options: []schema.Option{{"a", "a"}}}},
		{"items.oneOf read as anyOf", obj(`"m":{"type":"array","items":{"oneOf":[{"const":"a","title":"A"}]}}`), schema.Subset2025_11_25,
			&schema.Property{Name: "m", Kind: schema.MultiEnum, Options: []schema.Option{{"a", "A"}}}},
		{"multi without bounds, empty default", obj(`"m":{"type":"array","items":{"type":"string","enum":["a","b"]},"default":[]}`), schema.Subset2025_11_25,
			&schema.Property{Name: "m", Kind: schema.MultiEnum, Options: []schema.Option{{"a", "a"}, {"b", "b"}}, Default: []string{}}},
		{"tolerated keywords", obj(`"s":{"type":"string","x-ui":"wide","examples":["a"]}`, `"$schema":"https://json-schema.org/draft/2020-12/schema"`, `"additionalProperties":false`, `"title":"T"`), schema.Subset2025_11_25,
			&schema.Property{Name: "s", Kind: schema.String}},
		{"unknown dialect read as 2020-12", obj(`"s":{"type":"string"}`, `"$schema":"https://example.com/my-dialect"`), schema.Subset2025_11_25,
			&schema.Property{Name: "s", Kind: schema.String}},
		{"draft-07 dialect", obj(`"s":{"type":"string"}`, `"$schema":"http://json-schema.org/draft-07/schema#"`), schema.Subset2025_11_25,
			&schema.Property{Name: "s", Kind: schema.String}},
		{"required", obj(`"s":{"type":"string"}`, `"required":["s","s"]`), schema.Subset2025_11_25,
			&schema.Property{Name: "s", Kind: schema.String, Required: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := schema.Parse(tt.raw, tt.sub)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, s.Properties[0], propOpts); diff != "" {
				t.Errorf("property (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseEmptyObject(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{`{"type":"object"}`, `{"type":"object","properties":{}}`} {
		s, err := schema.Parse(json.RawMessage(raw), schema.Subset2025_11_25)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if len(s.Properties) != 0 || s.Validate(nil) != nil {
			t.Errorf("%s: want no properties and nil content accepted", raw)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		raw  string
		sub  schema.Subset
		want string
	}{
		{"empty", ``, 0, `requestedSchema: is missing`},
		{"null", `null`, 0, `requestedSchema: is missing`},
		{"not JSON", `{"type":`, 0, `requestedSchema: is not valid JSON`},
		{"array root", `[]`, 0, `requestedSchema: must be a JSON object`},
		{"no type", `{"properties":{}}`, 0, `requestedSchema: type must be "object"`},
		{"string root", `{"type":"string"}`, 0, `requestedSchema: type must be "object"`},
		{"root $ref", `{"type":"object","$ref":"#/$defs/x"}`, 0, `requestedSchema: $ref is not supported (the form must be a flat object)`},
		{"root allOf", `{"type":"object","allOf":[]}`, 0, `requestedSchema: allOf is not supported (the form must be a flat object)`},
		{"properties array", `{"type":"object","properties":[]}`, 0, `requestedSchema: properties must be an object`},
		{"duplicate property", `{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"string"}}}`, 0, `property "a": is defined twice`},
		{"empty name", `{"type":"object","properties":{"":{"type":"string"}}}`, 0, `requestedSchema: a property has an empty name`},
		{"required not array", string(obj(`"a":{"type":"string"}`, `"required":"a"`)), 0, `requestedSchema: required must be an array of strings`},
		{"required unknown", string(obj(`"a":{"type":"string"}`, `"required":["b"]`)), 0, `property "b": is required but not defined in properties`},
		{"property not object", string(obj(`"a":true`)), 0, `property "a": must be a schema object`},
		{"title not string", string(obj(`"a":{"type":"string","title":1}`)), 0, `property "a": title must be a string`},
		{"description not string", string(obj(`"a":{"type":"string","description":[]}`)), 0, `property "a": description must be a string`},
		{"type missing", string(obj(`"a":{"title":"A"}`)), 0, `property "a": type is missing`},
		{"type list", string(obj(`"a":{"type":["string","null"]}`)), 0, `property "a": type must be one of string, number, integer, boolean, array`},
		{"nested object", string(obj(`"a":{"type":"object","properties":{}}`)), 0, `property "a": nested objects are not supported`},
		{"unknown type", string(obj(`"a":{"type":"date"}`)), 0, `property "a": type "date" is not supported`},
		{"null type", string(obj(`"a":{"type":"null"}`)), 0, `property "a": type "null" is not supported`},
		{"$ref", string(obj(`"a":{"$ref":"#/$defs/b"}`)), 0, `property "a": $ref is not supported`},
		{"anyOf", string(obj(`"a":{"anyOf":[{"type":"string"}]}`)), 0, `property "a": anyOf is not supported`},
		{"minLength negative", string(obj(`"a":{"type":"string","minLength":-1}`)), 0, `property "a": minLength must be a non-negative integer`},
		{"maxLength fraction", string(obj(`"a":{"type":"string","maxLength":1.5}`)), 0, `property "a": maxLength must be a non-negative integer`},
		{"maxLength string", string(obj(`"a":{"type":"string","maxLength":"5"}`)), 0, `property "a": maxLength must be a number`},
		{"minLength > maxLength", string(obj(`"a":{"type":"string","minLength":5,"maxLength":4}`)), 0, `property "a": minLength must not exceed maxLength`},
		{"unknown format", string(obj(`"a":{"type":"string","format":"uuid"}`)), 0, `property "a": format must be one of email, uri, date, date-time`},
		{"pattern not string", string(obj(`"a":{"type":"string","pattern":1}`)), 0, `property "a": pattern must be a string`},
		{"string default number", string(obj(`"a":{"type":"string","default":1}`)), 0, `property "a": default must be a string`},
		{"default too short", string(obj(`"a":{"type":"string","minLength":3,"default":"ab"}`)), 0, `property "a": default must be at least 3 characters`},
		{"default too long", string(obj(`"a":{"type":"string","maxLength":1,"default":"ab"}`)), 0, `property "a": default must be at most 1 characters`},
		{"default bad email", string(obj(`"a":{"type":"string","format":"email","default":"nobody"}`)), 0, `property "a": default must be an email address like name@example.com`},
		{"default bad date", string(obj(`"a":{"type":"string","format":"date","default":"2025-02-30"}`)), 0, `property "a": default 2025-02-30 is not a real date (February 2025 has 28 days)`},
		{"default against pattern", string(obj(`"a":{"type":"string","pattern":"^a+$","default":"b"}`)), 0, `property "a": default must match the pattern ^a+$`},
		{"minimum string", string(obj(`"a":{"type":"number","minimum":"1"}`)), 0, `property "a": minimum must be a number`},
		{"maximum huge", string(obj(`"a":{"type":"number","maximum":1e400}`)), 0, `property "a": maximum must be a finite number`},
		{"min > max", string(obj(`"a":{"type":"number","minimum":2,"maximum":1}`)), 0, `property "a": minimum must not exceed maximum`},
		{"integer bound fraction", string(obj(`"a":{"type":"integer","minimum":0.5}`)), 0, `property "a": minimum must be an integer`},
		{"integer bound nearly integral", string(obj(`"a":{"type":"integer","minimum":4.0000000000000000001}`)), 0, `property "a": minimum must be an integer`},
		{"integer bound unsafe", string(obj(`"a":{"type":"integer","maximum":9007199254740992}`)), 0, `property "a": maximum must be between -9007199254740991 and 9007199254740991`},
		{"integer bound huge exponent", string(obj(`"a":{"type":"integer","maximum":1e999999999999}`)), 0, `property "a": maximum must be between -9007199254740991 and 9007199254740991`},
		{"integer default fraction", string(obj(`"a":{"type":"integer","default":1.5}`)), 0, `property "a": default must be an integer`},
		{"integer default unsafe", string(obj(`"a":{"type":"integer","default":-9007199254740992}`)), 0, `property "a": default must be between -9007199254740991 and 9007199254740991`},
		{"integer default out of range", string(obj(`"a":{"type":"integer","minimum":1,"maximum":100,"default":101}`)), 0, `property "a": default must be at most 100`},
		{"number default below", string(obj(`"a":{"type":"number","minimum":1,"default":0.5}`)), 0, `property "a": default must be at least 1`},
		{"number default string", string(obj(`"a":{"type":"number","default":"1"}`)), 0, `property "a": default must be a number`},
		{"boolean default string", string(obj(`"a":{"type":"boolean","default":"true"}`)), 0, `property "a": default must be true or false`},
		{"enum not strings", string(obj(`"a":{"type":"string","enum":[1,2]}`)), 0, `property "a": enum must be an array of strings`},
		{"enum empty", string(obj(`"a":{"type":"string","enum":[]}`)), 0, `property "a": enum must not be empty`},
		{"enum repeated", string(obj(`"a":{"type":"string","enum":["x","x"]}`)), 0, `property "a": enum lists "x" twice`},
		{"enumNames short", string(obj(`"a":{"type":"string","enum":["x","y"],"enumNames":["X"]}`)), 0, `property "a": enumNames must have as many entries as enum`},
		{"enumNames alone", string(obj(`"a":{"type":"string","enumNames":["X"]}`)), 0, `property "a": enumNames needs enum`},
		{"enum and oneOf", string(obj(`"a":{"type":"string","enum":["x"],"oneOf":[{"const":"x","title":"X"}]}`)), 0, `property "a": enum and oneOf cannot be combined`},
		{"enum default not member", string(obj(`"a":{"type":"string","enum":["x"],"default":"y"}`)), 0, `property "a": default must be one of "x"`},
		{"oneOf const number", string(obj(`"a":{"type":"string","oneOf":[{"const":1,"title":"X"}]}`)), 0, `property "a": oneOf[0].const must be a string`},
		{"oneOf without const", string(obj(`"a":{"type":"string","oneOf":[{"title":"X"}]}`)), 0, `property "a": oneOf[0] must be an object with const and title`},
		{"oneOf title number", string(obj(`"a":{"type":"string","oneOf":[{"const":"x","title":2}]}`)), 0, `property "a": oneOf[0].title must be a string`},
		{"oneOf on number", string(obj(`"a":{"type":"number","oneOf":[{"const":1}]}`)), 0, `property "a": oneOf is only supported on strings (titled single select)`},
		{"oneOf default", string(obj(`"a":{"type":"string","oneOf":[{"const":"x","title":"X"}],"default":"X"}`)), 0, `property "a": default must be one of "x"`},
		{"array in 06-18", string(obj(`"a":{"type":"array","items":{"enum":["x"]}}`)), schema.Subset2025_06_18, `property "a": multi-select (type array) needs protocol 2025-11-25 or later`},
		{"array without items", string(obj(`"a":{"type":"array"}`)), 0, `property "a": items must be a schema object with enum or anyOf`},
		{"array of free strings", string(obj(`"a":{"type":"array","items":{"type":"string"}}`)), 0, `property "a": arrays must be multi-selects: items needs enum or anyOf`},
		{"array of numbers", string(obj(`"a":{"type":"array","items":{"type":"number","enum":[1]}}`)), 0, `property "a": items.type must be "string"`},
		{"array of objects", string(obj(`"a":{"type":"array","items":{"type":"object"}}`)), 0, `property "a": items.type must be "string"`},
		{"items anyOf bad", string(obj(`"a":{"type":"array","items":{"anyOf":[{"const":true}]}}`)), 0, `property "a": items.anyOf[0].const must be a string`},
		{"items empty", string(obj(`"a":{"type":"array","items":{"enum":[]}}`)), 0, `property "a": items must not be empty`},
		{"minItems > maxItems", string(obj(`"a":{"type":"array","items":{"enum":["x","y"]},"minItems":2,"maxItems":1}`)), 0, `property "a": minItems must not exceed maxItems`},
		{"minItems > options", string(obj(`"a":{"type":"array","items":{"enum":["x"]},"minItems":2}`)), 0, `property "a": minItems must not exceed the number of options`},
		{"maxItems negative", string(obj(`"a":{"type":"array","items":{"enum":["x"]},"maxItems":-1}`)), 0, `property "a": maxItems must be a non-negative integer`},
		{"multi default not list", string(obj(`"a":{"type":"array","items":{"enum":["x"]},"default":"x"}`)), 0, `property "a": default must be an array of strings`},
		{"multi default not member", string(obj(`"a":{"type":"array","items":{"enum":["x"]},"default":["y"]}`)), 0, `property "a": default "y" is not one of the options "x"`},
		{"multi default too many", string(obj(`"a":{"type":"array","items":{"enum":["x","y"]},"maxItems":1,"default":["x","y"]}`)), 0, `property "a": default choose at most 1`},
		{"multi default repeated", string(obj(`"a":{"type":"array","items":{"enum":["x","y"]},"default":["x","x"]}`)), 0, `property "a": default "x" is chosen twice`},
		{"tolerated keyword breaks default", string(obj(`"a":{"type":"number","multipleOf":2,"default":3}`)), 0, `property "a": default multipleOf: got 3, want 2`},
		{"tolerated keyword invalid", string(obj(`"a":{"type":"number","multipleOf":-2}`)), 0, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := schema.Parse(json.RawMessage(tt.raw), tt.sub)
			if err == nil {
				t.Fatalf("Parse accepted it: %d properties", len(s.Properties))
			}
			se, ok := err.(*schema.SchemaError)
			if !ok {
				t.Fatalf("error %T %v, want *SchemaError", err, err)
			}
			if tt.want != "" && se.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", se.Error(), tt.want)
			}
		})
	}
}
