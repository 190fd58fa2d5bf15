package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/elicit-dev/elicit/forms/schema"
)

// outputSchema is what a tool might declare: nested objects, an array of
// them, a $ref and a union, which the form schemas never take.
const outputSchema = `{
  "type": "object",
  "$defs": {"item": {"type": "object", "properties": {"id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}, "required": ["id"]}},
  "properties": {
    "sum":   {"type": "number"},
    "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
    "when":  {"type": "string", "format": "date-time"},
    "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
  },
  "required": ["sum"],
  "additionalProperties": false
}`

func TestDocumentCheck(t *testing.T) {
	t.Parallel()
	d, err := schema.CompileDocument(json.RawMessage(outputSchema))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		value string
		want  []schema.Problem // nil: conforms
	}{
		{"conforms", `{"sum": 5, "items": [{"id": 1, "tags": ["a"]}], "either": 3}`, nil},
		{"big integers stay exact", `{"sum": 12345678901234567890, "items": [{"id": 9007199254740993}]}`, nil},
		// Formats are annotations for a server's output (2020-12's default).
		{"format not asserted", `{"sum": 1, "when": "yesterday"}`, nil},
		{"missing required", `{"items": []}`, []schema.Problem{{Path: "", Reason: "missing property 'sum'"}}},
		{"wrong type", `{"sum": "5"}`, []schema.Problem{{Path: "/sum", Reason: "got string, want number"}}},
		{"deep", `{"sum": 1, "items": [{"id": 1}, {"id": "x", "tags": [1]}]}`, []schema.Problem{
			{Path: "/items/1/id", Reason: "got string, want integer"},
			{Path: "/items/1/tags/0", Reason: "got number, want string"},
		}},
		{"extra member", `{"sum": 1, "bonus": true}`, []schema.Problem{{Path: "", Reason: "additional properties 'bonus' not allowed"}}},
		{"union", `{"sum": 1, "either": true}`, []schema.Problem{{Path: "/either", Reason: "matches none of the allowed shapes (anyOf)"}}},
		{"not an object", `[1]`, []schema.Problem{{Path: "", Reason: "got array, want object"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := d.Check([]byte(tt.value))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Check = %v, want it to conform", err)
				}
				return
			}
			var me *schema.MismatchError
			if !errors.As(err, &me) {
				t.Fatalf("Check = %v (%T), want a *MismatchError", err, err)
			}
			if diff := cmp.Diff(tt.want, me.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// The validator walks an object's members in map order, so an order that
// came from it would differ between runs; the list must not.
func TestDocumentCheckOrdersProblemsByPlace(t *testing.T) {
	t.Parallel()
	d, err := schema.CompileDocument(json.RawMessage(`{"type":"object","additionalProperties":{"type":"integer"}}`))
	if err != nil {
		t.Fatal(err)
	}
	value := `{"m":"x","c":"x","a":"x","q":"x","b":"x","z":"x","k":"x","e":"x","10":"x","9":"x","n":[]}`
	var want []string
	for run := range 30 {
		var me *schema.MismatchError
		if err := d.Check([]byte(value)); !errors.As(err, &me) {
			t.Fatalf("Check = %v, want a *MismatchError", err)
		}
		var got []string
		for _, p := range me.Problems {
			got = append(got, p.Path)
		}
		if run == 0 {
			want = got
			if len(got) != 10 || me.More != 1 || got[0] != "/9" || got[1] != "/10" || got[2] != "/a" {
				t.Fatalf("problems at %v (and %d more), want 10 sorted by place", got, me.More)
			}
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("run %d listed problems in another order (-first +now):\n%s", run, diff)
		}
	}
}

func TestDocumentCheckBoundsProblems(t *testing.T) {
	t.Parallel()
	d, err := schema.CompileDocument(json.RawMessage(`{"type":"array","items":{"type":"integer"}}`))
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]string, 25)
	for i := range vals {
		vals[i] = fmt.Sprintf("%q", fmt.Sprint(i))
	}
	var me *schema.MismatchError
	if err := d.Check([]byte("[" + strings.Join(vals, ",") + "]")); !errors.As(err, &me) {
		t.Fatalf("Check = %v, want a *MismatchError", err)
	}
	if len(me.Problems) != 10 || me.More != 15 {
		t.Fatalf("%d problems and %d more, want 10 and 15", len(me.Problems), me.More)
	}
	if got := me.Problems[9].Path; got != "/9" {
		t.Errorf("10th problem at %q, want /9", got)
	}
	if !strings.HasSuffix(me.Error(), "; and 15 more") {
		t.Errorf("Error() = %q", me.Error())
	}
}

func TestDocumentRefusals(t *testing.T) {
	t.Parallel()
	for name, doc := range map[string]string{
		"not JSON":        `{"type":`,
		"remote ref":      `{"$ref": "https://example.com/schema.json"}`,
		"file ref":        `{"$ref": "file:///etc/passwd"}`,
		"bad keyword use": `{"type": "object", "required": "sum"}`,
	} {
		if _, err := schema.CompileDocument(json.RawMessage(doc)); err == nil {
			t.Errorf("%s: compiled", name)
		}
	}
	d, err := schema.CompileDocument(json.RawMessage(`{"$schema": "https://example.com/my-dialect", "type": "object"}`))
	if err != nil {
		t.Fatalf("an unknown dialect is read as 2020-12, got %v", err)
	}
	if err := d.Check([]byte(`{"a": 1} x`)); err == nil || errors.As(err, new(*schema.MismatchError)) {
		t.Errorf("text that is not JSON: %v, want a decoding error", err)
	}
}

func TestFitValue(t *testing.T) {
	t.Parallel()
	ti, err := schema.ParseToolInput(json.RawMessage(`{"type":"object","properties":{
		"n": {"type":"integer","minimum":1},
		"x": {"type":"number"},
		"tags": {"type":"array","items":{"type":"string","enum":["a","b"]}},
		"nums": {"type":"array","items":{"type":"integer"}},
		"obj": {"type":"object","properties":{"k":{"type":"string"}},"required":["k"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		field string
		in    any
		want  any
		err   string
	}{
		{"n", json.Number("3"), int64(3), ""},
		{"n", float64(4), int64(4), ""},
		{"n", json.Number("0"), nil, `"n": must be at least 1`},
		{"n", "3", nil, `"n": must be a number`},
		{"x", json.Number("1.5"), 1.5, ""},
		{"tags", []any{"a", "b"}, []string{"a", "b"}, ""},
		{"tags", []any{"z"}, nil, `"tags": "z" is not one of the options "a", "b"`},
		{"nums", []any{json.Number("1"), json.Number("2")}, []any{int64(1), int64(2)}, ""},
		{"obj", map[string]any{"k": "v"}, map[string]any{"k": "v"}, ""},
		{"obj", map[string]any{}, nil, `"obj": at /k: is required`},
		{"n", nil, nil, `"n": has no value`},
	}
	for _, tt := range tests {
		got, err := schema.FitValue(ti.Property(tt.field), tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("FitValue(%s, %#v) error = %v, want %q", tt.field, tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !cmp.Equal(got, tt.want) {
			t.Errorf("FitValue(%s, %#v) = %#v, %v; want %#v", tt.field, tt.in, got, err, tt.want)
		}
	}
}
