package schema

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema/internal/jsonschema"
)

// metaCases are documents metaValid must vouch for (true) or leave to the
// meta-schema (false); the meta-schema refuses every "refused" one.
var metaCases = []struct {
	name, doc string
	vouched   bool
	refused   bool // by the meta-schema
}{
	{"a form", `{"type":"object","properties":{"name":{"type":"string","title":"Name","minLength":1,"maxLength":40,"default":"x"},"n":{"type":"integer","minimum":1,"maximum":9.5},"ok":{"type":"boolean","default":true},"c":{"type":"string","oneOf":[{"const":"a","title":"A"}]},"m":{"type":"array","items":{"type":"string","enum":["a","b"]},"minItems":0,"maxItems":2,"uniqueItems":true},"e":{"type":"string","enum":["x"],"enumNames":["X"]}},"required":["name"]}`, true, false},
	{"formats and patterns, ECMA ones too", `{"type":"object","properties":{"a":{"type":"string","format":"email","pattern":"^(?=a).*$"}}}`, true, false},
	{"unknown keywords hold anything", `{"type":"object","x-ui":{"$ref":5},"properties":{"a":{"type":"string","enumNames":7}}}`, true, false},
	{"booleans are schemas", `{"type":"object","properties":{"a":true,"b":false},"additionalProperties":false}`, true, false},
	{"a type list", `{"type":["object","null"]}`, true, false},
	{"annotations", `{"type":"object","$comment":"c","deprecated":false,"readOnly":true,"writeOnly":false,"examples":[1],"const":{"a":1}}`, true, false},

	{"an unknown type", `{"type":"object","properties":{"a":{"type":"strin"}}}`, false, true},
	{"a negative length", `{"type":"object","properties":{"a":{"type":"string","minLength":-1}}}`, false, true},
	{"a fractional length", `{"type":"object","properties":{"a":{"type":"string","maxLength":1.5}}}`, false, true},
	{"a numeric title", `{"type":"object","properties":{"a":{"type":"string","title":5}}}`, false, true},
	{"a null description", `{"type":"object","description":null}`, false, true},
	{"a property that is no schema", `{"type":"object","properties":{"a":5}}`, false, true},
	{"properties that are no object", `{"type":"object","properties":[]}`, false, true},
	{"an empty anyOf", `{"type":"object","properties":{"a":{"type":"array","items":{"anyOf":[]}}}}`, false, true},
	{"an empty type list", `{"type":[]}`, false, true},
	{"a repeated type", `{"type":["string","string"]}`, false, true},
	{"an enum that is no array", `{"type":"object","properties":{"a":{"type":"string","enum":"a"}}}`, false, true},
	{"uniqueItems that is no boolean", `{"type":"object","properties":{"a":{"type":"array","uniqueItems":"yes"}}}`, false, true},
	{"items null", `{"type":"object","properties":{"a":{"type":"array","items":null}}}`, false, true},
	{"a minimum as a string", `{"type":"object","properties":{"a":{"type":"number","minimum":"3"}}}`, false, true},
	{"a pattern that is no string", `{"type":"object","properties":{"a":{"type":"string","pattern":5}}}`, false, true},
	{"required repeated below the root", `{"type":"object","properties":{"a":{"type":"object","required":["x","x"]}}}`, false, true},
	{"required not strings", `{"type":"object","required":[1]}`, false, true},
	{"a format that is no string", `{"type":"object","properties":{"a":{"type":"string","format":1}}}`, false, true},
	{"a bad $id", `{"type":"object","$id":"#frag"}`, false, true},

	{"left to the meta-schema: $ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"string"}}}`, false, false},
	{"left to the meta-schema: $schema", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`, false, false},
	{"left to the meta-schema: multipleOf", `{"type":"object","properties":{"a":{"type":"number","multipleOf":2}}}`, false, false},
	{"left to the meta-schema: an integer written 1.0", `{"type":"object","properties":{"a":{"type":"string","minLength":1.0}}}`, false, false},
	{"left to the meta-schema: patternProperties", `{"type":"object","patternProperties":{"^a":{"type":"string"}}}`, false, false},
	{"left to the meta-schema: deep nesting", `{"type":"object","properties":{"a":{"items":{"items":{"items":{"items":{"items":{"items":{"items":{"items":{"items":{}}}}}}}}}}}}`, false, false},
}

// TestMetaValidAgrees: metaValid vouches only for what the meta-schema
// accepts, and compiling with it or without it gives the same result.
func TestMetaValidAgrees(t *testing.T) {
	for _, c := range metaCases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(c.doc)))
			if err != nil {
				t.Fatal(err)
			}
			if m, ok := doc.(map[string]any); ok {
				doc = lenientRoot(m)
			}
			if got := metaValid(doc); got != c.vouched {
				t.Errorf("metaValid = %v, want %v", got, c.vouched)
			}
			_, slowErr := compileDocWith([]byte(c.doc), false)
			var sve *jsonschema.SchemaValidationError
			if refused := errors.As(slowErr, &sve); refused != c.refused {
				t.Errorf("the meta-schema refused it: %v (%v), want %v", refused, slowErr, c.refused)
			}
			agree(t, []byte(c.doc))
		})
	}
}

// TestMetaValidAgreesOnTestdata runs every schema the package's tests and
// fuzz corpora hold through both compiles.
func TestMetaValidAgreesOnTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	seeds, _ := filepath.Glob("testdata/fuzz/*/*")
	n := 0
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		agree(t, raw)
		n++
	}
	for _, name := range seeds {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		// A corpus file: `[]byte("…")` lines; the first is the schema.
		for _, line := range bytes.Split(raw, []byte("\n")) {
			if s, ok := corpusBytes(line); ok {
				agree(t, s)
				n++
				break
			}
		}
	}
	if n < 4 {
		t.Fatalf("only %d documents found", n)
	}
}

// corpusBytes reads a `[]byte("…")` line of a fuzz corpus file.
func corpusBytes(line []byte) ([]byte, bool) {
	in, ok := bytes.CutPrefix(line, []byte("[]byte("))
	if !ok {
		return nil, false
	}
	in, ok = bytes.CutSuffix(in, []byte(")"))
	if !ok {
		return nil, false
	}
	s, err := strconv.Unquote(string(in))
	if err != nil {
		return nil, false
	}
	return []byte(s), true
}

// FuzzMetaValid: whatever the document, what metaValid vouches for the
// meta-schema accepts, and the two compiles agree.
func FuzzMetaValid(f *testing.F) {
	for _, c := range metaCases {
		f.Add([]byte(c.doc))
	}
	files, _ := filepath.Glob("testdata/*.json")
	for _, name := range files {
		if raw, err := os.ReadFile(name); err == nil {
			f.Add(raw)
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		agree(t, raw)
	})
}

// agree compiles raw with and without metaValid and fails when the
// results differ, or when metaValid vouched for a document the
// meta-schema refuses.
func agree(t *testing.T, raw []byte) {
	t.Helper()
	_, fastErr := compileDocWith(raw, true)
	_, slowErr := compileDocWith(raw, false)
	// Alike in outcome and kind, not in text: the library names a
	// document's several faults in map order, which changes from run to
	// run (the corpus holds two such documents).
	var fastMeta, slowMeta *jsonschema.SchemaValidationError
	if (fastErr == nil) != (slowErr == nil) || errors.As(fastErr, &fastMeta) != errors.As(slowErr, &slowMeta) {
		t.Fatalf("%.200s:\nwith metaValid: %v\nwithout: %v", raw, fastErr, slowErr)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return
	}
	if m, ok := doc.(map[string]any); ok {
		doc = lenientRoot(m)
	}
	var sve *jsonschema.SchemaValidationError
	if metaValid(doc) && errors.As(slowErr, &sve) {
		t.Fatalf("%.200s: metaValid vouched for it, the meta-schema refuses it: %v", raw, slowErr)
	}
}
