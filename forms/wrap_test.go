package forms

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
)

// TestLongChoicesAreWhole: a choice's label longer than the form is wide
// is shown whole, wrapped, in a select and in a multi select alike (huh's
// multi select drew one line per option and cut the rest at the edge of
// its window), and picking it still sends its value.
func TestLongChoicesAreWhole(t *testing.T) {
	t.Parallel()
	long := "a label that goes on past the width of a narrow tile, so that it must wrap onto a second and a third line, and ends with THE-END"
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	raw := `{"type":"object","properties":{
		"one":{"type":"string","title":"One","oneOf":[{"const":"x","title":` + str("Single "+long) + `},{"const":"y","title":"short"}]},
		"many":{"type":"array","title":"Many","items":{"anyOf":[{"const":"m","title":` + str("Multi "+long) + `},{"const":"n","title":"other"}]}}}}`
	f := New(parse(t, raw), Options{Message: "Pick"})
	d := drive(t, f, 50)
	whole := func(wants ...string) {
		t.Helper()
		// The focused field's border (┃) starts each of its lines.
		scr := d.screen()
		flat := strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) || r == '┃' {
				return -1
			}
			return r
		}, scr)
		for _, w := range wants {
			if !strings.Contains(flat, strings.ReplaceAll(w, " ", "")) {
				t.Fatalf("%q is not shown whole:\n%s", w, scr)
			}
		}
	}
	whole("Single "+long, "Multi "+long, "other")
	d.key("enter", "x") // to many, toggle its first choice
	whole("Multi "+long, "other")
	content, err := f.Content()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(content["many"]); string(got) != `["m"]` {
		t.Errorf("many = %s, want [\"m\"]", got)
	}
}
