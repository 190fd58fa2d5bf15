package schema_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
)

// thirtyFields builds a requestedSchema of 30 properties cycling through
// every kind, most with constraints and defaults.
func thirtyFields() json.RawMessage {
	shapes := []string{
		`{"type":"string","title":"Name","minLength":1,"maxLength":50,"default":"Ada"}`,
		`{"type":"string","format":"email"}`,
		`{"type":"string","format":"date","default":"2024-02-29"}`,
		`{"type":"integer","minimum":1,"maximum":100,"default":42}`,
		`{"type":"number","minimum":0,"maximum":1000,"default":3.14}`,
		`{"type":"boolean","default":true}`,
		`{"type":"string","enum":["a","b","c","d"],"default":"b"}`,
		`{"type":"string","oneOf":[{"const":"x","title":"X"},{"const":"y","title":"Y"}],"default":"y"}`,
		`{"type":"array","items":{"type":"string","enum":["p","q","r"]},"minItems":1,"maxItems":2,"default":["p"]}`,
		`{"type":"array","items":{"anyOf":[{"const":"f1","title":"Tuna"},{"const":"f2","title":"Salmon"}]},"default":["f2"]}`,
	}
	var props []string
	var req []string
	for i := range 30 {
		name := fmt.Sprintf("field%02d", i)
		props = append(props, fmt.Sprintf("%q:%s", name, shapes[i%len(shapes)]))
		if i%3 == 0 {
			req = append(req, fmt.Sprintf("%q", name))
		}
	}
	return json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") +
		`},"required":[` + strings.Join(req, ",") + `]}`)
}

func BenchmarkParse30(b *testing.B) {
	raw := thirtyFields()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := schema.Parse(raw, schema.Subset2025_11_25); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate30(b *testing.B) {
	s, err := schema.Parse(thirtyFields(), schema.Subset2025_11_25)
	if err != nil {
		b.Fatal(err)
	}
	content := s.Defaults()
	for _, p := range s.Properties {
		if p.Format == "email" {
			content[p.Name] = "ada@example.com"
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Validate(content); err != nil {
			b.Fatal(err)
		}
	}
}

// stormSchema is question i of the demo's storm: the same shape each time,
// with i in the description and the default.
func stormSchema(i int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"value":{"type":"integer","title":"Value",`+
		`"description":"Keep %d to prove this answer belongs to question %d.","default":%d}},"required":["value"]}`, i, i, i))
}

// BenchmarkParseStorm parses storm questions, each different by its bytes:
// "fresh" compiles every one (Parse), "cached" shares the compiled shape
// (ParseWith and one Cache).
func BenchmarkParseStorm(b *testing.B) {
	raws := make([]json.RawMessage, 1000)
	for i := range raws {
		raws[i] = stormSchema(i + 1)
	}
	for _, cached := range []bool{false, true} {
		name := "fresh"
		if cached {
			name = "cached"
		}
		b.Run(name, func(b *testing.B) {
			var c *schema.Cache
			if cached {
				c = schema.NewCache(64)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := schema.ParseWith(raws[i%len(raws)], schema.Subset2025_11_25, c); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
