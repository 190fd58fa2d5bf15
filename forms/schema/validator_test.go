package schema_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
)

// What forms/schema takes from its JSON Schema validator beyond what the
// other tests pin (instance locations through arrays and $refs, every
// failure of a value listed, formats asserted in tool arguments): the
// drafts servers write, the meta-schema's refusals, and patterns that are
// not RE2. google/jsonschema-go v0.4.3, linked already through go-sdk,
// fails each of these (issues 24 and 27: BENCHMARKS.md, "Start-up"), so a
// change of validator must keep them, not lose them quietly.

// TestDocumentDraftsByTheirOwnRules: a document that names draft-04, -06,
// -07 or 2019-09 is judged by that draft's rules, not refused and not read
// as 2020-12 (draft-04's exclusiveMinimum is a boolean beside minimum;
// from draft-06 on it is the bound itself).
func TestDocumentDraftsByTheirOwnRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, doc, bad, good, reason string
	}{
		{"draft-04", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object",
			"properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true}}}`,
			`{"n":0}`, `{"n":0.5}`, "exclusiveMinimum"},
		{"draft-06", `{"$schema":"http://json-schema.org/draft-06/schema#","type":"object",
			"properties":{"n":{"type":"number","exclusiveMinimum":0}}}`,
			`{"n":0}`, `{"n":0.5}`, "exclusiveMinimum"},
		{"draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
			"properties":{"n":{"type":"integer"}},"required":["n"]}`,
			`{"n":"1"}`, `{"n":1}`, "want integer"},
		{"2019-09", `{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object",
			"properties":{"s":{"type":"string","maxLength":2}}}`,
			`{"s":"abc"}`, `{"s":"ab"}`, "maxLength"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d, err := schema.CompileDocument(json.RawMessage(tt.doc))
			if err != nil {
				t.Fatalf("CompileDocument: %v", err)
			}
			if err := d.Check([]byte(tt.good)); err != nil {
				t.Errorf("Check(%s) = %v, want it to conform", tt.good, err)
			}
			err = d.Check([]byte(tt.bad))
			var me *schema.MismatchError
			if !errors.As(err, &me) || len(me.Problems) != 1 || me.Problems[0].Path != "/"+tt.bad[2:3] ||
				!strings.Contains(me.Problems[0].Reason, tt.reason) {
				t.Errorf("Check(%s) = %v, want one problem at /%s naming %s", tt.bad, err, tt.bad[2:3], tt.reason)
			}
		})
	}
}

// TestDocumentRefusesWhatTheMetaSchemaRefuses: a document is checked
// against its draft's meta-schema, not only decoded into Go types: a type
// nobody defines or a negative length is refused, as ParseToolInput and
// Parse refuse them, rather than compiled into a validator that ignores
// them.
func TestDocumentRefusesWhatTheMetaSchemaRefuses(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		`{"type":"strng"}`,
		`{"type":"object","properties":{"a":{"type":"string","minLength":-1}}}`,
		`{"type":"array","items":{"type":"integer"},"maxItems":1.5}`,
		`{"type":"object","dependentRequired":{"a":[1]}}`,
	} {
		if _, err := schema.CompileDocument(json.RawMessage(doc)); err == nil || !strings.Contains(err.Error(), "compiling schema") {
			t.Errorf("CompileDocument(%s) = %v, want it refused", doc, err)
		}
	}
	raw := `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"strng"}}}}}`
	if _, err := schema.ParseToolInput(json.RawMessage(raw)); err == nil || !strings.Contains(err.Error(), "not a valid JSON Schema") {
		t.Errorf("ParseToolInput(%s) = %v, want it refused", raw, err)
	}
}

// TestPatternsNotRE2MatchAnything: servers write ECMA-262 look-arounds;
// a pattern Go's regexp cannot compile matches everything, in a tool's
// output schema and in a JSON argument, rather than refusing the whole
// document.
func TestPatternsNotRE2MatchAnything(t *testing.T) {
	t.Parallel()
	const lookahead = `"^(?=.*[0-9])[a-z0-9]+$"`
	d, err := schema.CompileDocument(json.RawMessage(`{"type":"object","properties":{
		"id":{"type":"string","pattern":` + lookahead + `},
		"n":{"type":"integer"}},
		"patternProperties":{"^(?!x)":{"type":"string"}}}`))
	if err != nil {
		t.Fatalf("CompileDocument: %v", err)
	}
	if err := d.Check([]byte(`{"id":"abc","other":"s"}`)); err != nil {
		t.Errorf("a value the look-arounds would refuse: %v, want it to conform", err)
	}
	if err := d.Check([]byte(`{"id":"abc","n":"x"}`)); err == nil {
		t.Error("the rest of the document is not enforced any more")
	}
	ti, err := schema.ParseToolInput(json.RawMessage(`{"type":"object","properties":{
		"q":{"type":"object","properties":{"id":{"type":"string","pattern":` + lookahead + `},"n":{"type":"integer"}}}}}`))
	if err != nil {
		t.Fatalf("ParseToolInput: %v", err)
	}
	q := ti.Property("q")
	if err := schema.ValidateValue(q, map[string]any{"id": "abc"}); err != nil {
		t.Errorf("ValidateValue: %v, want the pattern ignored", err)
	}
	if err := schema.ValidateValue(q, map[string]any{"id": "abc", "n": "x"}); err == nil || !strings.Contains(err.Error(), `"q": at /n:`) {
		t.Errorf("ValidateValue = %v, want the other member still checked, located", err)
	}
}
