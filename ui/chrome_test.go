package ui

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
)

// The screen's chrome: the pane header, the tab bar, the status bar.

// TestPaneKeepsTheServersNameAfterADisconnect: the pane header names the
// server as it named itself (serverInfo) after the server disconnects,
// when the engine's status no longer carries its serverInfo, whether the
// state event or a fresh server list says so.
func TestPaneKeepsTheServersNameAfterADisconnect(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, func(e *fakeEngine) {
			e.servers[0].Info = wire.Implementation{Name: "elicit-demo", Title: "Elicit \x1b[31mDemo"}
		})
		d.open(formPrompt(t, "demo", 1, "Who are you?", nameSchema))
		mustShow(t, d, "demo (Elicit ␛[31mDemo)  demo#1")
		gone := errors.New("transport closed")
		d.send(eventMsg{e: client.ServerStateChanged{Server: "demo", State: client.StateDisconnected, Err: gone}})
		mustShow(t, d, "demo (Elicit ␛[31mDemo)  demo#1")
		d.send(serversMsg{{Name: "demo", State: client.StateDisconnected, Err: gone}})
		mustShow(t, d, "demo (Elicit ␛[31mDemo)  demo#1")
		// A server that comes back as another implementation is named so.
		d.send(serversMsg{{Name: "demo", State: client.StateReady, Info: wire.Implementation{Name: "other"}}})
		mustShow(t, d, "demo (other)  demo#1")
	})
}

// demoLike is the demo's line-up: two servers, one per MCP era, and an
// agent.
func demoLike(e *fakeEngine) {
	e.servers = []ServerStatus{
		{Name: "demo-2025-11-25", State: client.StateReady, Protocol: "2025-11-25", Era: "2025-11-25 stateful"},
		{Name: "demo-2026-07-28", State: client.StateReady, Protocol: "2026-07-28", Era: "2026-07-28 stateless"},
	}
	e.agents = []AgentStatus{{Name: "demo-agent", State: client.StateReady}}
}

// statusBar is the screen's last line.
func (d *driver) statusBar() string {
	lines := strings.Split(d.screen(), "\n")
	return lines[len(lines)-1]
}

// tabBar is the screen's first line.
func (d *driver) tabBar() string { return strings.SplitN(d.screen(), "\n", 2)[0] }

// TestStatusBarFitsBothErasAt80: at 80 columns the demo's two servers,
// each with its era's kind, and the agent with its key are all on the
// status bar, whole; at 120 it says everything.
func TestStatusBarFitsBothErasAt80(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, demoLike)
		d.send(tea.WindowSizeMsg{Width: 120, Height: 40})
		want := "● demo-2025-11-25 ready 2025-11-25 stateful │ ● demo-2026-07-28 ready 2026-07-28 stateless │ ● demo-agent agent (alt+a)"
		if got := d.statusBar(); got != want {
			t.Errorf("at 120 the status bar is\n%q, want\n%q", got, want)
		}
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		want = "● demo-2025-11-25 stateful │ ● demo-2026-07-28 stateless │ ● demo-agent alt+a"
		if got := d.statusBar(); got != want {
			t.Errorf("at 80 the status bar is\n%q, want\n%q", got, want)
		}
		d.send(tea.WindowSizeMsg{Width: 100, Height: 24})
		want = "● demo-2025-11-25 2025-11-25 stateful │ ● demo-2026-07-28 2026-07-28 stateless │ ● demo-agent alt+a"
		if got := d.statusBar(); ansi.StringWidth(got) > 100 || !strings.Contains(got, "2026-07-28 stateless") {
			t.Errorf("at 100 the status bar is\n%q, want the eras' versions (%q)", got, want)
		}
	})
}

// TestStatusBarCutsNamesWithAnEllipsis: when even the bare badges do not
// fit, every name is cut to a share of the width with "…", never mid-word
// without one, and each server keeps its glyph.
func TestStatusBarCutsNamesWithAnEllipsis(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, demoLike, func(e *fakeEngine) {
			e.servers[1].Name = "a-server-with-a-rather-long-name-indeed"
			e.servers = append(e.servers, ServerStatus{Name: "third", State: client.StateFailed, Err: errors.New("exec: no such file")})
		})
		d.send(tea.WindowSizeMsg{Width: 60, Height: 24})
		bar := d.statusBar()
		if ansi.StringWidth(bar) > 60 {
			t.Fatalf("the status bar is %d wide: %q", ansi.StringWidth(bar), bar)
		}
		for _, w := range []string{"● demo-20", "● a-serve", "…", "✗ third failed", "● demo-ag"} {
			if !strings.Contains(bar, w) {
				t.Errorf("status bar %q lacks %q", bar, w)
			}
		}
		for _, word := range strings.Fields(bar) {
			for _, name := range []string{"demo-2025-11-25", "a-server-with-a-rather-long-name-indeed", "demo-agent"} {
				if strings.HasPrefix(name, word) && word != name && len(word) > 2 {
					t.Errorf("%q is cut from %q without an ellipsis in %q", word, name, bar)
				}
			}
		}
	})
}

// TestNoticeHasLinesOfItsOwn: a notice is never cut beside the badges:
// it has lines of its own above the status bar, wrapped at the width,
// and the body gives up those rows; a key a second later clears it, the
// quit warning goes with the key that withdraws it (issue 26).
func TestNoticeHasLinesOfItsOwn(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		now := t0
		d := newDriver(t, Options{Now: func() time.Time { return now }}, demoLike)
		const warning = "1 question is open: ctrl+c again quits, and they end abandoned (answered cancel); any other key stays"
		for _, w := range []int{80, 120} {
			d.send(tea.WindowSizeMsg{Width: w, Height: 24})
			bar := d.statusBar()
			d.send(noticeMsg(warning))
			lines := strings.Split(d.screen(), "\n")
			if len(lines) != 24 || lines[23] != bar {
				t.Fatalf("at %d: %d lines, the bar %q, was %q", w, len(lines), lines[23], bar)
			}
			var said []string
			for _, l := range lines[21:23] {
				said = append(said, strings.TrimSpace(l))
			}
			if got := strings.Join(said, " "); got != warning && !strings.HasSuffix(got, warning) {
				t.Errorf("at %d the notice reads %q", w, got)
			}
			if rows := d.m.bodyHeight(); rows != 24-chrome-d.m.noticeRows || d.m.noticeRows < 1 {
				t.Errorf("at %d the body has %d rows with a notice of %d", w, rows, d.m.noticeRows)
			}
		}
		d.keys(keyDown) // at once: it stays
		if d.m.notice == "" {
			t.Fatal("a key at once cleared the notice")
		}
		now = now.Add(noticeHold)
		d.keys(keyDown)
		if d.m.notice != "" || d.m.noticeRows != 0 || d.m.bodyHeight() != 24-chrome {
			t.Fatalf("a key a second later left the notice %q (%d rows)", d.m.notice, d.m.noticeRows)
		}
	})
}

// TestTabBarNamesEveryKeyAt80: at 80 columns every tab on the bar says
// its key with a name, never a bare F-key, and F1 help is there; each
// F-key tab has the same label in every view (issue 26: they switched
// between long and short from view to view, and F1 help dropped off in
// the tasks view); with an agent its tab is on the bar with alt+a where
// it fits (the status bar names the key when it does not); at 120 every
// name is whole.
func TestTabBarNamesEveryKeyAt80(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, demoLike)
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		want := " F4 Questions F5 Tls F6 Trf F7 Jnl F8 Log F9 Res F10 Prm F11 Tsk F12 Srv F1 help"
		if got := d.tabBar(); got != want {
			t.Errorf("at 80 the tab bar is\n%q, want\n%q", got, want)
		}
		named := func(bar string, tb tab) bool {
			for _, n := range []string{tb.name, tb.short} {
				if strings.Contains(bar+" ", tb.keyLabel()+" "+n+" ") {
					return true
				}
			}
			return false
		}
		// The same labels whichever F-key view is shown.
		for _, w := range []int{80, 100} {
			d.send(tea.WindowSizeMsg{Width: w, Height: 24})
			first := ""
			for i, tb := range d.m.tabs {
				if tb.fkey == 0 {
					continue
				}
				d.keys(tea.KeyPressMsg{Code: tea.KeyF1 + rune(tb.fkey) - 1})
				if d.m.view != viewID(i) {
					t.Fatalf("F%d did not show %s", tb.fkey, tb.name)
				}
				bar := strings.Join(strings.Fields(d.tabBar()), " ")
				if first == "" {
					first = bar
				}
				if bar != first {
					t.Errorf("at %d the tab bar changes with the view: %s shows\n%q, %s showed\n%q", w, tb.name, bar, d.m.tabs[0].name, first)
				}
				if !strings.HasSuffix(bar, "F1 help") {
					t.Errorf("at %d with %s the tab bar %q lacks F1 help", w, tb.name, bar)
				}
			}
		}
		for _, w := range []int{80, 100, 120} {
			d.send(tea.WindowSizeMsg{Width: w, Height: 24})
			for _, k := range []tea.KeyPressMsg{{Code: tea.KeyF4}, keyF12, keyAltA} {
				d.keys(k)
				bar, shown := d.tabBar(), d.m.tabs[d.m.view]
				if ansi.StringWidth(bar) > w {
					t.Errorf("at %d with %s the tab bar is %d wide: %q", w, shown.name, ansi.StringWidth(bar), bar)
				}
				for _, tb := range d.m.tabs {
					if tb.fkey > 0 && !named(bar, tb) {
						t.Errorf("at %d with %s the tab bar %q lacks %s with a name", w, shown.name, bar, tb.keyLabel())
					}
				}
				if w >= 100 && !strings.Contains(bar, "F1 help") {
					t.Errorf("at %d the tab bar %q lacks F1 help", w, bar)
				}
				if w >= 100 && !strings.Contains(bar, "alt+a Ag") {
					t.Errorf("at %d the tab bar %q lacks the agent's tab", w, bar)
				}
			}
		}
		d.send(tea.WindowSizeMsg{Width: 120, Height: 24})
		d.keys(tea.KeyPressMsg{Code: tea.KeyF4})
		want = "F4 Questions F5 Tools F6 Traffic F7 Journal F8 Logs F9 Resources F10 Prompts F11 Tasks F12 Server alt+a Agent F1 help"
		if got := strings.TrimSpace(d.tabBar()); got != want {
			t.Errorf("at 120 the tab bar is\n%q, want\n%q", got, want)
		}
	})
}

// TestStatusBarCutsAReasonBeforeDroppingIt: a disconnected server's long
// reason is cut with "…" to what the width leaves, not dropped, while it
// can keep a dozen cells.
func TestStatusBarCutsAReasonBeforeDroppingIt(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, func(e *fakeEngine) {
			e.servers[0].Name = "127.0.0.1:47123"
			e.servers[0].State = client.StateDisconnected
			e.servers[0].Err = errors.New("127.0.0.1:47123: transport disconnected: transport: stream ended before the response")
		})
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		bar := d.statusBar()
		if !strings.HasPrefix(bar, "⚡ 127.0.0.1:47123 disconnected: 127.0.0.1:47123: transport") || !strings.HasSuffix(bar, "…") || ansi.StringWidth(bar) > 80 {
			t.Errorf("the status bar is %q", bar)
		}
		d.send(tea.WindowSizeMsg{Width: 140, Height: 24})
		if bar = d.statusBar(); !strings.HasSuffix(bar, "the response (F5, r: reconnect)") {
			t.Errorf("at 140 the status bar is %q", bar)
		}
	})
}

// TestBarsNeverOverflow: at every width from 40 to 160, on every view,
// neither bar is wider than the screen (each step is measured unstyled;
// the styled bar must be as wide).
func TestBarsNeverOverflow(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, demoLike, func(e *fakeEngine) {
			e.servers = append(e.servers, ServerStatus{Name: "gone", State: client.StateDisconnected, Err: errors.New("read: connection reset by peer")})
		})
		for _, k := range []tea.KeyPressMsg{{Code: tea.KeyF4}, keyF12, keyAltA} {
			d.keys(k)
			for w := 40; w <= 160; w++ {
				d.send(tea.WindowSizeMsg{Width: w, Height: 24})
				lines := strings.Split(d.m.View().Content, "\n")
				for _, l := range []string{lines[0], lines[len(lines)-1]} {
					if n := ansi.StringWidth(l); n > w {
						t.Errorf("at %d on %s a bar is %d wide: %q", w, d.m.viewName(), n, ansi.Strip(l))
					}
				}
			}
		}
	})
}

// TestPaneHeaderFitsNarrow: at 80 columns the pane's header, which said
// everything on one line and was cut by the frame (the call and its
// waiting time fell off), breaks onto a second line between its parts,
// so what the question belongs to and how long it has waited show whole.
func TestPaneHeaderFitsNarrow(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, func(e *fakeEngine) {
			e.servers[0].Name = "demo-2025-11-25"
			e.servers[0].Info = wire.Implementation{Name: "elicit-demo", Title: "elicit demo server"}
		})
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		q := formPrompt(t, "demo-2025-11-25", 1, "Which branch?", nameSchema)
		q.Arrived = time.Now().Add(-13 * time.Second)
		d.open(q)
		mustShow(t, d, "demo-2025-11-25 (elicit demo server)  demo-2025-11-25#1", "tool deploy (call 3)  ·  waiting 10s")
		for _, l := range strings.Split(d.screen(), "\n") {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("line wider than the screen (%d): %q", w, l)
			}
		}
		// With room, it stays one line.
		d.send(tea.WindowSizeMsg{Width: 140, Height: 30})
		mustShow(t, d, "demo-2025-11-25 (elicit demo server)  demo-2025-11-25#1  ·  tool deploy (call 3)  ·  waiting")
	})
}

// TestTabBarKeepsHelpWithCounts (issue 26): with a question and a task
// counting at 80 columns, F1 help is still on the bar, in the tasks view
// as in the others (the counts give up their space first).
func TestTabBarKeepsHelpWithCounts(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, demoLike)
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		d.open(formPrompt(t, "demo-2025-11-25", 1, "Name?", nameSchema))
		d.emit(mkTask("t-1", client.TaskWorking, func(tk *client.Task) { tk.Server = "demo-2025-11-25" }))
		for _, k := range []tea.KeyPressMsg{keyF5, {Code: tea.KeyF11}, {Code: tea.KeyF4}} {
			d.keys(k)
			bar := d.tabBar()
			if !strings.Contains(bar, "Qs(1)") || !strings.Contains(bar, "Tsk(1)") || !strings.HasSuffix(bar, "F1 help") || ansi.StringWidth(bar) > 80 {
				t.Errorf("on %s the tab bar is %q", d.m.tabs[d.m.view].name, bar)
			}
		}
	})
}
