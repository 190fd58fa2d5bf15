package themes_test

import (
	"regexp"
	"strings"
	"testing"

	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/themes"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLookupEveryName(t *testing.T) {
	t.Parallel()
	names := themes.Names()
	for _, want := range []string{"base16", "catppuccin", "charm", "dracula", "high-contrast"} {
		if !contains(names, want) {
			t.Errorf("Names() = %v, missing %q", names, want)
		}
	}
	for _, n := range names {
		th, err := themes.LookupEnv(n, env(nil))
		if err != nil {
			t.Fatalf("LookupEnv(%q): %v", n, err)
		}
		if th.Name != n {
			t.Errorf("theme %q has Name %q", n, th.Name)
		}
		mono, err := themes.LookupEnv(n, env(map[string]string{"NO_COLOR": "yes"}))
		if err != nil {
			t.Fatal(err)
		}
		for _, dark := range []bool{false, true} {
			s := th.Styles(dark)
			if s.IsDark != dark {
				t.Errorf("%s: Styles(%v).IsDark = %v", n, dark, s.IsDark)
			}
			// A coloured theme must draw differently from its colourless twin.
			if out, plain := s.Error.Render("x"), mono.Styles(dark).Error.Render("x"); out == plain {
				t.Errorf("%s dark=%v: Error style renders %q, same as without colour", n, dark, out)
			}
		}
	}
}

func TestLookupDefaultAndUnknown(t *testing.T) {
	t.Parallel()
	th, err := themes.LookupEnv(" ", env(nil))
	if err != nil || th.Name != "charm" {
		t.Fatalf("LookupEnv(\" \") = %v, %v; want charm", th, err)
	}
	if _, err := themes.LookupEnv("solarized-nope", env(nil)); err == nil ||
		!strings.Contains(err.Error(), "high-contrast") {
		t.Fatalf("unknown theme error = %v, want one that lists the names", err)
	}
}

func TestNoColorDrawsNoColour(t *testing.T) {
	t.Parallel()
	th, err := themes.LookupEnv("dracula", env(map[string]string{"NO_COLOR": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	if !th.NoColor() {
		t.Fatal("NO_COLOR=1 did not switch colour off")
	}
	for _, dark := range []bool{false, true} {
		s := th.Styles(dark)
		for name, st := range map[string]interface{ Render(...string) string }{
			"error": s.Error, "focused": s.Pane.Focused, "selected": s.List.Selected,
			"host": s.Pane.Host, "strip": s.Strip.Active, "tab": s.Tabs.Active,
		} {
			out := st.Render("x")
			if hasColour(out) {
				t.Errorf("dark=%v %s renders %q: colour despite NO_COLOR", dark, name, out)
			}
		}
		// Selection must stay visible without colour.
		if out := s.List.Selected.Render("x"); !strings.Contains(out, "7") {
			t.Errorf("selected row %q is not reversed without colour", out)
		}
		fs := th.Form.Theme(dark)
		if out := fs.Focused.Title.Render("x"); hasColour(out) {
			t.Errorf("form title %q has colour despite NO_COLOR", out)
		}
	}
}

func TestFormThemeIsCached(t *testing.T) {
	t.Parallel()
	th, err := themes.LookupEnv("catppuccin", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, dark := range []bool{false, true} {
		if a, b := th.Form.Theme(dark), th.Form.Theme(dark); a != b {
			t.Errorf("Form.Theme(%v) built new styles on the second call", dark)
		}
	}
	if th.Form.Theme(true) == th.Form.Theme(false) {
		t.Error("light and dark form styles are the same object")
	}
	// The theme drives a real huh form without trouble.
	var name string
	f := huh.NewForm(huh.NewGroup(huh.NewInput().Title("Name").Value(&name))).WithTheme(th.Form)
	f.Init()
	if v := f.View(); !strings.Contains(v, "Name") {
		t.Errorf("form view %q lacks its title", v)
	}
}

var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// hasColour reports whether s sets any colour: an SGR parameter other than
// reset and the plain attributes.
func hasColour(s string) bool {
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.Split(m[1], ";") {
			switch p {
			case "", "0", "1", "2", "3", "4", "7", "9", "22", "23", "24", "27", "29":
			default:
				return true
			}
		}
	}
	return false
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
