package ui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"
	"github.com/elicit-dev/elicit/client/question"
)

// defaultSchema has a default, so a stray "next field" message would
// complete its form: the race below would then accept the wrong prompt.
const defaultSchema = `{"type":"object","properties":{"name":{"type":"string","title":"Name","default":"dflt"}},"required":["name"]}`

// TestEnterThenSwitchIsDeterministic replays the race step by step: Enter
// in pane A, then F2 before A's commands have run. A's result must reach
// A, not the pane that has focus when it arrives.
func TestEnterThenSwitchIsDeterministic(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		a := formPrompt(t, "demo", 1, "A", defaultSchema)
		b := formPrompt(t, "demo", 2, "B", defaultSchema)
		d.open(a)
		d.open(b)
		d.typeText("x")
		_, cmd := d.m.Update(keyEnter) // A's nextField is now pending in cmd
		d.send(keyF2)                  // focus moves to B
		d.run(cmd)                     // A's messages arrive after the switch
		if got := d.reply(a.Key); got.Kind != question.Accept || got.Content["name"] != "dfltx" {
			t.Fatalf("A reply = %+v, want accept name=dfltx", got)
		}
		d.noReply(b.Key)
		if d.m.prompts.focus != d.m.prompts.byKey[b.Key].id {
			t.Fatal("focus left B")
		}
	})
}

// TestEnterThenSwitchRace runs the same race through a real tea.Program
// many times, with prompts arriving through Bridge.Prompt (lane 1).
func TestEnterThenSwitchRace(t *testing.T) {
	t.Parallel()
	for i := range 20 {
		runSwitchRace(t, i)
	}
}

func runSwitchRace(t *testing.T, run int) {
	t.Helper()
	eng := newFakeEngine()
	br := NewBridge(BridgeOptions{})
	defer br.Close()
	m := New(eng, br, Options{Context: t.Context(), OpenURL: func(string) error { return nil }, ArmDelay: -1})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	br.Attach(tm.Send)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := formPrompt(t, "demo", 1, "A", defaultSchema)
	b := formPrompt(t, "demo", 2, "B", defaultSchema)
	outs := map[question.Key]chan question.Outcome{a.Key: make(chan question.Outcome, 1), b.Key: make(chan question.Outcome, 1)}
	for i, p := range []*question.Question{a, b} {
		go func() { outs[p.Key] <- br.Prompt(ctx, p) }()
		waitProbe(t, tm, func(m *Model) bool { return len(m.prompts.panes) == i+1 })
	}
	waitProbe(t, tm, func(m *Model) bool { return m.prompts.focused() != nil && m.prompts.focused().p.Key == a.Key })
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyF2})
	select {
	case o := <-outs[a.Key]:
		if o.Kind != question.Accept || o.Content["name"] != "dflt" {
			t.Fatalf("run %d: A = %+v, want accept dflt", run, o)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("run %d: A was never answered", run)
	}
	waitProbe(t, tm, func(m *Model) bool { return m.prompts.focused() != nil && m.prompts.focused().p.Key == b.Key })
	select {
	case o := <-outs[b.Key]:
		t.Fatalf("run %d: B answered %+v by A's Enter", run, o)
	default:
	}
	cancel() // B's prompt ends (as on quit); Prompt returns
	<-outs[b.Key]
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// waitProbe polls the model on its event loop until cond holds.
func waitProbe(t *testing.T, tm *teatest.TestModel, cond func(*Model) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		ch := make(chan bool, 1)
		tm.Send(Probe(func(m *Model) { ch <- cond(m) }))
		select {
		case ok := <-ch:
			if ok {
				return
			}
		case <-time.After(time.Second):
		}
		time.Sleep(5 * time.Millisecond) // the interval of a poll of the model's state, not a wait for it
	}
	t.Fatal("condition not reached within 5 s")
}

// TestScreenReplay checks the real program's screen through x/vt.
func TestScreenReplay(t *testing.T) {
	t.Parallel()
	eng := newFakeEngine()
	br := NewBridge(BridgeOptions{})
	defer br.Close()
	m := New(eng, br, Options{Context: t.Context(), ArmDelay: -1})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	br.Attach(tm.Send)
	ctx, cancel := context.WithCancel(context.Background())
	p := formPrompt(t, "demo", 9, "Deploy to which place?", nameSchema)
	done := make(chan question.Outcome, 1)
	go func() { done <- br.Prompt(ctx, p) }()
	waitProbe(t, tm, func(m *Model) bool { return len(m.prompts.panes) == 1 })
	tm.Send(tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl})
	if o := <-done; o.Kind != question.Decline {
		t.Fatalf("reply %v, want decline", o.Kind)
	}
	cancel()
	waitProbe(t, tm, func(m *Model) bool { return m.prompts.focused() != nil && !m.prompts.focused().open() })
	// Replay the output into a virtual terminal until the frame shows (the
	// renderer draws asynchronously), then check it.
	emu, stopEmu := newEmulator(100, 30)
	// The tab on show keeps its name however narrow the bar gets.
	wants := []string{"demo#9", "sent decline", "F4 Questions"}
	screen := ""
	// The sleep is the interval of a poll of the screen, not a wait for it.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		out, err := io.ReadAll(tm.Output())
		if err != nil {
			t.Fatal(err)
		}
		_, _ = emu.Write(bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n")))
		if screen = emu.String(); containsAll(screen, wants) {
			break
		}
	}
	stopEmu()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	for _, want := range wants {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
}

func containsAll(s string, subs []string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// newEmulator returns a virtual terminal whose replies to queries (the
// program asks for the background colour) are drained, and a stop func.
// vt's Close races with a pending Read, so stop first makes the drainer
// return on its own: it asks for the cursor position (a reply ending in
// 'R') and the drainer exits once it has read that reply, which also
// unblocks the Write that produced it.
func newEmulator(w, h int) (*vt.Emulator, func()) {
	emu := vt.NewEmulator(w, h)
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 256)
		for {
			n, err := emu.Read(buf)
			if err != nil || (stop.Load() && bytes.HasSuffix(buf[:n], []byte("R"))) {
				return
			}
		}
	}()
	return emu, func() {
		stop.Store(true)
		_, _ = emu.Write([]byte("\x1b[6n"))
		<-done
		_ = emu.Close()
	}
}
