package ui

import (
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// TestHelpNamesEveryBinding walks every binding there is (each field of
// the keyMap, by reflection, and each tab's key) and fails when no help
// line stands for it, or when a line does not name one of its keys; then
// it scrolls through the help at 80×24 and 120×40 (two columns) and
// fails when a line is never on screen whole.
func TestHelpNamesEveryBinding(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, demoLike)
		secs := d.m.keys.helpSections(d.m.tabBindings())
		covered := map[*key.Binding]bool{}
		for _, sec := range secs {
			for _, l := range sec.lines {
				if len(l.of) == 0 {
					t.Errorf("%s: the line %q stands for no binding", sec.title, l.key)
				}
				for _, b := range l.of {
					covered[b] = true
					for _, k := range b.Keys() {
						if !labelNames(l.key, k) {
							t.Errorf("%s: the line %q %q does not name its key %q", sec.title, l.key, l.desc, k)
						}
					}
				}
			}
		}
		km := reflect.ValueOf(&d.m.keys).Elem()
		for i := range km.NumField() {
			f := km.Type().Field(i)
			if f.Type != reflect.TypeFor[key.Binding]() {
				t.Errorf("keyMap.%s is a %s: the walk only knows key.Binding", f.Name, f.Type)
				continue
			}
			if b := (*key.Binding)(km.Field(i).Addr().UnsafePointer()); !covered[b] {
				t.Errorf("the help has no line for keyMap.%s (%q)", f.Name, b.Keys())
			}
		}
		for i := range d.m.tabs {
			if !covered[&d.m.tabs[i].bind] {
				t.Errorf("the help has no line for the %s tab's %q", d.m.tabs[i].name, d.m.tabs[i].bind.Keys())
			}
		}

		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			d.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			d.keys(keyF1)
			var rows []string
			for range 20 {
				rows = append(rows, strings.Split(d.screen(), "\n")...)
				d.keys(tea.KeyPressMsg{Code: tea.KeyPgDown})
			}
			if !d.m.showHelp {
				t.Fatal("scrolling closed the help")
			}
			for _, sec := range secs {
				for _, l := range sec.lines {
					if !onOneRow(rows, "  "+l.key+" ", l.desc) {
						t.Errorf("at %dx%d the help never shows %s's %q %q", size[0], size[1], sec.title, l.key, l.desc)
					}
				}
			}
			d.keys(key1('x'))
		}
	})
}

func onOneRow(rows []string, parts ...string) bool {
	for _, r := range rows {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(r, p)
		}
		if all {
			return true
		}
	}
	return false
}

// labelNames reports whether a help line's key text names key k (as
// key.Binding spells it: "pgdown", "up", "alt+3", "f5").
func labelNames(label, k string) bool {
	shown := map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→", "pgdown": "pgdn"}
	if s, ok := shown[k]; ok {
		k = s
	}
	if len(k) > 1 && k[0] == 'f' && k[1] >= '0' && k[1] <= '9' {
		k = "F" + k[1:]
	}
	if len(k) == 5 && strings.HasPrefix(k, "alt+") && k[4] >= '1' && k[4] <= '9' {
		return strings.Contains(label, "alt+1…9")
	}
	for _, tok := range strings.FieldsFunc(label, func(r rune) bool { return r == ' ' || r == ',' || r == '·' }) {
		parts := []string{tok}
		if tok != "/" {
			parts = strings.Split(tok, "/")
		}
		for i, p := range parts {
			// "ctrl+n/p" names ctrl+p too.
			if i > 0 && len(p) == 1 && strings.HasPrefix(parts[0], "ctrl+") {
				p = "ctrl+" + p
			}
			if p == k {
				return true
			}
			// "↑↓" names both arrows.
			if strings.ContainsAny(p, "↑↓←→") && utf8.RuneCountInString(k) == 1 && strings.Contains(p, k) {
				return true
			}
		}
	}
	return false
}

// TestTabKeysShadowNoBinding: a view's key (an F-key or alt key of the
// registry) works everywhere, so one that is also a view's own binding
// makes that binding unreachable (the Skills view once took alt+k, which
// kills a terminal in the agent view).
func TestTabKeysShadowNoBinding(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, demoLike)
		tabKeys := map[string]bool{}
		for _, b := range d.m.tabBindings() {
			for _, k := range b.Keys() {
				if tabKeys[k] {
					t.Errorf("two views take %q", k)
				}
				tabKeys[k] = true
			}
		}
		km := reflect.ValueOf(&d.m.keys).Elem()
		for i := range km.NumField() {
			b, ok := km.Field(i).Interface().(key.Binding)
			if !ok {
				continue
			}
			for _, k := range b.Keys() {
				if tabKeys[k] {
					t.Errorf("keyMap.%s's %q is also a view's key: it can never reach the binding", km.Type().Field(i).Name, k)
				}
			}
		}
	})
}
