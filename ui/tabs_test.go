package ui

import (
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"
)

// TestTabsComeFromTheRegistry: every registry entry has its tab, its
// F-key and its help line, so a view added there needs nothing else.
func TestTabsComeFromTheRegistry(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		seen := map[string]string{}
		for i, tb := range d.m.tabs {
			for _, k := range tb.bind.Keys() {
				if other, dup := seen[k]; dup {
					t.Errorf("%s and %s both take %s", other, tb.name, k)
				}
				seen[k] = tb.name
			}
			// Leave the tab first, so that its key does not show its again.
			d.m.setView(viewID((i + 1) % len(d.m.tabs)))
			k := tea.KeyPressMsg{Code: tea.KeyF1 + rune(tb.fkey-1)}
			if tb.fkey == 0 { // a tab without an F-key: its alt+letter
				k = tea.KeyPressMsg{Code: rune(strings.TrimPrefix(tb.alt[0], "alt+")[0]), Mod: tea.ModAlt}
			}
			d.send(k)
			if got := d.m.viewName(); got != tb.name {
				t.Errorf("%s shows %s, want %s", tb.keyLabel(), got, tb.name)
			}
			tabs := strings.SplitN(d.screen(), "\n", 2)[0]
			if label := tb.keyLabel() + " " + tb.name; !strings.Contains(tabs, label) {
				t.Errorf("tab bar %q lacks %q", tabs, label)
			}
		}
		d.keys(keyF1)
		help := d.screen()
		for _, tb := range d.m.tabs {
			if h := tb.bind.Help(); !strings.Contains(help, h.Key) || !strings.Contains(help, h.Desc) {
				t.Errorf("help lacks %q %q", h.Key, h.Desc)
			}
		}
	})
}
