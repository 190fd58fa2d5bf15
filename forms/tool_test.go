package forms

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
)

func parseTool(t testing.TB, raw string) *schema.ToolInput {
	t.Helper()
	ti, err := schema.ParseToolInput(json.RawMessage(raw))
	if err != nil {
		t.Fatalf("ParseToolInput: %v\n%s", err, raw)
	}
	return ti
}

const searchTool = `{
  "type": "object",
  "properties": {
    "query":   {"type": "string", "description": "search text"},
    "limit":   {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
    "tags":    {"type": "array", "items": {"type": "string"}},
    "ids":     {"type": "array", "items": {"type": "integer"}, "minItems": 1},
    "filter":  {"type": "object", "properties": {"field": {"type": "string"}, "op": {"enum": ["eq", "ne"]}},
                "required": ["field"], "additionalProperties": false},
    "mode":    {"type": "string", "enum": ["fast", "exact"]},
    "verbose": {"type": "boolean", "default": false},
    "region":  {"type": "string", "examples": ["eu-west-1"]}
  },
  "required": ["ids", "query", "filter"]
}`

func TestToolArgs(t *testing.T) {
	t.Parallel()
	f := NewToolArgs(parseTool(t, searchTool), Options{})
	d := drive(t, f, 80)
	d.mustShow("eu-west-1") // an optional argument's example is a placeholder
	steps := []struct {
		field string
		do    func()
	}{
		// Required arguments first, in document order.
		{"query", func() { d.typeText("cats") }},
		{"ids", func() { d.typeText("1, 2,3") }},
		{"filter", func() {
			// It starts from its template, {"field": ""}: the name goes
			// between the quotes, a line up from the end.
			d.mustShow(`"field": ""`)
			d.key("up")
			for range len(`  "field": "`) - len("}") {
				d.key("right")
			}
			d.typeText("name")
		}},
		{"limit", func() {}},
		{"tags", func() { d.typeText("red"); d.key("alt+enter"); d.typeText("green, blue") }},
		{"mode", func() {}},
		{"verbose", func() {}},
		{"region", func() {}},
	}
	for _, s := range steps {
		if got := d.focused(); got != s.field {
			t.Fatalf("focus on %q, want %q:\n%s", got, s.field, d.screen())
		}
		s.do()
		d.key("enter")
	}
	if !f.Submitted() {
		t.Fatalf("not submitted; focus on %q:\n%s", d.focused(), d.screen())
	}
	const want = `{"query":"cats","ids":[1,2,3],"filter":{"field":"name"},"limit":10,
		"tags":["red","green, blue"],"verbose":false}`
	wantJSON(t, contentJSON(t, f), want)
}

// TestToolFieldValues reads list and JSON fields directly, with every way
// of writing them.
func TestToolFieldValues(t *testing.T) {
	t.Parallel()
	ti := parseTool(t, `{"type":"object","properties":{
		"s":{"type":"array","items":{"type":"string"}},
		"n":{"type":"array","items":{"type":"number"},"maxItems":3},
		"i":{"type":"array","items":{"type":"integer"}},
		"b":{"type":"array","items":{"type":"boolean"}},
		"j":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]},
		"req":{"type":"string","examples":["from-example"]}},
		"required":["req"]}`)
	tests := []struct {
		name, field, text string
		want              string // JSON of the value, "" for omitted
		err               string
	}{
		{"strings one per line", "s", "a b\n c \n\nd,e", `["a b","c","d,e"]`, ""},
		{"strings as JSON", "s", `[" edge ", ""]`, `[" edge ",""]`, ""},
		{"empty JSON array", "s", `[]`, `[]`, ""},
		{"empty text is omitted", "s", " \n ", "", ""},
		{"numbers by comma and line", "n", "1.5, -2\n3e2", `[1.5,-2,300]`, ""},
		{"too many numbers", "n", "1,2,3,4", "", "at most 3"},
		{"bad number", "n", "1, x", "", "item 2"},
		{"integers", "i", "1,2 , 3", `[1,2,3]`, ""},
		{"integers as JSON", "i", "[9007199254740991]", `[9007199254740991]`, ""},
		{"integer fraction", "i", "1, 2.5", "", "whole number"},
		{"unsafe integer in JSON", "i", "[9007199254740993]", "", "9007199254740991"},
		{"booleans", "b", "true, no, Yes", `[true,false,true]`, ""},
		{"booleans as JSON", "b", "[false]", `[false]`, ""},
		{"not a boolean", "b", "maybe", "", "true or false"},
		{"string item in integer JSON", "i", `["1"]`, "", "item 1"},
		{"JSON big integer kept exactly", "j", `{"x": 12345678901234567}`, `{"x":12345678901234567}`, ""},
		{"JSON object exact", "j", "{\n  \"x\": 5\n}", `{"x":5}`, ""},
		{"JSON missing required key", "j", `{}`, "", "x"},
		{"JSON syntax", "j", `{"x":`, "", "not valid JSON"},
		{"JSON trailing text", "j", `{"x":1} {}`, "", "not valid JSON"},
		{"JSON null is omitted", "j", `null`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := NewToolArgs(ti, Options{})
			var fl field
			for _, c := range f.fields {
				if c.property().Name == tt.field {
					fl = c
				}
			}
			switch x := fl.(type) {
			case *listField:
				x.text = tt.text
			case *jsonField:
				x.text = tt.text
			}
			v, ok, err := fl.value()
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q (value %v)", err, tt.err, v)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if ok {
					t.Fatalf("value %v present, want omitted", v)
				}
				return
			}
			// Exact text: big integers must survive digit for digit.
			if b, _ := json.Marshal(v); string(b) != tt.want {
				t.Fatalf("value %s, want %s", b, tt.want)
			}
			c, err := f.Content()
			if err != nil {
				t.Fatalf("Content: %v", err)
			}
			if err := ti.Validate(c); err != nil {
				t.Fatalf("Content %v fails Validate: %v", c, err)
			}
		})
	}
}

func TestToolRequiredExamplePrefilled(t *testing.T) {
	t.Parallel()
	f := NewToolArgs(parseTool(t, `{"type":"object","properties":{
		"region":{"type":"string","examples":["eu-west-1"]},
		"zone":{"type":"string","examples":["a"]}},"required":["region"]}`), Options{})
	d := drive(t, f, 80)
	d.submit()
	wantJSON(t, contentJSON(t, f), `{"region":"eu-west-1"}`)
}

func TestToolNoArguments(t *testing.T) {
	t.Parallel()
	f := NewToolArgs(parseTool(t, `{"type":"object"}`), Options{})
	d := drive(t, f, 80)
	d.submit()
	wantJSON(t, contentJSON(t, f), `{}`)
}

// createEntities is server-memory's create_entities inputSchema (2026.8.31),
// with an optional argument of the same shape beside it.
const createEntities = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{
  "entities":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string","description":"The name of the entity"},
    "entityType":{"type":"string","description":"The type of the entity"},
    "observations":{"type":"array","items":{"type":"string"},"description":"An array of observation contents associated with the entity"}},
    "required":["name","entityType","observations"]}},
  "more":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}},
  "required":["entities"]}`

// TestToolJSONTemplate: a required array of objects starts from a
// template of one item with its required members, which a person fills
// in; an optional one shows it only as a placeholder and is not sent.
func TestToolJSONTemplate(t *testing.T) {
	t.Parallel()
	f := NewToolArgs(parseTool(t, createEntities), Options{})
	d := drive(t, f, 80)
	d.mustShow(`"name": ""`, `"entityType": ""`, `"observations": []`)
	// Fill the name in: the cursor is at the end of the text, after "]";
	// four lines up, and right to between the quotes of "name": "".
	d.key("up", "up", "up", "up")
	for range len(`    "name": "`) - len("]") {
		d.key("right")
	}
	d.typeText("Ada")
	d.key("enter")
	d.mustShow(`e.g. [`, `"id": ""`)
	d.key("enter")
	if !f.Submitted() {
		t.Fatalf("not submitted; focus on %q:\n%s", d.focused(), d.screen())
	}
	wantJSON(t, contentJSON(t, f), `{"entities":[{"name":"Ada","entityType":"","observations":[]}]}`)
}

// TestValuesKeepJSONAsWritten: a JSON argument is carried as the text the
// person wrote (compacted): its members in their order, and carried even
// while it does not yet fit its schema, so that the JSON editor (ctrl+l)
// shows what the form held rather than dropping it or sorting it.
func TestValuesKeepJSONAsWritten(t *testing.T) {
	t.Parallel()
	f := NewToolArgs(parseTool(t, createEntities), Options{})
	if got := string(asRaw(t, f.Values()["entities"])); got != `[{"name":"","entityType":"","observations":[]}]` {
		t.Errorf("the template is carried as %s", got)
	}
	f.fields[0].(*jsonField).text = `[{"name": "Ada", "zeta": 1}]` // no entityType yet
	if got := string(asRaw(t, f.Values()["entities"])); got != `[{"name":"Ada","zeta":1}]` {
		t.Errorf("a half-written value is carried as %s", got)
	}
	f.fields[0].(*jsonField).text = `[{"name": "Ada",` // not JSON
	if v, ok := f.Values()["entities"]; ok {
		t.Errorf("text that is not JSON is carried: %v", v)
	}
}

func asRaw(t *testing.T, v any) json.RawMessage {
	t.Helper()
	raw, ok := v.(json.RawMessage)
	if !ok {
		t.Fatalf("%T %v, want json.RawMessage", v, v)
	}
	return raw
}
