package forms

import (
	"encoding/json"
	"strings"
	"testing"

	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// TestServerTextIsSanitized puts terminal attacks in every piece of server
// text a form shows and checks none reaches the rendered view raw.
func TestServerTextIsSanitized(t *testing.T) {
	t.Parallel()
	const (
		clip  = "\x1b]52;c;cm0gLXJmIH4=\a"            // OSC 52 clipboard write
		link  = "\x1b]8;;https://evil.example\x1b\\x" // OSC 8 hyperlink
		clear = "\x1b[2J\x1b[H"                       // clear screen
		bidi  = "\u202e"                              // right-to-left override
		c1    = "\u009b31m"                           // 8-bit CSI
	)
	attack := clip + link + clear + bidi + c1 + "\r\b"
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	raw := `{"type":"object","properties":{
		"a":{"type":"string","title":` + str("Title"+attack) + `,"description":` + str("Desc"+attack) + `},
		"b":{"type":"string","oneOf":[{"const":"x","title":` + str("Label"+attack) + `}]},
		"c":{"type":"array","items":{"anyOf":[{"const":"y","title":` + str("Multi"+attack) + `}]}}}}`
	f := New(parse(t, raw), Options{Message: "Message" + attack})
	d := drive(t, f, 200)
	view := f.View()
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\a", "\b", "\r", bidi, "\u009b", "\x1b\\"} {
		if strings.Contains(view, bad) {
			t.Errorf("view contains %q", bad)
		}
	}
	d.mustShow("Message␛]52;c;", "Title␛]52;c;", "Desc␛]52;c;", "Label␛]52;c;", "<U+202E>", "<U+009B>31m")
	d.key("enter", "down") // to b, onto the option
	d.mustShow("Label␛]52;c;")
	d.key("enter")
	d.mustShow("Multi␛]52;c;")
}

// TestShowcase is a golden render of a form with every field kind: width
// 80, the default theme, dark background, colours stripped. Regenerate
// with go test ./forms -run TestShowcase -update.
func TestShowcase(t *testing.T) {
	t.Parallel()
	for _, width := range []int{80} {
		t.Run("W80", func(t *testing.T) {
			t.Parallel()
			t.Run("Dark", func(t *testing.T) {
				t.Parallel()
				f := New(fixture(t, "everything.json"), Options{
					Message: "Please provide inputs for the following fields:",
					Theme:   huh.ThemeFunc(huh.ThemeCharm),
				})
				d := drive(t, f, width)
				d.key("enter") // a refusal, to show the error line
				golden.RequireEqual(t, trimLines(d.screen()))
			})
		})
	}
}

// trimLines drops trailing spaces, which editors strip from golden files.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestSetTheme restyles a live form: huh keeps a field's first theme, so
// this works only through the form's theme indirection.
func TestSetTheme(t *testing.T) {
	t.Parallel()
	f := New(fixture(t, "sep1034-defaults.json"), Options{Theme: huh.ThemeFunc(huh.ThemeCharm)})
	d := drive(t, f, 80)
	before := f.View()
	d.run(f.SetTheme(huh.ThemeFunc(huh.ThemeDracula)))
	after := f.View()
	if before == after {
		t.Fatal("SetTheme did not change the rendering")
	}
	if ansi.Strip(before) != ansi.Strip(after) {
		t.Error("SetTheme changed the text, not only the styles")
	}
	d.submit() // still works
}
