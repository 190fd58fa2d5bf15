package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestPagerWrapKeepsTheIndent (issue 26): a wrapped line's continuation
// lines start where its text does (tool details' description), or, in a
// "key   value" row, where its value does (a server's declared
// capabilities), not at column 0.
func TestPagerWrapKeepsTheIndent(t *testing.T) {
	t.Parallel()
	words := strings.Repeat("word ", 30) // 150 columns
	p, _ := testPager(t, "Description\n  "+words+"\n    key   "+words+"\n  - item "+words+"\nflush "+words, 40)
	section := ""
	for _, l := range p.lines {
		switch {
		case strings.HasPrefix(l, "Description"), l == "":
			continue
		case strings.HasPrefix(l, "    key"):
			section = "key"
			continue
		case strings.HasPrefix(l, "  - item"):
			section = "item"
			continue
		case strings.HasPrefix(l, "flush"):
			section = "flush"
			continue
		}
		want := map[string]string{"": "  ", "key": "          ", "item": "    "}[section] // a key/value row hangs at its value
		if section == "key" && strings.HasPrefix(l, want+" ") {
			t.Errorf("key row: line %q hangs past its value's column", l)
		}
		if !strings.HasPrefix(l, want+"word") || len(l) > 40 {
			t.Errorf("section %q: line %q, want it to start %q and fit 40", section, l, want)
		}
	}
}

// TestPagerWrapToggleFromDeepInALine: w keeps the text line that was on
// top, from anywhere in a wrapped line.
func TestPagerWrapToggleFromDeepInALine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("abcdefghij", 30) // 8 lines at 40
	p, km := testPager(t, "head\n"+long+"\n"+numbered(50), 40)
	const rows = 5
	for range 5 { // the 5th display line: inside the long line
		pkey(t, p, km, rows, tea.KeyPressMsg{Code: tea.KeyDown})
	}
	pkey(t, p, km, rows, key1('w'))
	if v := p.view(rows); !strings.HasPrefix(v, "abcdefghij") {
		t.Fatalf("unwrapped from inside the long line, the top is:\n%s", v)
	}
	pkey(t, p, km, rows, key1('w'))
	if v := p.view(rows); !strings.HasPrefix(v, "abcdefghij") {
		t.Fatalf("wrapped again, the top is:\n%s", v)
	}
}
