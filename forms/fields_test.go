package forms

import (
	"strings"
	"testing"
)

// one is a schema with the single property "v" (and "required" when req).
func one(prop string, req bool) string {
	r := ""
	if req {
		r = `,"required":["v"]`
	}
	return `{"type":"object","properties":{"v":` + prop + `}` + r + `}`
}

// TestFieldKinds fills one field of every kind and constraint through the
// keyboard and compares the exact content.
func TestFieldKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		schema string
		keys   func(d *driver)
		want   string
	}{
		{"string", one(`{"type":"string"}`, true), func(d *driver) { d.typeText("hello") }, `{"v":"hello"}`},
		{"string kept exactly", one(`{"type":"string"}`, false), func(d *driver) { d.typeText("  two  spaces ") }, `{"v":"  two  spaces "}`},
		{"string unicode", one(`{"type":"string","maxLength":3}`, false), func(d *driver) { d.typeText("日本語") }, `{"v":"日本語"}`},
		{"string optional empty is omitted", one(`{"type":"string"}`, false), func(*driver) {}, `{}`},
		{"string maxLength stops typing", one(`{"type":"string","maxLength":5}`, false), func(d *driver) { d.typeText("abcdefgh") }, `{"v":"abcde"}`},
		{"string default kept", one(`{"type":"string","default":"pre"}`, false), func(*driver) {}, `{"v":"pre"}`},
		{"string default cleared is omitted", one(`{"type":"string","default":"pre"}`, false), func(d *driver) { d.key("ctrl+u") }, `{}`},
		{"string minLength met", one(`{"type":"string","minLength":3}`, false), func(d *driver) { d.typeText("abc") }, `{"v":"abc"}`},
		{"email", one(`{"type":"string","format":"email"}`, false), func(d *driver) { d.typeText("a.b+c@example.org") }, `{"v":"a.b+c@example.org"}`},
		{"uri", one(`{"type":"string","format":"uri"}`, false), func(d *driver) { d.typeText("mailto:x@y.z") }, `{"v":"mailto:x@y.z"}`},
		{"date leap day", one(`{"type":"string","format":"date"}`, false), func(d *driver) { d.typeText("2024-02-29") }, `{"v":"2024-02-29"}`},
		{"date-time with offset", one(`{"type":"string","format":"date-time"}`, false), func(d *driver) { d.typeText("2025-03-01T14:30:00.5+02:00") }, `{"v":"2025-03-01T14:30:00.5+02:00"}`},
		{"pattern", one(`{"type":"string","pattern":"^[a-z]+$"}`, false), func(d *driver) { d.typeText("abc") }, `{"v":"abc"}`},
		{"number", one(`{"type":"number"}`, true), func(d *driver) { d.typeText("3.25") }, `{"v":3.25}`},
		{"number exponent", one(`{"type":"number"}`, true), func(d *driver) { d.typeText("1e3") }, `{"v":1000}`},
		{"number leading dot and plus", one(`{"type":"number"}`, true), func(d *driver) { d.typeText("+.5") }, `{"v":0.5}`},
		{"number spaces trimmed", one(`{"type":"number"}`, true), func(d *driver) { d.typeText(" 7 ") }, `{"v":7}`},
		{"number at bounds", one(`{"type":"number","minimum":-1.5,"maximum":2}`, true), func(d *driver) { d.typeText("-1.5") }, `{"v":-1.5}`},
		{"number default", one(`{"type":"number","default":0.1}`, false), func(*driver) {}, `{"v":0.1}`},
		{"number optional empty is omitted", one(`{"type":"number","default":0.1}`, false), func(d *driver) { d.key("ctrl+u") }, `{}`},
		{"integer", one(`{"type":"integer"}`, true), func(d *driver) { d.typeText("-42") }, `{"v":-42}`},
		{"integer plus", one(`{"type":"integer"}`, true), func(d *driver) { d.typeText("+17") }, `{"v":17}`},
		{"integer written as 42.0", one(`{"type":"integer"}`, true), func(d *driver) { d.typeText("42.0") }, `{"v":42}`},
		{"integer exponent", one(`{"type":"integer"}`, true), func(d *driver) { d.typeText("4.2e1") }, `{"v":42}`},
		{"integer max safe", one(`{"type":"integer"}`, true), func(d *driver) { d.typeText("9007199254740991") }, `{"v":9007199254740991}`},
		{"integer min safe", one(`{"type":"integer"}`, true), func(d *driver) { d.typeText("-9007199254740991") }, `{"v":-9007199254740991}`},
		{"integer default", one(`{"type":"integer","default":30}`, false), func(*driver) {}, `{"v":30}`},
		{"boolean required is a confirm", one(`{"type":"boolean"}`, true), func(d *driver) { d.key("left") }, `{"v":true}`},
		{"boolean required untouched is false", one(`{"type":"boolean"}`, true), func(*driver) {}, `{"v":false}`},
		{"boolean default true", one(`{"type":"boolean","default":true}`, false), func(*driver) {}, `{"v":true}`},
		{"boolean default toggled", one(`{"type":"boolean","default":true}`, false), func(d *driver) { d.key("right") }, `{"v":false}`},
		{"boolean optional untouched is omitted", one(`{"type":"boolean"}`, false), func(*driver) {}, `{}`},
		{"boolean optional yes", one(`{"type":"boolean"}`, false), func(d *driver) { d.key("right") }, `{"v":true}`},
		{"boolean optional no", one(`{"type":"boolean"}`, false), func(d *driver) { d.key("right", "right") }, `{"v":false}`},
		{"enum optional untouched is omitted", one(`{"type":"string","enum":["a","b"]}`, false), func(*driver) {}, `{}`},
		{"enum optional pick", one(`{"type":"string","enum":["a","b"]}`, false), func(d *driver) { d.key("down", "down") }, `{"v":"b"}`},
		{"enum required pick", one(`{"type":"string","enum":["a","b"]}`, true), func(d *driver) { d.key("down") }, `{"v":"a"}`},
		{"enum default", one(`{"type":"string","enum":["a","b"],"default":"b"}`, true), func(*driver) {}, `{"v":"b"}`},
		{"enum empty-string value", one(`{"type":"string","enum":["","x"]}`, false), func(d *driver) { d.key("down") }, `{"v":""}`},
		{"titled enum sends const", one(`{"type":"string","oneOf":[{"const":"c1","title":"One"},{"const":"c2","title":"Two"}]}`, true), func(d *driver) { d.key("down", "down") }, `{"v":"c2"}`},
		{"legacy enumNames sends value", one(`{"type":"string","enum":["p1","p2"],"enumNames":["Cats","Dogs"]}`, true), func(d *driver) { d.key("down") }, `{"v":"p1"}`},
		{"multi optional untouched is omitted", one(`{"type":"array","items":{"type":"string","enum":["a","b","c"]}}`, false), func(*driver) {}, `{}`},
		{"multi picks in option order", one(`{"type":"array","items":{"type":"string","enum":["a","b","c"]}}`, false), func(d *driver) { d.key("down", "down", "x", "up", "up", "x") }, `{"v":["a","c"]}`},
		{"multi limit is maxItems", one(`{"type":"array","maxItems":2,"items":{"type":"string","enum":["a","b","c"]}}`, false), func(d *driver) { d.key("x", "down", "x", "down", "x") }, `{"v":["a","b"]}`},
		{"multi default", one(`{"type":"array","items":{"anyOf":[{"const":"f1","title":"Tuna"},{"const":"f2","title":"Salmon"}]},"default":["f2"]}`, false), func(*driver) {}, `{"v":["f2"]}`},
		{"multi default cursor starts on it", one(`{"type":"array","items":{"type":"string","enum":["a","b","c"]},"default":["b"]}`, false), func(d *driver) { d.key("down", "x") }, `{"v":["b","c"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := New(parse(t, tt.schema), Options{})
			d := drive(t, f, 80)
			tt.keys(d)
			d.submit()
			wantJSON(t, contentJSON(t, f), tt.want)
		})
	}
}

// TestRefusals types a wrong answer and presses Enter: the form stays on
// the field, shows why, and Content refuses too.
func TestRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		schema string
		keys   func(d *driver)
		shows  string
	}{
		{"required string empty", one(`{"type":"string","title":"Name"}`, true), func(*driver) {}, "Name is required"},
		{"bad email", one(`{"type":"string","format":"email"}`, false), func(d *driver) { d.typeText("ada.example.com") }, "must be an email address"},
		{"email with display name", one(`{"type":"string","format":"email"}`, false), func(d *driver) { d.typeText("Ada <ada@example.com>") }, "must be an email address"},
		{"uri without scheme", one(`{"type":"string","format":"uri"}`, false), func(d *driver) { d.typeText("example.com/x") }, "with a scheme"},
		{"date that does not exist", one(`{"type":"string","format":"date"}`, false), func(d *driver) { d.typeText("2025-02-30") }, "February 2025 has 28 days"},
		{"date with month 13", one(`{"type":"string","format":"date"}`, false), func(d *driver) { d.typeText("2025-13-01") }, "no month 13"},
		{"date in the wrong shape", one(`{"type":"string","format":"date"}`, false), func(d *driver) { d.typeText("01/02/2025") }, "YYYY-MM-DD"},
		{"date-time without zone", one(`{"type":"string","format":"date-time"}`, false), func(d *driver) { d.typeText("2025-03-01T14:30:00") }, "time zone"},
		{"too short", one(`{"type":"string","minLength":3}`, false), func(d *driver) { d.typeText("ab") }, "at least 3 characters"},
		{"pattern", one(`{"type":"string","pattern":"^[a-z]+$"}`, false), func(d *driver) { d.typeText("ABC") }, "must match the pattern"},
		{"integer with a fraction", one(`{"type":"integer"}`, false), func(d *driver) { d.typeText("2.5") }, "whole number"},
		{"integer tiny fraction not rounded", one(`{"type":"integer"}`, false), func(d *driver) { d.typeText("4.0000000000000000001") }, "whole number"},
		{"integer beyond 2^53", one(`{"type":"integer"}`, false), func(d *driver) { d.typeText("9007199254740993") }, "9007199254740991"},
		{"integer not a number", one(`{"type":"integer"}`, false), func(d *driver) { d.typeText("twelve") }, "not a number"},
		{"integer above maximum", one(`{"type":"integer","minimum":1,"maximum":100}`, false), func(d *driver) { d.typeText("101") }, "must be at most 100"},
		{"number below minimum", one(`{"type":"number","minimum":0}`, false), func(d *driver) { d.typeText("-0.1") }, "must be at least 0"},
		{"number with too many digits", one(`{"type":"number"}`, false), func(d *driver) { d.typeText("9007199254740993") }, "would become 9007199254740992"},
		{"number hex", one(`{"type":"number"}`, false), func(d *driver) { d.typeText("0x10") }, "not a number"},
		{"number infinity", one(`{"type":"number"}`, false), func(d *driver) { d.typeText("Inf") }, "not a number"},
		{"number overflow", one(`{"type":"number"}`, false), func(d *driver) { d.typeText("1e999") }, "not a finite number"},
		{"required enum left on choose", one(`{"type":"string","title":"Plan","enum":["a","b"]}`, true), func(*driver) {}, "Plan is required"},
		{"too few multi-select items", one(`{"type":"array","minItems":2,"items":{"type":"string","enum":["a","b","c"]}}`, false), func(d *driver) { d.key("x") }, "choose at least 2"},
		{"required multi-select empty", one(`{"type":"array","title":"Tags","items":{"type":"string","enum":["a","b"]}}`, true), func(*driver) {}, "Tags is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := New(parse(t, tt.schema), Options{})
			d := drive(t, f, 100)
			tt.keys(d)
			d.key("enter")
			if f.Submitted() {
				t.Fatalf("submitted; content %v", f.Huh().Get("v"))
			}
			if got := d.focused(); got != "v" {
				t.Fatalf("focus moved to %q", got)
			}
			d.mustShow(tt.shows)
			if c, err := f.Content(); err == nil {
				t.Fatalf("Content accepted %v", c)
			} else if !strings.Contains(err.Error(), tt.shows) {
				t.Errorf("Content error %q does not say %q", err, tt.shows)
			}
		})
	}
}

// TestConfirmButtonsUnderTheLabel (issue 26): a boolean's Yes/No sit at
// the start of the line under its label, not centred under a long
// description (40 columns away at 80).
func TestConfirmButtonsUnderTheLabel(t *testing.T) {
	t.Parallel()
	f := NewToolArgs(parseTool(t, `{"type":"object","required":["dryRun"],"properties":{"dryRun":{"type":"boolean","title":"Dry run",
		"description":"Only say what the deployment would change, touching nothing: no service restarts and no writes"}}}`), Options{})
	d := drive(t, f, 80)
	for l := range strings.SplitSeq(d.screen(), "\n") {
		if i := strings.Index(l, "Yes"); i >= 0 {
			if col := len([]rune(l[:i])); col > 4 {
				t.Fatalf("Yes at column %d, want under the label:\n%s", col, d.screen())
			}
			return
		}
	}
	t.Fatalf("no Yes on screen:\n%s", d.screen())
}
