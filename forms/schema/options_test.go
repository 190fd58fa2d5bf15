package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
)

// enumSchema is a requestedSchema with one select of n options, written as
// enum or as titled oneOf.
func enumSchema(n int, titled bool) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"pick":{"type":"string",`)
	if titled {
		b.WriteString(`"oneOf":[`)
	} else {
		b.WriteString(`"enum":[`)
	}
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if titled {
			fmt.Fprintf(&b, `{"const":"o%d","title":"Option %d"}`, i, i)
		} else {
			fmt.Fprintf(&b, `"o%d"`, i)
		}
	}
	b.WriteString(`]}}}`)
	return json.RawMessage(b.String())
}

// TestParseOptionCap: a select of MaxOptions options is a question; one
// more is refused naming the property, as are duplicates, whichever way
// the options are written.
func TestParseOptionCap(t *testing.T) {
	t.Parallel()
	for _, titled := range []bool{false, true} {
		s, err := schema.Parse(enumSchema(schema.MaxOptions, titled), schema.Subset2025_11_25)
		if err != nil {
			t.Fatalf("titled=%v: %d options refused: %v", titled, schema.MaxOptions, err)
		}
		if got := len(s.Property("pick").Options); got != schema.MaxOptions {
			t.Errorf("titled=%v: %d options parsed, want %d", titled, got, schema.MaxOptions)
		}
		_, err = schema.Parse(enumSchema(schema.MaxOptions+1, titled), schema.Subset2025_11_25)
		var se *schema.SchemaError
		if !errors.As(err, &se) || se.Property != "pick" || !strings.Contains(se.Rule, "10001 options") {
			t.Errorf("titled=%v: %d options: %v, want a SchemaError naming pick and the count", titled, schema.MaxOptions+1, err)
		}
	}
	dup := json.RawMessage(`{"type":"object","properties":{"pick":{"type":"string","enum":["a","b","a"]}}}`)
	var se *schema.SchemaError
	if _, err := schema.Parse(dup, schema.Subset2025_11_25); !errors.As(err, &se) || se.Property != "pick" || !strings.Contains(se.Rule, `"a" twice`) {
		t.Errorf("duplicate option: %v", err)
	}
}

// BenchmarkParseManyOptions: parsing a question with many options, at the
// cap (accepted: decoded, checked, compiled) and at ten times it (refused
// before any compile). The duplicate check is linear.
func BenchmarkParseManyOptions(b *testing.B) {
	for _, n := range []int{schema.MaxOptions, 100_000} {
		raw := enumSchema(n, false)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				_, err := schema.Parse(raw, schema.Subset2025_11_25)
				if (err == nil) != (n <= schema.MaxOptions) {
					b.Fatalf("%d options: %v", n, err)
				}
			}
		})
	}
}
