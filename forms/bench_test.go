package forms

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
)

// schema30 is a 30-field schema cycling through every field kind.
func schema30() json.RawMessage {
	kinds := []string{
		`{"type":"string","title":"Name %d","description":"Your name","minLength":1,"maxLength":50}`,
		`{"type":"string","format":"email","description":"Where we write to"}`,
		`{"type":"string","format":"date"}`,
		`{"type":"integer","minimum":1,"maximum":100,"default":42}`,
		`{"type":"number","minimum":0,"maximum":1000,"default":3.14}`,
		`{"type":"boolean","default":true}`,
		`{"type":"string","enum":["a","b","c","d","e","f","g","h","i","j","k","l"],"default":"c"}`,
		`{"type":"string","oneOf":[{"const":"1","title":"One"},{"const":"2","title":"Two"}]}`,
		`{"type":"array","minItems":1,"maxItems":3,"items":{"type":"string","enum":["x","y","z","w"]},"default":["x"]}`,
		`{"type":"array","items":{"anyOf":[{"const":"f1","title":"Tuna"},{"const":"f2","title":"Salmon"}]}}`,
	}
	var props []string
	for i := range 30 {
		props = append(props, fmt.Sprintf(`"f%02d":`, i)+strings.ReplaceAll(kinds[i%len(kinds)], "%d", fmt.Sprint(i)))
	}
	return json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":["f00","f03"]}`)
}

// BenchmarkParseAndBuild is the cost of turning a 30-field requestedSchema
// into a form ready to render: Parse, New, and the first layout.
func BenchmarkParseAndBuild(b *testing.B) {
	raw := schema30()
	b.ReportAllocs()
	for b.Loop() {
		s, err := schema.Parse(raw, schema.Subset2025_11_25)
		if err != nil {
			b.Fatal(err)
		}
		f := New(s, Options{Message: "Thirty questions"})
		f.SetSize(100, 40)
	}
}

// BenchmarkContent is the cost of reading and validating the answer.
func BenchmarkContent(b *testing.B) {
	s, err := schema.Parse(schema30(), schema.Subset2025_11_25)
	if err != nil {
		b.Fatal(err)
	}
	f := New(s, Options{})
	for _, fl := range f.fields {
		if t, ok := fl.(*textField); ok {
			t.text = map[string]string{"": "Ada", "email": "ada@example.com", "date": "2025-03-01"}[t.p.Format]
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Content(); err != nil {
			b.Fatal(err)
		}
	}
}
