package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
)

// TestParseRefusesHiddenDefaults: a default the person could not see as it
// is (bidi overrides, controls) is refused, so what is shown and what is
// sent cannot differ.
func TestParseRefusesHiddenDefaults(t *testing.T) {
	for _, d := range []string{`"pay \u202eevil\u202c"`, `"\u2066x\u2069"`, `"a\u001b[31mb"`, `"bell\u0007"`, `"c1\u009b"`} {
		raw := `{"type":"object","properties":{"a":{"type":"string","default":` + d + `}}}`
		_, err := schema.Parse(json.RawMessage(raw), schema.Subset2025_11_25)
		var se *schema.SchemaError
		if !errors.As(err, &se) || se.Property != "a" || !strings.Contains(se.Rule, "bidirectional") {
			t.Errorf("default %s: err %v, want a SchemaError on a", d, err)
		}
	}
	multi := `{"type":"object","properties":{"m":{"type":"array","items":{"type":"string","enum":["x","\u202ey"]},"default":["\u202ey"]}}}`
	if _, err := schema.Parse(json.RawMessage(multi), schema.Subset2025_11_25); err == nil {
		t.Error("a multi-select default with a bidi override was accepted")
	}
	ok := `{"type":"object","properties":{"a":{"type":"string","default":"two\nlines\tand تبويب"}}}`
	if _, err := schema.Parse(json.RawMessage(ok), schema.Subset2025_11_25); err != nil {
		t.Errorf("plain text with newline, tab and RTL letters refused: %v", err)
	}
}

func TestParseBoundsWidth(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range schema.MaxProperties + 1 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string"}`, i)
	}
	b.WriteString(`}}`)
	_, err := schema.Parse(json.RawMessage(b.String()), schema.Subset2025_11_25)
	var se *schema.SchemaError
	if !errors.As(err, &se) || !strings.Contains(se.Rule, "more than 1000") {
		t.Errorf("a form %d wide: err %v", schema.MaxProperties+1, err)
	}
}
