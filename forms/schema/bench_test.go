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
