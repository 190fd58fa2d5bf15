package ui

import (
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestViewFitsScreen: every view, at several sizes, is exactly the
// terminal's height and never wider than it (the renderer would wrap or
// scroll otherwise).
func TestViewFitsScreen(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, twoServers, withResources, withTemplates)
		d.open(formPrompt(t, "demo", 1, strings.Repeat("a very long question ", 30), nameSchema))
		sampleTraffic(d.m.bridge)
		d.waitInbox()
		views := []tea.KeyPressMsg{keyF1, {Code: tea.KeyF4}, keyF5, keyF6, {Code: tea.KeyF7}, keyF8, keyF9, keyF10}
		for _, size := range [][2]int{{120, 40}, {80, 24}, {40, 10}} {
			d.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			for _, k := range views {
				d.keys(k)
				if d.m.showHelp && k != keyF1 {
					d.keys(keyEsc) // close help; the next key switches view
					d.keys(k)
				}
				lines := strings.Split(d.m.View().Content, "\n")
				if len(lines) != size[1] {
					t.Errorf("%dx%d %s: %d lines", size[0], size[1], k, len(lines))
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w > size[0] {
						t.Errorf("%dx%d %s: line %d is %d wide: %q", size[0], size[1], k, i, w, ansi.Strip(l))
					}
				}
			}
			d.keys(keyEsc)
		}
	})
}

// TestTabBarFitsEveryFKey: at 80 columns (and 60) every tab's F-key and
// F1 help are on the bar; at 120 the names are whole.
func TestTabBarFitsEveryFKey(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		for _, w := range []int{60, 80, 120} {
			d := newDriver(t, Options{})
			d.send(tea.WindowSizeMsg{Width: w, Height: 24})
			bar := strings.SplitN(d.screen(), "\n", 2)[0]
			for _, k := range []string{"F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F1 help"} {
				if !strings.Contains(bar, k) {
					t.Errorf("width %d: the tab bar lacks %s: %q", w, k, bar)
				}
			}
			if ansi.StringWidth(bar) > w {
				t.Errorf("width %d: the bar is %d wide", w, ansi.StringWidth(bar))
			}
			if w == 120 && (!strings.Contains(bar, "F4 Questions") || !strings.Contains(bar, "F10 Prompts")) {
				t.Errorf("width 120: names not whole: %q", bar)
			}
		}
	})
}
