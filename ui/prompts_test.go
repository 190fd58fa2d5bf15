package ui

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

func TestTwoPanesAnsweredInReverseOrder(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		// One pane at a time: in tiles the second is on screen beside the
		// first (TestTilesAnswerSecondTileFirst).
		d.keys(keyCtrlS)
		a := formPrompt(t, "demo", 1, "Who are you?", nameSchema)
		b := formPrompt(t, "demo", 2, "Second question", nameSchema)
		d.open(a)
		d.open(b)
		if d.m.prompts.focus != d.m.prompts.byKey[a.Key].id {
			t.Fatal("the second prompt took focus from the first")
		}
		if s := d.screen(); !strings.Contains(s, "2 open, 1 new") {
			t.Fatalf("strip does not announce the new prompt:\n%s", s)
		}
		// Answer the second first.
		d.keys(keyF2)
		d.typeText("Bob")
		d.keys(keyEnter)
		if got := d.reply(b.Key); got.Kind != question.Accept || !cmp.Equal(got.Content, map[string]any{"name": "Bob"}) {
			t.Fatalf("second prompt reply = %+v, want accept name=Bob", got)
		}
		d.noReply(a.Key)
		d.keys(keyF2)
		d.typeText("Al")
		d.keys(keyEnter)
		if got := d.reply(a.Key); got.Kind != question.Accept || !cmp.Equal(got.Content, map[string]any{"name": "Al"}) {
			t.Fatalf("first prompt reply = %+v, want accept name=Al", got)
		}
		// Nothing more is sent, whatever is pressed.
		d.keys(keyEnter, keyCtrlX, keyEsc, keyF2, keyCtrlX, keyEsc)
		d.noReply(a.Key)
		d.noReply(b.Key)
	})
}

func TestEscCancelsAndCtrlXDeclines(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		a := formPrompt(t, "demo", 1, "first", nameSchema)
		b := formPrompt(t, "demo", 2, "second", nameSchema)
		d.open(a)
		d.open(b)
		d.typeText("half typed")
		d.keys(keyEsc)
		if got := d.reply(a.Key); got.Kind != question.Cancel || got.Content != nil {
			t.Fatalf("Esc reply = %+v, want cancel without content", got)
		}
		d.keys(keyF2)
		if s := d.screen(); !strings.Contains(s, "Decline ctrl+x") {
			t.Errorf("no visible Decline button:\n%s", s)
		}
		d.keys(keyCtrlX)
		if got := d.reply(b.Key); got.Kind != question.Decline || got.Content != nil {
			t.Fatalf("ctrl+x reply = %+v, want decline without content", got)
		}
	})
}

func TestEscWhileFilteringOnlyClosesTheFilter(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		p := formPrompt(t, "demo", 1, "pick", pickSchema)
		d.open(p)
		d.keys(keySlash)
		if !d.m.prompts.focused().form.Filtering() {
			t.Fatal("/ did not open the select filter")
		}
		d.keys(keyEsc)
		d.noReply(p.Key)
		if d.m.prompts.focused().form.Filtering() {
			t.Fatal("Esc did not close the filter")
		}
		d.keys(keyEsc)
		if got := d.reply(p.Key); got.Kind != question.Cancel {
			t.Fatalf("second Esc reply = %v, want cancel", got.Kind)
		}
	})
}

func TestWithdrawnPaneTurnsIntoNotice(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		p := formPrompt(t, "demo", 7, "will be withdrawn", nameSchema)
		d.open(p)
		d.typeText("abc")
		d.send(promptClosedMsg{key: p.Key, cause: question.ErrWithdrawn})
		d.send(eventMsg{e: client.PromptResolved{Key: p.Key,
			Entry: question.JournalEntry{Key: p.Key, Server: "demo", Kind: question.Withdrawn, Reason: "user left"}}})
		s := d.screen()
		if !strings.Contains(s, "withdrawn by demo: user left") {
			t.Fatalf("no withdrawal notice:\n%s", s)
		}
		if strings.Contains(s, "will be withdrawn") {
			t.Errorf("the withdrawn form is still shown:\n%s", s)
		}
		d.keys(keyEnter, keyCtrlX, keyEsc)
		d.noReply(p.Key)
		// Enter clears the ended pane.
		d.keys(keyEnter)
		if len(d.m.prompts.panes) != 0 {
			t.Fatalf("ended pane not cleared: %d panes", len(d.m.prompts.panes))
		}
	})
}

func TestDisconnectedPaneSaysSo(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		p := formPrompt(t, "demo", 8, "q", nameSchema)
		d.open(p)
		d.send(promptClosedMsg{key: p.Key, cause: question.ErrDisconnected})
		if s := d.screen(); !strings.Contains(s, "demo disconnected; nothing was sent") {
			t.Fatalf("no disconnect notice:\n%s", s)
		}
		d.noReply(p.Key)
	})
}

// TestLongEndReasonIsWrappedNotCut: a disconnect's reason (a lost task's,
// with the transport's error) is longer than the pane; all of it shows.
func TestLongEndReasonIsWrappedNotCut(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		p := formPrompt(t, "demo", 8, "q", nameSchema)
		d.open(p)
		reason := "task T was lost: transport disconnected (tasks/get could not reach the server 3 times in a row: " +
			"transport: POST tasks/get: dial tcp 127.0.0.1:18777: connect: connection refused, the end)"
		d.send(eventMsg{e: client.PromptResolved{Key: p.Key, Entry: question.JournalEntry{Key: p.Key, Server: "demo", Kind: question.Disconnected, Reason: reason}}})
		s := d.screen()
		var joined strings.Builder
		for _, line := range strings.Split(s, "\n") {
			joined.WriteString(strings.Trim(line, "│┃ ") + " ")
		}
		if !strings.Contains(strings.Join(strings.Fields(joined.String()), " "), "connection refused, the end)); nothing was sent") {
			t.Fatalf("the reason was cut:\n%s", s)
		}
	})
}

func TestHeaderShowsServerIDOriginAndWait(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		p := formPrompt(t, "demo", 42, "q", nameSchema)
		p.Arrived = p.Arrived.Add(-75e9)
		d.open(p)
		s := d.screen()
		for _, want := range []string{"demo#42", "tool deploy (call 3)", "waiting 1m", "1 open"} {
			if !strings.Contains(s, want) {
				t.Errorf("header lacks %q:\n%s", want, s)
			}
		}
	})
}

// TestHeaderNamesTheCallsAnAmbiguousQuestionMayBelongTo: a question that
// came while two calls of the same tool were open, nothing tying it to
// one (stdio), is ours: the header names both, not "not tied to a call".
func TestHeaderNamesTheCallsAnAmbiguousQuestionMayBelongTo(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		d.send(tea.WindowSizeMsg{Width: 200, Height: 40})
		p := formPrompt(t, "demo", 42, "q", nameSchema)
		p.Origin = question.Origin{MaybeOf: 2, Maybe: []question.Origin{
			{Kind: question.OriginToolCall, Name: "ask", CallID: jsonrpc.IntID(3)},
			{Kind: question.OriginToolCall, Name: "ask", CallID: jsonrpc.IntID(4)},
		}}
		d.open(p)
		s := d.screen()
		if strings.Contains(s, "not tied") || !strings.Contains(s, "one of 2 calls: tool ask (call 3), tool ask (call 4)") {
			t.Errorf("header does not name the calls it may belong to:\n%s", s)
		}
	})
}

func TestHelpOverlayListsBindings(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		d.keys(keyF1)
		s := d.screen()
		for _, want := range []string{"ctrl+x", "decline", "F2 / ctrl+o", "export traffic"} {
			if !strings.Contains(s, want) {
				t.Errorf("help lacks %q", want)
			}
		}
		d.keys(keyEsc)
		if d.m.showHelp {
			t.Fatal("Esc did not close help")
		}
		// ? types into a field instead of opening help.
		p := formPrompt(t, "demo", 1, "q", nameSchema)
		d.open(p)
		d.typeText("?")
		if d.m.showHelp {
			t.Fatal("? opened help while typing in a field")
		}
		d.keys(keyEnter)
		if got := d.reply(p.Key); got.Content["name"] != "?" {
			t.Fatalf("content = %v, want name=?", got.Content)
		}
	})
}

// TestWaitTickOnlyWhileShown: the waiting-time tick runs only while a
// waiting time is on screen (idle CPU, issues 7 and 14). A text field's
// cursor no longer redraws it: its blinks end in forms.Form, so the tick
// runs beside a text input as beside a select.
func TestWaitTickOnlyWhileShown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, schema string
		view         tea.KeyPressMsg
		want         bool
	}{
		{"text input on screen", nameSchema, tea.KeyPressMsg{Code: tea.KeyF4}, true},
		{"select on screen", pickSchema, tea.KeyPressMsg{Code: tea.KeyF4}, true},
		{"another view: no waiting time on screen", nameSchema, tea.KeyPressMsg{Code: tea.KeyF6}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := newDriver(t, Options{})
				d.open(formPrompt(t, "demo", 1, "q", tc.schema))
				d.send(tc.view)
				d.m.ticking = false // as when the last tick has fired
				d.m.armTicks()
				if d.m.ticking != tc.want {
					t.Errorf("ticking = %v, want %v", d.m.ticking, tc.want)
				}
			})
		})
	}
}

// TestWaitTickFollowsTheText: the waiting time reads in tens of seconds
// for a minute, then in minutes; the tick comes when the text next
// changes, so a question costs six redraws in its first minute (each
// about 30 context switches of the idle process: BENCHMARKS.md, "Idle")
// and one a minute after.
func TestWaitTickFollowsTheText(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		waited time.Duration
		want   time.Duration
	}{
		{"0.4 s", 400 * time.Millisecond, 9600 * time.Millisecond},
		{"12.2 s", 12200 * time.Millisecond, 7800 * time.Millisecond},
		{"59 s", 59 * time.Second, time.Second},
		{"a minute and 20.5 s", time.Minute + 20500*time.Millisecond, 39500 * time.Millisecond},
		{"an hour, 2 min and 59 s", time.Hour + 179*time.Second, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				now := t0
				d := newDriver(t, Options{Now: func() time.Time { return now }})
				p := formPrompt(t, "demo", 1, "q", nameSchema)
				p.Arrived = t0
				d.open(p)
				d.send(tea.KeyPressMsg{Code: tea.KeyF4})
				now = t0.Add(tc.waited)
				if got := d.m.waitTickIn(); got != tc.want {
					t.Errorf("next tick in %v, want %v (the screen reads %q)", got, tc.want, waited(tc.waited))
				}
			})
		})
	}
}

// TestWaitTickSoonerReplacesLater: with a minute's tick armed for an old
// question, a new one coming on screen (here as a second tile) reads in
// seconds, so a ten-second tick replaces the minute's; the minute's, when
// it fires, is dropped.
func TestWaitTickSoonerReplacesLater(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
		d := newDriver(t, Options{Now: func() time.Time { return t0 }})
		old := formPrompt(t, "demo", 1, "old", nameSchema)
		old.Arrived = t0.Add(-90 * time.Second)
		d.open(old)
		d.send(tea.KeyPressMsg{Code: tea.KeyF4})
		if !d.m.ticking || !d.m.tickAt.Equal(t0.Add(30*time.Second)) {
			t.Fatalf("one question 90 s old: tick armed %v for %v, want for %v", d.m.ticking, d.m.tickAt, t0.Add(30*time.Second))
		}
		stale := waitTickMsg{gen: d.m.tickGen}
		fresh := formPrompt(t, "demo", 2, "fresh", nameSchema)
		fresh.Arrived = t0
		d.open(fresh)
		mustShow(t, d, "just now")
		if !d.m.tickAt.Equal(t0.Add(10 * time.Second)) {
			t.Fatalf("a question just arrived on screen: the tick is due %v, want %v", d.m.tickAt, t0.Add(10*time.Second))
		}
		d.send(stale)
		if !d.m.ticking {
			t.Fatal("the replaced minute tick disarmed the second's")
		}
	})
}

func TestWaitedText(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		400 * time.Millisecond:                  "just now",
		9900 * time.Millisecond:                 "just now",
		12900 * time.Millisecond:                "waiting 10s",
		59900 * time.Millisecond:                "waiting 50s",
		4*time.Minute + 59*time.Second:          "waiting 4m",
		time.Hour + 2*time.Minute + time.Second: "waiting 1h2m",
	} {
		if got := waited(d); got != want {
			t.Errorf("waited(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestNewPromptKeepsTheView: a prompt that arrives while the person is in
// another view is announced (tab counter, strip) and waits there; the view
// stays, and keys meant for it never reach the prompt.
func TestNewPromptKeepsTheView(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		d.keys(keyF6) // traffic
		p := formPrompt(t, "demo", 1, "Who are you?", nameSchema)
		d.open(p)
		if d.m.shown != screen(d.traffic()) {
			t.Fatalf("a new prompt switched the view to %v", d.m.view)
		}
		if s := d.screen(); !strings.Contains(s, "Questions (1)") {
			t.Errorf("the tab bar does not announce the prompt:\n%s", s)
		}
		d.keys(keyEnter, keyEsc, keyCtrlX)
		d.noReply(p.Key)
		d.keys(tea.KeyPressMsg{Code: tea.KeyF4})
		d.typeText("Ada")
		d.keys(keyEnter)
		if got := d.reply(p.Key); got.Kind != question.Accept || !cmp.Equal(got.Content, map[string]any{"name": "Ada"}) {
			t.Fatalf("reply %+v, want accept name=Ada", got)
		}
	})
}

// TestPaneArmDelay: a pane takes no answering key (Enter, Esc, ctrl+x)
// until it has been on screen for ArmDelay; typing into it is never held
// back, and after the delay the same keys answer.
func TestPaneArmDelay(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		now := time.Unix(1_000_000, 0)
		d := newDriver(t, Options{ArmDelay: 300 * time.Millisecond, Now: func() time.Time { return now }})
		p := formPrompt(t, "demo", 1, "Who are you?", nameSchema)
		d.open(p)
		d.typeText("Ada")
		d.keys(keyEsc, keyCtrlX, keyEnter)
		d.noReply(p.Key)
		if s := d.screen(); !strings.Contains(s, "just arrived") {
			t.Errorf("the held-back key is not explained:\n%s", s)
		}
		// In a tile (two questions at 120×40) the explanation wraps, whole.
		q := formPrompt(t, "demo", 2, "And where?", nameSchema)
		d.open(q)
		if s := focusedTile(d); !strings.Contains(s, "just arrived: read it first (keys that answer it are taken after a moment)") {
			t.Errorf("the explanation is cut in a tile:\n%s", d.screen())
		}
		now = now.Add(300 * time.Millisecond)
		d.keys(keyEnter)
		if got := d.reply(p.Key); got.Kind != question.Accept || !cmp.Equal(got.Content, map[string]any{"name": "Ada"}) {
			t.Fatalf("reply %+v, want accept name=Ada (the typing before the delay kept)", got)
		}
	})
}

// TestCtrlCAsksOnceWithQuestionsOpen: ctrl+c with a question open asks
// first (the question stays open, nothing is sent); a second ctrl+c
// quits; any other key in between withdraws the question.
func TestCtrlCAsksOnceWithQuestionsOpen(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		p := formPrompt(t, "demo", 1, "Who are you?", nameSchema)
		d.open(p)
		ctrlC := tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
		if cmd := d.m.handleKey(ctrlC); cmd != nil {
			t.Fatal("the first ctrl+c with a question open quit")
		}
		if s := d.screen(); !strings.Contains(s, "ctrl+c again quits") {
			t.Errorf("no question asked:\n%s", s)
		}
		d.noReply(p.Key)
		d.m.handleKey(tea.KeyPressMsg{Code: 'x', Text: "x"})
		if s := d.screen(); strings.Contains(s, "ctrl+c again quits") {
			t.Errorf("the withdrawn question is still on screen:\n%s", s)
		}
		if cmd := d.m.handleKey(ctrlC); cmd != nil {
			t.Fatal("ctrl+c after another key quit without asking again")
		}
		cmd := d.m.handleKey(ctrlC)
		if cmd == nil {
			t.Fatal("the second ctrl+c did not quit")
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Fatal("the second ctrl+c's command is not quit")
		}
	})
}

// TestPaneNamesTheServerAsItNamesItself: the pane header shows the
// server's own title beside its configured name, sanitized.
func TestPaneNamesTheServerAsItNamesItself(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, func(e *fakeEngine) {
			e.servers[0].Info = wire.Implementation{Name: "elicit-demo", Title: "Elicit \x1b[31mDemo"}
		})
		d.open(formPrompt(t, "demo", 1, "Who are you?", nameSchema))
		mustShow(t, d, "demo (Elicit ␛[31mDemo)  demo#1")
	})
}

// TestFooterKeepsTheWaysOutNarrow: at 60 columns the question's footer
// still shows Decline, Esc and F2.
func TestFooterKeepsTheWaysOutNarrow(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		d.send(tea.WindowSizeMsg{Width: 60, Height: 24})
		d.open(formPrompt(t, "demo", 1, "Who are you?", nameSchema))
		mustShow(t, d, "Decline ctrl+x", "esc cancel", "F2 next")
	})
}

// TestFailedServerShowsWhy: a server that failed to start is named on the
// empty questions screen with its error and the tail of its stderr,
// sanitized.
func TestFailedServerShowsWhy(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, func(e *fakeEngine) {
			e.servers = append(e.servers, ServerStatus{Name: "broken", State: client.StateFailed, Err: errors.New("connect to broken: initialize: EOF")})
		})
		d.m.bridge.Stderr("broken", "node:internal/modules/cjs/loader:1228")
		d.m.bridge.Stderr("broken", "Error: Cannot find module '\x1b[31m/x/server.js'")
		d.m.bridge.Stderr("demo", "a line of another server")
		d.waitInbox()
		d.send(tea.WindowSizeMsg{Width: 120, Height: 30})
		mustShow(t, d, "✗ broken failed: connect to broken: initialize: the connection closed", "Error: Cannot find module '␛[31m/x/server.js'", "F8 shows all of it")
		if strings.Contains(d.screen(), "a line of another server") {
			t.Error("another server's stderr is shown as the failed one's")
		}
	})
}

// TestEmptyScreenSaysWhatToTry: with no question open, the questions
// screen says what to try first: on the embedded demo a concrete tool on
// a named server (the first demo server that is ready), elsewhere the same
// steps with any tool; at 80 columns every line is whole.
func TestEmptyScreenSaysWhatToTry(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		mustShow(t, d, "F5 Tools, pick a tool (↑↓; s for the next server), Enter calls it.")
		if strings.Contains(d.screen(), "deploy") {
			t.Error("a server that is not the demo is told to call the demo's deploy")
		}

		d = newDriver(t, Options{}, func(e *fakeEngine) {
			e.servers = []ServerStatus{
				{Name: "demo-2025-11-25", State: client.StateConnecting},
				{Name: "demo-2026-07-28", State: client.StateReady, Protocol: "2026-07-28", Info: wire.Implementation{Name: "elicit-demo"}},
			}
		})
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		mustShow(t, d, "Try the deploy tool first:", "F5 Tools, s until it shows demo-2026-07-28, ↓ to deploy, Enter twice.",
			"  Its question opens here (F4): enter accepts, ctrl+x declines, esc cancels.",
			"  Every tool works on the server that lists it; F7 shows how each question",
			"  palette has an MCP App: o on it in F5 opens it as a local page.")
	})
}

// focusedTile is the text of the focused tile (drawn in ┃), its lines'
// words joined by one space, so a sentence wrapped in it reads whole.
func focusedTile(d *driver) string {
	var words []string
	for _, l := range strings.Split(d.screen(), "\n") {
		if _, in, ok := strings.Cut(l, "┃"); ok {
			in, _, _ = strings.Cut(in, "┃")
			words = append(words, strings.Fields(in)...)
		}
	}
	return strings.Join(words, " ")
}
