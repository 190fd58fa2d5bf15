package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
)

// fakeRoots is the fake engine's roots: per server, and every SetRoots.
type fakeRoots struct {
	info   map[string]client.RootsInfo
	sets   []string // "server name=uri,…"
	setErr map[string]error
}

func (f *fakeEngine) Roots(server string) (client.RootsInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	info := f.roots.info[server]
	info.Roots = append([]client.Root(nil), info.Roots...)
	return info, nil
}

func (f *fakeEngine) SetRoots(_ context.Context, server string, roots []client.Root) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var parts []string
	for _, r := range roots {
		parts = append(parts, r.Name+"="+r.URI)
	}
	f.roots.sets = append(f.roots.sets, server+" "+strings.Join(parts, ","))
	if f.roots.info == nil {
		f.roots.info = map[string]client.RootsInfo{}
	}
	info := f.roots.info[server]
	info.Roots = append([]client.Root(nil), roots...)
	f.roots.info[server] = info
	return f.roots.setErr[server]
}

func (f *fakeEngine) rootSets() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.roots.sets...)
}

var keyAltR = tea.KeyPressMsg{Code: 'r', Mod: tea.ModAlt}

func runeKey(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

func uriOf(p string) string { return "file://" + filepath.ToSlash(p) }

func mkdir(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRootsViewEdits: alt+r shows the shown server's roots and how it is
// told of changes; a adds a path that exists (named after it), e renames
// the selected root, d removes it; each change reaches the engine as the
// whole new list, and the status bar says the server was told.
func TestRootsViewEdits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		a, b := mkdir(t, dir, "alpha"), mkdir(t, dir, "beta")
		d := newDriver(t, Options{}, func(f *fakeEngine) {
			f.roots.info = map[string]client.RootsInfo{"demo": {
				Roots:    []client.Root{{URI: uriOf(a), Name: "alpha"}, {URI: uriOf(filepath.Join(dir, "gone")), Name: "gone"}},
				Declared: true, ListChanged: true, Asked: 2, LastAsked: t0,
			}}
		})
		d.keys(keyAltR)
		if d.m.viewName() != "Roots" {
			t.Fatalf("alt+r shows %s", d.m.viewName())
		}
		scr := d.screen()
		for _, want := range []string{"Roots of demo", "listChanged: changes are sent", "asked 2×", "alpha  " + uriOf(a), "gone   " + uriOf(filepath.Join(dir, "gone")) + "  ⚠ not found"} {
			if !strings.Contains(scr, want) {
				t.Errorf("screen lacks %q:\n%s", want, scr)
			}
		}

		d.keys(runeKey('a'))
		if !d.m.typing() {
			t.Fatal("the add line does not take the keys")
		}
		d.typeText(b + "?") // ? is text here, not help
		if d.m.showHelp || !strings.Contains(d.screen(), "add a root to demo: "+b+"?▏") {
			t.Fatalf("typing:\n%s", d.screen())
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyBackspace})
		d.keys(tea.KeyPressMsg{Code: tea.KeyEnter})
		want := "demo alpha=" + uriOf(a) + ",gone=" + uriOf(filepath.Join(dir, "gone")) + ",beta=" + uriOf(b)
		if sets := d.eng.rootSets(); len(sets) != 1 || sets[0] != want {
			t.Fatalf("SetRoots %q, want %q", sets, want)
		}
		if d.m.typing() || !strings.Contains(d.m.notice, "added "+b+": demo told") {
			t.Errorf("after add: typing %v, notice %q", d.m.typing(), d.m.notice)
		}
		if !strings.Contains(d.screen(), "beta   "+uriOf(b)) {
			t.Errorf("the new root is not listed:\n%s", d.screen())
		}

		// Rename the third root, then remove the second.
		d.keys(runeKey('j'), runeKey('j'), runeKey('e'))
		if !strings.Contains(d.screen(), "name: beta▏") {
			t.Fatalf("rename line:\n%s", d.screen())
		}
		d.keys(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
		d.typeText("Beta root")
		d.keys(tea.KeyPressMsg{Code: tea.KeyEnter})
		d.keys(runeKey('k'), runeKey('d'))
		sets := d.eng.rootSets()
		if len(sets) != 3 || !strings.HasSuffix(sets[1], ",Beta root="+uriOf(b)) ||
			sets[2] != "demo alpha="+uriOf(a)+",Beta root="+uriOf(b) {
			t.Errorf("SetRoots after rename and remove: %q", sets)
		}
		if !strings.Contains(d.m.notice, "removed "+filepath.Join(dir, "gone")) {
			t.Errorf("notice %q", d.m.notice)
		}
	})
}

// TestRootsViewRefusesMissing: a path that does not exist is not added:
// the line stays open saying so, and esc leaves it.
func TestRootsViewRefusesMissing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		d := newDriver(t, Options{}, func(f *fakeEngine) {
			f.roots.info = map[string]client.RootsInfo{"demo": {Declared: true, ListChanged: true}}
		})
		d.keys(keyF12, keyF12) // the server view, then again: roots
		if d.m.viewName() != "Roots" || !strings.Contains(d.screen(), "no roots: a adds one") {
			t.Errorf("empty list:\n%s", d.screen())
		}
		d.keys(runeKey('a'))
		d.typeText(filepath.Join(dir, "nope"))
		d.keys(tea.KeyPressMsg{Code: tea.KeyEnter})
		if len(d.eng.rootSets()) != 0 {
			t.Errorf("SetRoots called for a path that does not exist: %q", d.eng.rootSets())
		}
		if !d.m.typing() || !strings.Contains(d.screen(), "⚠ "+filepath.Join(dir, "nope")+" does not exist") {
			t.Errorf("no warning on the open line:\n%s", d.screen())
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyEscape})
		if d.m.typing() || strings.Contains(d.screen(), "add a root") {
			t.Errorf("esc did not close the line:\n%s", d.screen())
		}
	})
}

// TestRootsViewAddToEvery: A adds a root to every server; each one's fate
// is named: told, or kept because its session declared no roots, and s
// shows the other server's list.
func TestRootsViewAddToEvery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		a := mkdir(t, dir, "proj")
		d := newDriver(t, Options{}, func(f *fakeEngine) {
			f.servers = append(f.servers, ServerStatus{Name: "other", State: client.StateReady, Protocol: "2025-11-25"})
			f.roots.info = map[string]client.RootsInfo{"demo": {Declared: true, ListChanged: true}, "other": {}}
			f.roots.setErr = map[string]error{"other": fmt.Errorf("set roots on other: %w", client.ErrRootsNotDeclared)}
		})
		d.keys(keyAltR, runeKey('A'))
		d.typeText(a)
		d.keys(tea.KeyPressMsg{Code: tea.KeyEnter})
		if sets := d.eng.rootSets(); len(sets) != 2 || sets[0] != "demo proj="+uriOf(a) || sets[1] != "other proj="+uriOf(a) {
			t.Fatalf("SetRoots %q", sets)
		}
		if n := d.m.notice; !strings.Contains(n, "demo told") || !strings.Contains(n, "other kept; it declared no roots") {
			t.Errorf("notice %q", n)
		}
		d.keys(runeKey('s'))
		if scr := d.screen(); !strings.Contains(scr, "Roots of other") || !strings.Contains(scr, "not declared") || !strings.Contains(scr, "proj  "+uriOf(a)) {
			t.Errorf("the other server:\n%s", scr)
		}
	})
}
