package forms

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/elicit-dev/elicit/forms/schema"
)

// fixture parses one of the schema package's test schemas.
func fixture(t testing.TB, name string) *schema.Schema {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("schema", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.Parse(raw, schema.Subset2025_11_25)
	if err != nil {
		t.Fatalf("Parse %s: %v", name, err)
	}
	return s
}

// parse parses a schema written in the test.
func parse(t testing.TB, raw string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse(json.RawMessage(raw), schema.Subset2025_11_25)
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, raw)
	}
	return s
}

// contentJSON is Content as compact JSON with sorted keys.
func contentJSON(t testing.TB, f *Form) string {
	t.Helper()
	c, err := f.Content()
	if err != nil {
		t.Fatalf("Content: %v", err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// submit presses Enter until the form is submitted, failing if it sticks.
func (d *driver) submit() {
	d.t.Helper()
	for range 100 {
		if d.f.Submitted() {
			return
		}
		d.key("enter")
	}
	d.t.Fatalf("form not submitted; focus on %q:\n%s", d.focused(), d.screen())
}

// wantJSON compares JSON texts semantically, showing a diff.
func wantJSON(t testing.TB, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("got is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want is not JSON: %v: %s", err, want)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("content (-want +got):\n%s\ngot %s", diff, got)
	}
}

func TestEverythingWithDefaults(t *testing.T) {
	t.Parallel()
	f := New(fixture(t, "everything.json"), Options{Message: "Please provide inputs for the following fields:"})
	d := drive(t, f, 80)
	d.mustShow("Please provide inputs for the following fields:", "String *")
	if got := d.focused(); got != "name" {
		t.Fatalf("focus starts on %q, want name", got)
	}
	d.key("enter") // name is required
	d.mustShow("String is required")
	if got := d.focused(); got != "name" {
		t.Fatalf("focus left the empty required field for %q", got)
	}
	d.typeText("Ada")
	d.submit()
	got := contentJSON(t, f)
	// check, email, homepage and birthdate have no default and were left
	// empty: they are omitted, never sent as "" or false.
	const want = `{"name":"Ada","firstLine":"It was a dark and stormy night.","integer":42,"number":3.14,
		"untitledSingleSelectEnum":"Monica","untitledMultipleSelectEnum":["Guitar"],
		"titledSingleSelectEnum":"hero-1","titledMultipleSelectEnum":["fish-1"],"legacyTitledEnum":"pet-1"}`
	wantJSON(t, got, want)
	c, _ := f.Content()
	if _, ok := c["integer"].(int64); !ok {
		t.Errorf("integer is %T, want int64", c["integer"])
	}
	if _, ok := c["untitledMultipleSelectEnum"].([]string); !ok {
		t.Errorf("multi-select is %T, want []string", c["untitledMultipleSelectEnum"])
	}
	if f.View() != "" {
		t.Error("a submitted form still renders")
	}
}

func TestEverythingTyped(t *testing.T) {
	t.Parallel()
	f := New(fixture(t, "everything.json"), Options{})
	d := drive(t, f, 80)
	steps := []struct {
		field string
		do    func()
	}{
		{"name", func() { d.typeText("Ada Lovelace") }},
		{"check", func() { d.key("right") }}, // (none) → Yes
		{"firstLine", func() { d.fill("Call me Ishmael.") }},
		{"email", func() { d.typeText("ada@example.com") }},
		{"homepage", func() { d.typeText("https://ada.example/notes?x=1") }},
		{"birthdate", func() { d.typeText("1815-12-10") }},
		{"integer", func() { d.fill("7") }},
		{"number", func() { d.fill("0.25e1") }},
		{"untitledSingleSelectEnum", func() { d.key("down", "down") }},                  // Monica → Joey
		{"untitledMultipleSelectEnum", func() { d.key("down", "x", "x", "down", "x") }}, // Piano on, off; Violin on
		{"titledSingleSelectEnum", func() { d.key("down", "down") }},                    // hero-1 → hero-3
		{"titledMultipleSelectEnum", func() { d.key("x", "down", "x", "down", "x") }},   // Tuna off, Salmon, Trout on
		{"legacyTitledEnum", func() { d.key("up", "up") }},                              // pet-1 → (none) → pet-5, wrapping
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
	const want = `{"name":"Ada Lovelace","check":true,"firstLine":"Call me Ishmael.","email":"ada@example.com",
		"homepage":"https://ada.example/notes?x=1","birthdate":"1815-12-10","integer":7,"number":2.5,
		"untitledSingleSelectEnum":"Joey","untitledMultipleSelectEnum":["Guitar","Violin"],
		"titledSingleSelectEnum":"hero-3","titledMultipleSelectEnum":["fish-2","fish-3"],"legacyTitledEnum":"pet-5"}`
	wantJSON(t, contentJSON(t, f), want)
}

// TestSEP1034Defaults is the conformance scenario
// elicitation-sep1034-client-defaults: every field has a default and the
// person submits without touching any; every default must be sent, typed.
func TestSEP1034Defaults(t *testing.T) {
	t.Parallel()
	f := New(fixture(t, "sep1034-defaults.json"), Options{Message: "Test client default value handling"})
	const want = `{"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}`
	wantJSON(t, contentJSON(t, f), want) // before any key
	d := drive(t, f, 80)
	d.submit()
	wantJSON(t, contentJSON(t, f), want)
	c, _ := f.Content()
	if _, ok := c["age"].(int64); !ok {
		t.Errorf("age is %T, want int64", c["age"])
	}
	if _, ok := c["score"].(float64); !ok {
		t.Errorf("score is %T, want float64", c["score"])
	}
}

func TestEmptySchema(t *testing.T) {
	t.Parallel()
	f := New(parse(t, `{"type":"object","properties":{}}`), Options{Message: "Proceed?"})
	d := drive(t, f, 60)
	d.mustShow("Proceed?", "Nothing to fill in.", "Submit")
	d.key("enter")
	if !f.Submitted() {
		t.Fatalf("not submitted:\n%s", d.screen())
	}
	wantJSON(t, contentJSON(t, f), `{}`)
}

// TestRefusedSubmitRebuilds covers a rule no single field can check: the
// whole-schema check refuses, the form stays open with the reason, the
// values survive, and fixing the answer submits.
func TestRefusedSubmitRebuilds(t *testing.T) {
	t.Parallel()
	s := parse(t, `{"type":"object","properties":{
		"a":{"type":"string","title":"A"},"b":{"type":"string","title":"B"}},
		"dependentRequired":{"a":["b"]}}`)
	f := New(s, Options{Message: "Both or neither"})
	d := drive(t, f, 80)
	d.typeText("x")
	d.key("enter", "enter")
	if f.Submitted() {
		t.Fatal("content that breaks dependentRequired was submitted")
	}
	d.mustShow("Not sent:", "Both or neither")
	if _, err := f.Content(); err == nil {
		t.Fatal("Content returned invalid content")
	}
	if got := d.focused(); got != "a" {
		t.Fatalf("rebuilt form focuses %q, want a", got)
	}
	d.key("enter") // a keeps "x"
	d.typeText("y")
	d.key("enter")
	if !f.Submitted() {
		t.Fatalf("not submitted after the fix:\n%s", d.screen())
	}
	wantJSON(t, contentJSON(t, f), `{"a":"x","b":"y"}`)
}

func TestFiltering(t *testing.T) {
	t.Parallel()
	var opts []string
	for _, c := range "abcdefghijkl" {
		opts = append(opts, `"opt-`+string(c)+`"`)
	}
	s := parse(t, `{"type":"object","properties":{"pick":{"type":"string","enum":[`+strings.Join(opts, ",")+`]}}}`)
	f := New(s, Options{})
	d := drive(t, f, 80)
	d.mustShow("/ to filter")
	if f.Filtering() {
		t.Fatal("filtering before /")
	}
	d.key("/")
	if !f.Filtering() {
		t.Fatal("not filtering after /")
	}
	d.typeText("opt-k")
	d.key("esc")
	if f.Filtering() {
		t.Fatal("still filtering after esc")
	}
	d.key("enter")
	if !f.Submitted() {
		t.Fatalf("not submitted:\n%s", d.screen())
	}
	wantJSON(t, contentJSON(t, f), `{"pick":"opt-k"}`)
}

func TestSetSizeNarrows(t *testing.T) {
	t.Parallel()
	f := New(fixture(t, "everything.json"), Options{Message: strings.Repeat("A long message that wraps. ", 6)})
	d := drive(t, f, 100)
	d.run(f.SetSize(40, 30))
	for i, line := range strings.Split(d.screen(), "\n") {
		if w := len([]rune(line)); w > 40 {
			t.Fatalf("line %d is %d cells wide at width 40: %q", i, w, line)
		}
	}
	if h := strings.Count(d.screen(), "\n") + 1; h > 30 {
		t.Fatalf("view is %d lines high at height 30", h)
	}
	d.mustShow("A long message that wraps.")
}
