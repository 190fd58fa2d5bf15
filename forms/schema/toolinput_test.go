package schema_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/google/go-cmp/cmp"
)

func TestParseToolInputFields(t *testing.T) {
	t.Parallel()
	ti, err := schema.ParseToolInput(load(t, "tool-input.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := []*schema.Property{
		// Required first, in document order.
		{Name: "service", Kind: schema.String, Required: true, Description: "Service to deploy", MinLength: ptr(1), Example: "api"},
		{Name: "env", Kind: schema.Enum, Required: true, Title: "Env", Description: "Where to",
			Options: []schema.Option{{"dev", "dev"}, {"staging", "staging"}, {"prod", "prod"}}, Default: "dev"},
		{Name: "target", Kind: schema.JSON, Required: true, Template: json.RawMessage(`{"host":""}`)},
		// Then the rest, in document order.
		{Name: "note", Kind: schema.String, Title: "Note", MaxLength: ptr(20)},
		{Name: "replicas", Kind: schema.Integer, Minimum: ptr(1.0), Maximum: ptr(10.0), Default: int64(2)},
		{Name: "ratio", Kind: schema.Number, Minimum: ptr(0.0), Maximum: ptr(1.0)},
		{Name: "dryRun", Kind: schema.Boolean, Default: true},
		{Name: "tags", Kind: schema.List, Items: schema.String, MaxItems: ptr(3), Default: []any{"a"}},
		{Name: "ports", Kind: schema.List, Items: schema.Integer},
		{Name: "regions", Kind: schema.MultiEnum, Options: []schema.Option{{"eu", "eu"}, {"us", "us"}}},
		{Name: "targets", Kind: schema.JSON, Template: json.RawMessage(`[{"host":""}]`)},
		{Name: "mode", Kind: schema.Enum, Options: []schema.Option{{"fast", "Fast"}, {"safe", "safe"}}},
		{Name: "meta", Kind: schema.JSON, Default: map[string]any{"k": "v"}, Template: json.RawMessage(`{"k":"v"}`)},
		{Name: "anything", Kind: schema.JSON},
		{Name: "strategy", Kind: schema.JSON, Template: json.RawMessage(`""`)},
	}
	if diff := cmp.Diff(want, ti.Fields, propOpts); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	if got := string(ti.Property("env").Raw); got != `{"$ref": "#/$defs/Env", "default": "dev", "description": "Where to"}` {
		t.Errorf("env Raw = %s", got)
	}
}

func TestToolInputValidate(t *testing.T) {
	t.Parallel()
	ti, err := schema.ParseToolInput(load(t, "tool-input.json"))
	if err != nil {
		t.Fatal(err)
	}
	base := func() map[string]any {
		return map[string]any{"service": "api", "env": "prod", "target": map[string]any{"host": "https://x.example"}}
	}
	tests := []struct {
		name  string
		field string
		value any
		want  string
	}{
		{"minimal", "", nil, ""},
		{"missing required", "service", nil, `"service": is required`},
		{"enum through $ref", "env", "qa", `"env": must be one of "dev", "staging", "prod"`},
		{"nested object ok", "target", map[string]any{"host": "https://x", "port": 8080}, ""},
		{"nested port out of range", "target", map[string]any{"host": "https://x", "port": 70000}, `"target": at /port: maximum: got 70,000, want 65,535`},
		{"nested missing host", "target", map[string]any{"port": 1}, `"target": at /host: is required`},
		{"nested extra key", "target", map[string]any{"host": "https://x", "x": 1}, `"target": at /x: is not allowed here`},
		{"nested format asserted", "target", map[string]any{"host": "not a uri"}, `"target": at /host: 'not a uri' is not valid uri: relative url`},
		{"nullable string ok", "note", "hi", ""},
		{"nullable string too long", "note", strings.Repeat("x", 21), `"note": must be at most 20 characters`},
		{"list ok", "tags", []string{"a", "b"}, ""},
		{"list too long", "tags", []any{"a", "b", "c", "d"}, `"tags": give at most 3`},
		{"list wrong item", "ports", []any{1, "2"}, `"ports": item 2 must be a number`},
		{"list item constraint from schema", "ports", []any{0}, `"ports": at /0: minimum: got 0, want 1`},
		{"list of int64", "ports", []int64{80, 443}, ""},
		{"multi ok", "regions", []string{"eu"}, ""},
		{"array of objects", "targets", []any{map[string]any{"host": "https://a"}}, ""},
		{"array of objects bad", "targets", []any{map[string]any{}}, `"targets": at /0/host: is required`},
		{"oneOf union", "strategy", json.Number("3"), ""},
		{"oneOf union bad", "strategy", true, `"strategy": matches none of the allowed shapes`},
		{"unknown argument", "bogus", 1, `"bogus": is not allowed here`},
		{"NaN in JSON field", "anything", []any{1.0, map[string]any{"x": nanValue()}}, `"anything": is not a JSON value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := base()
			switch {
			case tt.field == "":
			case tt.value == nil:
				delete(args, tt.field)
			default:
				args[tt.field] = tt.value
			}
			if got := errString(ti.Validate(args)); got != tt.want {
				t.Errorf("Validate\n got %s\nwant %s", got, tt.want)
			}
			// The field alone gives the same verdict (required aside).
			if p := ti.Property(tt.field); p != nil && tt.value != nil {
				if got := errString(schema.ValidateValue(p, tt.value)); got != tt.want {
					t.Errorf("ValidateValue\n got %s\nwant %s", got, tt.want)
				}
			}
		})
	}
}

func nanValue() float64 {
	zero := 0.0
	return zero / zero
}

func TestDecodeJSON(t *testing.T) {
	t.Parallel()
	ti, err := schema.ParseToolInput(load(t, "tool-input.json"))
	if err != nil {
		t.Fatal(err)
	}
	target := ti.Property("target")
	v, err := schema.DecodeJSON(target, `{"host":"https://x","port":443}`)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"host": "https://x", "port": json.Number("443")}, v); diff != "" {
		t.Errorf("DecodeJSON (-want +got):\n%s", diff)
	}
	tests := []struct{ text, want string }{
		{`{"host":`, `"target": is not valid JSON: unexpected EOF`},
		{`{"host":"https://x"} {}`, `"target": is not valid JSON: unexpected data after the value`},
		// A stray closer once passed: Decoder.More is false before it.
		{`{"host":"https://x","port":443}}`, `"target": is not valid JSON: unexpected data after the value`},
		{`{"host":"https://x","port":443}]`, `"target": is not valid JSON: unexpected data after the value`},
		{"{\"host\":\"https://x\",\"port\":443} \n\t", ""},
		{`{"port":1}`, `"target": at /host: is required`},
		{`[]`, `"target": got array, want object`},
		{``, `"target": is required`},
		{`null`, `"target": is required`},
	}
	for _, tt := range tests {
		if _, err := schema.DecodeJSON(target, tt.text); errString(err) != tt.want {
			t.Errorf("DecodeJSON(%q)\n got %v\nwant %s", tt.text, err, tt.want)
		}
	}
	if v, err := schema.DecodeJSON(ti.Property("meta"), "null"); v != nil || err != nil {
		t.Errorf("optional null = %v, %v; want nil, nil", v, err)
	}
}

func TestParseToolInputEmpty(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{``, `null`, `{}`, ` {} `, `{"type":"object"}`, `{"type":"object","properties":{}}`} {
		ti, err := schema.ParseToolInput(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		if len(ti.Fields) != 0 {
			t.Errorf("%q: %d fields", raw, len(ti.Fields))
		}
		if err := ti.Validate(nil); err != nil {
			t.Errorf("%q: Validate(nil) = %v", raw, err)
		}
	}
}

func TestParseToolInputRootRef(t *testing.T) {
	t.Parallel()
	// quicktype and some generators put the arguments behind a root $ref.
	raw := `{"$ref":"#/definitions/Args","definitions":{"Args":{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}},"required":["a"]}}}`
	ti, err := schema.ParseToolInput(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ti.Fields {
		names = append(names, p.Name+":"+p.Kind.String())
	}
	if diff := cmp.Diff([]string{"a:integer", "b:string"}, names); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	if got := errString(ti.Validate(map[string]any{"a": 1, "b": 2})); got != `"b": must be a string` {
		t.Errorf("Validate = %s", got)
	}
	if got := errString(schema.ValidateValue(ti.Property("a"), "x")); got != `"a": must be a number` {
		t.Errorf("ValidateValue = %s", got)
	}
}

func TestParseToolInputRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct{ raw, want string }{
		{`{"type":`, `inputSchema: is not valid JSON`},
		{`[1]`, `inputSchema: must be a JSON object`},
		{`{"type":"string"}`, `inputSchema: type must be "object"`},
		{`{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`, `references outside the schema are not followed`},
		{`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`, `references outside the schema are not followed`},
		{`{"type":"object","properties":{"a":{"$ref":"#nowhere"}}}`, `inputSchema: is not a valid JSON Schema`},
		{`{"type":"object","properties":{"a":{"type":"string","minLength":-1}}}`, `inputSchema: is not a valid JSON Schema`},
	}
	for _, tt := range tests {
		_, err := schema.ParseToolInput(json.RawMessage(tt.raw))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseToolInput(%s) = %v, want %q", tt.raw, err, tt.want)
		}
		if _, ok := err.(*schema.SchemaError); !ok {
			t.Errorf("ParseToolInput(%s): error %T, want *SchemaError", tt.raw, err)
		}
	}
}

func TestParseToolInputLenient(t *testing.T) {
	t.Parallel()
	// Bad defaults and examples are dropped, not refused; cyclic refs and
	// anchors fall back to JSON fields.
	raw := `{"type":"object","$defs":{"loop":{"$ref":"#/$defs/loop2"},"loop2":{"$ref":"#/$defs/loop"}},"properties":{
		"n":{"type":"integer","maximum":5,"default":9,"examples":["x", 1]},
		"s":{"type":"string","default":1,"examples":[2]},
		"c":{"$ref":"#/$defs/loop"},
		"l":{"type":"array","items":{"type":"string"},"default":[1]}}}`
	ti, err := schema.ParseToolInput(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ti.Fields {
		if p.Default != nil || p.Example != nil {
			t.Errorf("%s: default %v example %v, want both dropped", p.Name, p.Default, p.Example)
		}
	}
	for name, kind := range map[string]schema.Kind{"c": schema.JSON, "l": schema.List} {
		if got := ti.Property(name).Kind; got != kind {
			t.Errorf("%s: kind %v, want %v", name, got, kind)
		}
	}
}

// TestToolInputTemplate: an argument the form edits as JSON gets a
// template from its schema: an object with its required members in the
// order "required" names them, an array with one such item; each member a
// value of its type (server-memory's create_entities: one entity with
// name, entityType and observations).
func TestToolInputTemplate(t *testing.T) {
	t.Parallel()
	createEntities := `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"entities":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string","description":"The name of the entity"},"entityType":{"type":"string","description":"The type of the entity"},"observations":{"type":"array","items":{"type":"string"},"description":"An array of observation contents associated with the entity"}},"required":["name","entityType","observations"]}}},"required":["entities"]}`
	cases := []struct {
		name, schema, want string
	}{
		{"create_entities", createEntities, `[{"name":"","entityType":"","observations":[]}]`},
		{"nested and typed", `{"type":"object","properties":{"a":{"type":"object","required":["n","i","b","o","e","c","x"],"properties":{
			"n":{"type":"number"},"i":{"type":"integer"},"b":{"type":"boolean"},"o":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"]},
			"e":{"enum":["up","down"]},"c":{"const":7},"x":{"type":["string","null"]},"optional":{"type":"string"}}}}}`,
			`{"n":0,"i":0,"b":false,"o":{"k":""},"e":"up","c":7,"x":""}`},
		{"defaults and examples first", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","required":["d","x"],"properties":{
			"d":{"type":"string","default":"dv"},"x":{"type":"integer","examples":[3]}}}}}}`, `[{"d":"dv","x":3}]`},
		{"a $ref item", `{"type":"object","$defs":{"T":{"type":"object","properties":{"h":{"type":"string"}},"required":["h"]}},
			"properties":{"a":{"type":"array","items":{"$ref":"#/$defs/T"}}}}`, `[{"h":""}]`},
		{"a recursive $ref ends", `{"type":"object","$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}},"required":["next"]}},
			"properties":{"a":{"$ref":"#/$defs/N"}}}`, ""},
		{"no required members", `{"type":"object","properties":{"a":{"type":"object","properties":{"k":{"type":"string"}}}}}`, `{}`},
		{"unknown shape", `{"type":"object","properties":{"a":{}}}`, ""},
	}
	for _, c := range cases {
		ti, err := schema.ParseToolInput(json.RawMessage(c.schema))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p := ti.Fields[0]
		if p.Kind != schema.JSON {
			t.Fatalf("%s: kind %v, want json", c.name, p.Kind)
		}
		got := string(p.Template)
		if c.name == "a recursive $ref ends" {
			// Bounded: some depth of "next", then null; never a hang.
			if !strings.HasPrefix(got, `{"next":{"next":`) || !strings.Contains(got, "null") {
				t.Errorf("%s: template %s", c.name, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%s: template %s, want %s", c.name, got, c.want)
		}
	}
}

// TestToolInputTemplateBounded: a schema whose objects each require many
// members of their own kind gives a small template, at once.
func TestToolInputTemplateBounded(t *testing.T) {
	t.Parallel()
	var req, props []string
	for i := range 50 {
		req = append(req, fmt.Sprintf(`"m%d"`, i))
		props = append(props, fmt.Sprintf(`"m%d":{"$ref":"#/$defs/N"}`, i))
	}
	s := `{"type":"object","$defs":{"N":{"type":"object","required":[` + strings.Join(req, ",") + `],"properties":{` + strings.Join(props, ",") +
		`}}},"properties":{"a":{"$ref":"#/$defs/N"}}}`
	ti, err := schema.ParseToolInput(json.RawMessage(s))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ti.Fields[0].Template); n == 0 || n > 8<<10 {
		t.Fatalf("template of %d bytes", n)
	}
	if !json.Valid(ti.Fields[0].Template) {
		t.Fatalf("template is not JSON: %s", ti.Fields[0].Template)
	}
}
