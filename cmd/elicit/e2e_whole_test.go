package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestTUIQuestionsAreWhole: a question is never cut, in any layout. Three
// URL questions whose link hides its host behind a user name
// (good.com@evil.example), each with a message wider than a tile: at
// 140×40 they are tiles 70 columns wide, at 120×31 tiles of 60×14 (too
// short for the pane: it says there is more, and pgdn shows it), at 80×24
// one pane at a time. In each, the whole message, the notice, the URL
// and both warnings are read off the screen. They were cut at the tile's
// edge ("Nothing has b", "the rea").
func TestTUIQuestionsAreWhole(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tm := newTmuxSized(t, 140, 40, t.TempDir(), "--protocol", "2025-11-25", "--name", "hostile", "--",
		"env", testServerEnv+"=url-userinfo", self)
	tm.waitText("hostile ready")
	for i := range 3 {
		tm.press("F5")
		tm.waitText("› url-userinfo")
		tm.press("Enter")
		tm.waitText(strconv.Itoa(i+1) + " open")
	}
	tm.press("F4")
	wants := []string{
		urlUserinfoMessage,
		"This server asks you to open a page in your browser. Nothing has been fetched.",
		"https://good.com@evil.example/login?session=",
		"host: evil.example",
		"⚠ the URL carries a user name before the host (good.com@): the real host is evil.example",
		"⚠ the server runs locally; this link goes to evil.example",
		"Accepting gives consent only; the site finishes the task.",
	}
	check := func(layout string, n int, text string) {
		t.Helper()
		got := squeeze(text)
		for _, w := range wants {
			if !strings.Contains(got, squeeze(w)) {
				t.Errorf("%s, question %d: %q is not on screen whole:\n%s", layout, n, w, text)
			}
		}
	}

	s := tm.waitFor("three tiles", func(s string) bool { return len(readTiles(s)) == 3 })
	for _, tl := range readTiles(s) {
		if strings.Contains(tl.text, "more ↓") {
			t.Errorf("140×40: tile %d does not fit, yet it has the room:\n%s", tl.num, s)
		}
		check("140×40 tiles", tl.num, tl.text)
	}

	tm.run("resize-window", "-x", "120", "-y", "31")
	tm.waitFor("tiles of 60 columns", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "━ 1 ") {
				return len(readTiles(s)) == 3 && len([]rune(strings.TrimRight(l, " "))) == 120
			}
		}
		return false
	})
	for n := 1; n <= 3; n++ {
		for i := 0; focusedOf(tm.screen()) == nil || focusedOf(tm.screen()).num != n; i++ {
			if i > 4 {
				t.Fatalf("tile %d never took the focus:\n%s", n, tm.screen())
			}
			tm.press("F2")
		}
		check("120×31 tiles", n, tm.readWhole(func(s string) string {
			if tl := focusedOf(s); tl != nil {
				return tl.text
			}
			return ""
		}))
	}

	tm.run("resize-window", "-x", "80", "-y", "24")
	tm.waitFor("one pane", func(s string) bool { return len(readTiles(s)) == 0 && strings.Contains(s, "hostile#q") })
	check("80×24 one pane", 1, tm.readWhole(paneOf))
	tm.press("C-c")
}

// readWhole reads a pane that may not fit its frame: the text of, each
// screen cut out by pane, and while it says "more ↓", pgdn and the next
// screen, joined where they overlap.
func (tm *tmuxTerm) readWhole(pane func(screen string) string) string {
	tm.t.Helper()
	var all []string
	for range 20 {
		text := pane(tm.screen())
		var lines []string
		for _, l := range strings.Split(text, "\n") {
			if !strings.Contains(l, "more ↓") && !strings.Contains(l, "more ↑") {
				lines = append(lines, l)
			}
		}
		all = joinOverlap(all, lines)
		if !strings.Contains(text, "more ↓") {
			return strings.Join(all, "\n")
		}
		tm.press("PageDown")
		tm.waitFor("the pane to scroll", func(s string) bool { return pane(s) != text })
	}
	tm.t.Fatalf("the pane still says there is more after 20 pages:\n%s", tm.screen())
	return ""
}

// joinOverlap appends to a the lines of b past the longest run that ends
// a and starts b.
func joinOverlap(a, b []string) []string {
	for k := min(len(a), len(b)); k > 0; k-- {
		if strings.Join(a[len(a)-k:], "\n") == strings.Join(b[:k], "\n") {
			return append(a, b[k:]...)
		}
	}
	return append(a, b...)
}

// paneOf is the single pane on a screen: the rows between its frame's
// left and right borders.
func paneOf(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		r := []rune(l)
		if len(r) > 0 && (r[0] == '┃' || r[0] == '│') {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// squeeze drops the frame's borders and all white space, so that text
// wrapped over several rows reads as one line, while a cut one does not.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '┃' || r == '│' {
			return -1
		}
		return r
	}, s)
}
