package ui

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/themes"
)

var (
	keyPgUp  = tea.KeyPressMsg{Code: tea.KeyPgUp}
	keyRight = tea.KeyPressMsg{Code: tea.KeyRight}
	keyG     = key1('G')
	keyHome  = key1('g')
)

// numbered is n lines "line 1", "line 2"…
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func testPager(t *testing.T, text string, width int) (*pager, keyMap) {
	t.Helper()
	th, err := themes.Lookup("")
	if err != nil {
		t.Fatal(err)
	}
	p := &pager{}
	p.set(th.Styles(true), width, func() string { return text })
	return p, newKeyMap()
}

func pkey(t *testing.T, p *pager, km keyMap, rows int, ks ...tea.KeyPressMsg) []tea.Cmd {
	t.Helper()
	var cmds []tea.Cmd
	for _, k := range ks {
		cmd, ok := p.key(km, k, rows)
		if !ok {
			t.Fatalf("the pager did not take %q", k.String())
		}
		cmds = append(cmds, cmd)
	}
	return cmds
}

func TestPagerScrollsAndSaysThereIsMore(t *testing.T) {
	t.Parallel()
	p, km := testPager(t, numbered(300), 80)
	const rows = 10
	if v := p.view(rows); !strings.HasPrefix(v, "line 1\n") || strings.Contains(v, "line 11") {
		t.Fatalf("first screen:\n%s", v)
	}
	if h := ansi.Strip(p.scrollHint(p.st, rows)); !strings.Contains(h, "lines 1–10 of 300 ↓ more") {
		t.Errorf("hint at the top = %q", h)
	}
	pkey(t, p, km, rows, keyDown, keyPgDown)
	if v := p.view(rows); !strings.HasPrefix(v, "line 12\n") {
		t.Fatalf("after down and pgdown:\n%s", v)
	}
	if h := ansi.Strip(p.scrollHint(p.st, rows)); !strings.Contains(h, "lines 12–21 of 300 ↑↓ more") {
		t.Errorf("hint in the middle = %q", h)
	}
	pkey(t, p, km, rows, keyG)
	if v := p.view(rows); !strings.HasSuffix(v, "line 300") || !strings.HasPrefix(v, "line 291\n") {
		t.Fatalf("G:\n%s", v)
	}
	if h := ansi.Strip(p.scrollHint(p.st, rows)); !strings.Contains(h, "lines 291–300 of 300 ↑ (end)") {
		t.Errorf("hint at the end = %q", h)
	}
	pkey(t, p, km, rows, keyPgUp, keyHome)
	if v := p.view(rows); !strings.HasPrefix(v, "line 1\n") {
		t.Fatalf("g:\n%s", v)
	}
	p.wheel(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if v := p.view(rows); !strings.HasPrefix(v, "line 4\n") {
		t.Fatalf("wheel down scrolls 3:\n%s", v)
	}
}

func TestPagerWrapToggleKeepsThePlace(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("abcdefghij", 30) // 300 columns
	p, km := testPager(t, "head\n"+long+"\n"+numbered(50), 40)
	const rows = 5
	if len(p.lines) != 1+8+50 {
		t.Fatalf("wrapped to %d lines, want 59 (the long line in 8)", len(p.lines))
	}
	pkey(t, p, km, rows, tea.KeyPressMsg{Code: tea.KeyDown}) // onto the long line
	pkey(t, p, km, rows, key1('w'))
	if len(p.lines) != 52 {
		t.Fatalf("unwrapped: %d lines, want 52", len(p.lines))
	}
	v := p.view(rows)
	if !strings.HasPrefix(v, "abcdefghij") {
		t.Fatalf("the wrap toggle lost the place:\n%s", v)
	}
	if h := ansi.Strip(p.scrollHint(p.st, rows)); !strings.Contains(h, "→ wider") {
		t.Errorf("no sign of the text beyond the right edge: %q", h)
	}
	pkey(t, p, km, rows, keyRight)
	if first := strings.SplitN(p.view(rows), "\n", 2)[0]; !strings.HasPrefix(first, "abcdefghij") || ansi.StringWidth(first) != 40 {
		t.Errorf("right scrolls half a screen, cut to the width: %q", first)
	}
	pkey(t, p, km, rows, key1('w'))
	if len(p.lines) != 59 {
		t.Fatalf("wrapped again: %d lines", len(p.lines))
	}
}

func TestPagerSearch(t *testing.T) {
	t.Parallel()
	text := numbered(100) + "the Needle here\n" + numbered(100) + "a needle again\n"
	p, km := testPager(t, text, 80)
	const rows = 10
	pkey(t, p, km, rows, keySlash)
	if !p.typingQuery() {
		t.Fatal("/ did not start a query")
	}
	for _, r := range "needle" {
		pkey(t, p, km, rows, key1(r))
	}
	if h := ansi.Strip(p.scrollHint(p.st, rows)); !strings.Contains(h, "/needle▏") {
		t.Errorf("the query line = %q", h)
	}
	pkey(t, p, km, rows, keyEnter)
	if p.typingQuery() || len(p.hits) != 2 {
		t.Fatalf("typing %v, %d hits, want 2 (lower case folds)", p.typingQuery(), len(p.hits))
	}
	if v := ansi.Strip(p.view(rows)); !strings.Contains(v, "the Needle here") {
		t.Fatalf("the first match is not on screen:\n%s", ansi.Strip(v))
	}
	if v := p.view(rows); !strings.Contains(v, p.st.Reader.Current.Render("Needle")) {
		t.Errorf("the current match is not marked:\n%q", v)
	}
	if h := ansi.Strip(p.scrollHint(p.st, rows)); !strings.Contains(h, "match 1/2") {
		t.Errorf("hint = %q", h)
	}
	pkey(t, p, km, rows, key1('n'))
	if v := ansi.Strip(p.view(rows)); !strings.Contains(v, "a needle again") {
		t.Fatalf("n did not move to the second match:\n%s", v)
	}
	pkey(t, p, km, rows, key1('n'))
	if p.hit != 0 {
		t.Errorf("n wraps to the first match, at %d", p.hit)
	}
	pkey(t, p, km, rows, key1('N'))
	if p.hit != 1 {
		t.Errorf("N goes back, wrapping: at %d", p.hit)
	}
	// A capital makes it case-sensitive.
	pkey(t, p, km, rows, keySlash, key1('N'), key1('e'), keyEnter)
	if len(p.hits) != 1 {
		t.Errorf("%d hits for Ne, want 1", len(p.hits))
	}
	pkey(t, p, km, rows, keySlash, key1('z'), key1('z'), keyEnter)
	if h := ansi.Strip(p.scrollHint(p.st, rows)); !strings.Contains(h, `no match for "zz"`) {
		t.Errorf("hint = %q", h)
	}
	// Esc gives up typing and keeps the query in force.
	pkey(t, p, km, rows, keySlash, key1('q'), keyEsc)
	if p.typingQuery() || p.query != "zz" {
		t.Errorf("after esc: typing %v, query %q", p.typingQuery(), p.query)
	}
}

// clipboard runs cmd and returns what it puts on the clipboard.
func clipboard(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	var walk func(tea.Msg) (string, bool)
	walk = func(msg tea.Msg) (string, bool) {
		switch m := msg.(type) {
		case tea.BatchMsg:
			for _, c := range m {
				if c == nil {
					continue
				}
				if s, ok := walk(c()); ok {
					return s, true
				}
			}
		}
		if v := reflect.ValueOf(msg); v.IsValid() && fmt.Sprintf("%T", msg) == "tea.setClipboardMsg" {
			return v.String(), true
		}
		return "", false
	}
	s, ok := walk(cmd())
	if !ok {
		t.Fatal("the command sets no clipboard")
	}
	return s
}

func TestPagerCopies(t *testing.T) {
	t.Parallel()
	th, _ := themes.Lookup("")
	p, km := testPager(t, th.Styles(true).Error.Render("styled")+"\n"+numbered(30), 80)
	const rows = 5
	cmds := pkey(t, p, km, rows, key1('y'))
	if got := clipboard(t, cmds[0]); got != "styled\nline 1\nline 2\nline 3\nline 4" {
		t.Errorf("y copied %q, want the five lines shown without styles", got)
	}
	cmds = pkey(t, p, km, rows, key1('Y'))
	got := clipboard(t, cmds[0])
	if !strings.HasPrefix(got, "styled\nline 1\n") || !strings.HasSuffix(got, "line 30") || strings.Contains(got, "\x1b") {
		t.Errorf("Y copied %q, want the whole text without styles", got)
	}
}

// TestReaderFrame: Enter on a frame reads all of it in the reader, which
// scrolls, searches with keys that are otherwise global (? and q), and
// stays open per tab.
func TestReaderFrame(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{Now: func() time.Time { return t0 }})
		items := make([]string, 300)
		for i := range items {
			items[i] = fmt.Sprintf(`{"n":%d}`, i)
		}
		raw := `{"jsonrpc":"2.0","id":1,"result":{"items":[` + strings.Join(items, ",") + `,{"tail":"q?"}]}}`
		d.m.bridge.Frame("demo", client.Frame{Time: t0, Dir: client.In, Raw: []byte(raw)})
		d.waitInbox()
		d.keys(keyF6, keyEnter)
		s := d.screen()
		if !strings.Contains(s, `"items": [`) || !strings.Contains(s, "↓ more") {
			t.Fatalf("the reader does not show the frame's start and say there is more:\n%s", s)
		}
		d.keys(keyG)
		if s := d.screen(); !strings.Contains(s, `"tail": "q?"`) {
			t.Fatalf("G does not reach the frame's end:\n%s", s)
		}
		d.keys(keyHome, keySlash)
		d.typeText("q?")
		if d.m.showHelp {
			t.Fatal("? in the query opened the help")
		}
		d.keys(keyEnter)
		if s := d.screen(); !strings.Contains(s, "match 1/1") || !strings.Contains(s, `"tail": "q?"`) {
			t.Fatalf("the search did not find the tail:\n%s", s)
		}
		// Another tab and back: the reader is as it was.
		d.keys(keyF8, keyF6)
		if s := d.screen(); !strings.Contains(s, "match 1/1") {
			t.Fatalf("the reader did not stay with its tab:\n%s", s)
		}
		d.keys(key1('q'))
		if d.m.readers[d.m.view] != nil || !strings.Contains(d.screen(), "Traffic: 1 frames") {
			t.Fatalf("q did not close the reader:\n%s", d.screen())
		}
	})
}

// TestReaderLogs: Enter in the log view reads the whole log, from its
// newest line, each line whole.
func TestReaderLogs(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{Now: func() time.Time { return t0 }})
		for i := range 200 {
			d.m.bridge.Event(client.LogMessage{Server: "demo", Level: "info", Data: []byte(fmt.Sprintf(`"entry %d %s"`, i, strings.Repeat("w", 150))), Time: t0})
		}
		d.waitInbox()
		d.keys(keyF8, keyEnter)
		s := d.screen()
		if !strings.Contains(s, "Logs of all servers: 200 lines") || !strings.Contains(s, "entry 199") || strings.Contains(s, "entry 100 ") {
			t.Fatalf("the log reader does not open at the newest line:\n%s", s)
		}
		if !strings.Contains(s, "↑ (end)") {
			t.Errorf("the hint does not say there is more above:\n%s", s)
		}
		// The line is whole: wrapped, not cut.
		if !strings.Contains(strings.ReplaceAll(s, "\n", ""), strings.Repeat("w", 150)) {
			t.Errorf("a long log line is cut in the reader:\n%s", s)
		}
		d.keys(keyEsc)
		if !strings.Contains(d.screen(), "enter read all") {
			t.Fatalf("esc did not go back to the log view:\n%s", d.screen())
		}
	})
}

// TestReaderToolResult: a result longer than the calls list's room says
// how much more there is, and Enter on the call reads it all.
func TestReaderToolResult(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "long"}), func(e *fakeEngine) {
			e.callFn = func(context.Context, string, map[string]any, func(client.CallProgress)) (*wire.CallToolResult, error) {
				return &wire.CallToolResult{Content: []wire.ContentBlock{{Type: "text", Text: numbered(300)}}}, nil
			}
		})
		d.keys(keyF5, keyEnter)
		s := d.screen()
		if !strings.Contains(s, "more lines: tab, then enter, reads all of it") || strings.Contains(s, "line 300") {
			t.Fatalf("the clipped result does not say there is more:\n%s", s)
		}
		d.keys(keyTab, keyEnter)
		if s := d.screen(); !strings.Contains(s, "Result of demo/long") || !strings.Contains(s, "lines 1–") {
			t.Fatalf("enter on the call did not open the reader:\n%s", s)
		}
		d.keys(keyG)
		if s := d.screen(); !strings.Contains(s, "line 300") {
			t.Fatalf("G does not reach the end:\n%s", s)
		}
		d.keys(keyEsc)
		if s := d.screen(); !strings.Contains(s, "Calls (0 running)") {
			t.Fatalf("esc did not go back to the tools view:\n%s", s)
		}
	})
}
