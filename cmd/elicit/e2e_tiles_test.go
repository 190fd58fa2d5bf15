package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// screenTile is one tile read off a tmux screen: its number (in its top
// border), whether its border is the focused (thick) one, and its text.
type screenTile struct {
	num     int
	focused bool
	text    string
}

var tileTop = regexp.MustCompile(`[┏╭][━─] (\d+) `)

// readTiles finds the tiles on a screen by their numbered top borders
// and cuts each out by its columns, down to its bottom corner.
func readTiles(s string) []screenTile {
	lines := strings.Split(s, "\n")
	rows := make([][]rune, len(lines))
	for i, l := range lines {
		rows[i] = []rune(l) // every cell of these screens is one rune
	}
	var out []screenTile
	for y, row := range rows {
		line := string(row)
		for _, m := range tileTop.FindAllStringSubmatchIndex(line, -1) {
			x0 := len([]rune(line[:m[0]]))
			num, _ := strconv.Atoi(line[m[2]:m[3]])
			focused := row[x0] == '┏'
			right, bottom := '╮', '╰'
			if focused {
				right, bottom = '┓', '┗'
			}
			x1 := x0 + 1
			for x1 < len(row) && row[x1] != right {
				x1++
			}
			var b strings.Builder
			for yy := y + 1; yy < len(rows) && x0 < len(rows[yy]); yy++ {
				r := rows[yy]
				if r[x0] == bottom {
					break
				}
				b.WriteString(string(r[x0:min(x1+1, len(r))]) + "\n")
			}
			out = append(out, screenTile{num: num, focused: focused, text: b.String()})
		}
	}
	return out
}

var stormQ = regexp.MustCompile(`Storm question (\d) of 3`)
var demoKey = regexp.MustCompile(`demo-2025-11-25#\d+`)

// TestTUITiles runs a storm of three questions at 160×48: they are three
// live tiles at once; the second tile is answered first while the first
// stays open, then the first, then the third, each from its own tile, and
// the journal (F7) has the outcomes in the order they were given. At
// 80×24 the same questions are one pane at a time.
func TestTUITiles(t *testing.T) {
	dir := t.TempDir()
	tm := newTmux(t, dir, "demo", "--protocol", "2025-11-25")
	tm.run("resize-window", "-x", "160", "-y", "48")
	tm.waitText("demo-2025-11-25 ready 2025-11-25")
	tm.callTool("storm")
	tm.waitText("arguments for storm")
	tm.press("BSpace", "BSpace")
	tm.typeText("3")
	tm.press("Enter")
	tm.question("Storm question")
	s := tm.waitFor("three tiles", func(s string) bool { return len(readTiles(s)) == 3 && strings.Count(s, "Storm question") == 3 })
	if !strings.Contains(s, "1–3 in tiles") {
		t.Errorf("the strip should say the three are in tiles:\n%s", s)
	}
	tiles := readTiles(s)
	q := make([]string, 3)   // question number in tile i
	key := make([]string, 3) // its key, as the journal names it
	for i, tl := range tiles {
		if tl.num != i+1 {
			t.Fatalf("tile %d is numbered %d:\n%s", i+1, tl.num, s)
		}
		m, k := stormQ.FindStringSubmatch(tl.text), demoKey.FindString(tl.text)
		if m == nil || k == "" {
			t.Fatalf("tile %d shows no storm question or key:\n%s", i+1, tl.text)
		}
		q[i], key[i] = m[1], k
	}
	if !tiles[0].focused || tiles[1].focused || tiles[2].focused {
		t.Fatalf("the first tile should have the focus:\n%s", s)
	}

	// focusedTile waits until tile n (1-based) has the focus.
	focusedTile := func(n int) screenTile {
		t.Helper()
		s := tm.waitFor("tile "+strconv.Itoa(n)+" focused", func(s string) bool {
			for _, tl := range readTiles(s) {
				if tl.focused {
					return tl.num == n
				}
			}
			return false
		})
		return readTiles(s)[n-1]
	}

	// The second tile first: accept its default.
	tm.press("F2")
	if tl := focusedTile(2); !strings.Contains(tl.text, "Storm question "+q[1]) {
		t.Fatalf("tile 2 changed its question:\n%s", tl.text)
	}
	tm.press("Enter")
	s = tm.waitFor("tile 2 answered", func(s string) bool {
		tl := readTiles(s)
		return len(tl) == 3 && strings.Contains(tl[1].text, "accept (sent accept)")
	})
	if tl := readTiles(s); !strings.Contains(tl[0].text, "Storm question "+q[0]) || !strings.Contains(tl[0].text, "> "+q[0]) ||
		!strings.Contains(tl[2].text, "Storm question "+q[2]) {
		t.Fatalf("answering tile 2 touched the others:\n%s", s)
	}
	tm.press("F7")
	s = tm.waitText("Journal")
	if got := journalOrder(s); strings.Join(got, ",") != "accept "+key[1] {
		t.Fatalf("journal after the second tile = %v, want its accept alone:\n%s", got, s)
	}

	// Then the first (decline), then the third (cancel).
	tm.press("F4")
	tm.press("F3")
	focusedTile(1)
	tm.press("C-x")
	tm.waitFor("tile 1 declined", func(s string) bool {
		tl := readTiles(s)
		return len(tl) > 0 && strings.Contains(tl[0].text, "decline (sent decline)")
	})
	for range 3 { // ended panes may clear meanwhile: find it by its question
		s = tm.screen()
		if tl := focusedOf(s); tl != nil && strings.Contains(tl.text, "Storm question "+q[2]) {
			break
		}
		tm.press("F2")
	}
	tm.waitFor("the third question in focus", func(s string) bool {
		tl := focusedOf(s)
		return tl != nil && strings.Contains(tl.text, "Storm question "+q[2])
	})
	tm.press("Escape")
	tm.waitText("cancel (sent cancel)")
	tm.press("F7")
	s = tm.waitFor("three outcomes", func(s string) bool { return len(journalOrder(s)) == 3 })
	want := []string{"cancel " + key[2], "decline " + key[0], "accept " + key[1]} // newest first
	if got := journalOrder(s); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("journal = %v, want %v:\n%s", got, want, s)
	}
	tm.press("F5")
	tm.waitText("Calls (0 running)")

	// At 80×24 two new questions are one pane at a time.
	tm.run("resize-window", "-x", "80", "-y", "24")
	tm.callTool("storm")
	tm.waitText("arguments for storm")
	tm.press("BSpace", "BSpace")
	tm.typeText("2")
	tm.press("Enter")
	tm.waitText("2 open") // the tab says "Qs (2)" at 80 columns
	tm.press("F4")
	s = tm.waitText("Storm question")
	if strings.Contains(s, "in tiles") || strings.Count(s, "Storm question") != 1 {
		t.Errorf("at 80×24 want one pane, not tiles:\n%s", s)
	}
	tm.press("C-c")
}

// focusedOf is the focused tile on screen, or nil.
func focusedOf(s string) *screenTile {
	for _, tl := range readTiles(s) {
		if tl.focused {
			return &tl
		}
	}
	return nil
}

// journalOrder reads the journal's storm entries, newest first, as
// "kind key".
func journalOrder(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.Contains(l, "tool storm") {
			continue
		}
		f := strings.Fields(l)
		if len(f) >= 3 {
			out = append(out, f[1]+" "+f[2])
		}
	}
	return out
}
