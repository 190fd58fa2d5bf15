package ui

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

// inbox is a program stand-in: it collects what the Bridge delivers.
type inbox chan tea.Msg

func (in inbox) send(msg tea.Msg) { in <- msg }

// opened waits for the next promptOpenedMsg, skipping other messages.
func (in inbox) opened(t *testing.T) promptOpenedMsg {
	t.Helper()
	for {
		select {
		case msg := <-in:
			if o, ok := msg.(promptOpenedMsg); ok {
				return o
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no prompt delivered")
		}
	}
}

// none says nothing of the kind T is waiting in the inbox.
func noneOf[T any](t *testing.T, in inbox) {
	t.Helper()
	for {
		select {
		case msg := <-in:
			if _, ok := msg.(T); ok {
				t.Fatalf("delivered %#v, want none", msg)
			}
		default:
			return
		}
	}
}

// prompting runs Bridge.Prompt as the engine does, in its own goroutine.
func prompting(ctx context.Context, br *Bridge, p *question.Question) <-chan question.Outcome {
	out := make(chan question.Outcome, 1)
	go func() { out <- br.Prompt(ctx, p) }()
	return out
}

func outcomeOf(t *testing.T, out <-chan question.Outcome) question.Outcome {
	t.Helper()
	select {
	case o := <-out:
		return o
	case <-time.After(5 * time.Second):
		t.Fatal("Prompt did not return")
	}
	return question.Outcome{}
}

// TestBridgeDetachedKeepsPrompts: a Bridge that starts detached (the
// hub's, before any TUI attaches) takes events without blocking the
// engine, keeps the prompts asked meanwhile, and shows them to the
// program that attaches, which answers them once.
func TestBridgeDetachedKeepsPrompts(t *testing.T) {
	t.Parallel()
	br := NewBridge(BridgeOptions{})
	defer br.Close()
	br.Detach()
	opens := watchOpens(br)
	done := make(chan struct{})
	go func() {
		defer close(done)
		br.Event(client.Notice{Text: "nobody is attached"})
		br.AgentsChanged()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a lane-2 event blocked the engine while no TUI was attached")
	}
	// The log view records notices as they come; with nobody attached
	// the ring took it, so the next TUI's log has it.
	if rows, _ := br.streams.logWindow("", 0, 10); len(rows) != 1 || rows[0].Text != "nobody is attached" {
		t.Fatalf("log ring = %+v, want the notice given while detached", rows)
	}
	p1 := formPrompt(t, "demo", 1, "first", defaultSchema)
	p2 := formPrompt(t, "demo", 2, "second", defaultSchema)
	out1 := prompting(t.Context(), br, p1)
	taken(t, opens, p1.Key)
	out2 := prompting(t.Context(), br, p2)
	taken(t, opens, p2.Key)

	in := make(inbox, 16)
	br.Attach(in.send)
	a, b := in.opened(t), in.opened(t)
	if a.p.Key != p1.Key || b.p.Key != p2.Key {
		t.Fatalf("shown %v, %v; want the prompts in the order asked", a.p.Key, b.p.Key)
	}
	b.reply <- question.Outcome{Kind: question.Decline}
	if o := outcomeOf(t, out2); o.Kind != question.Decline {
		t.Fatalf("second = %+v, want decline", o)
	}
	a.reply <- question.Outcome{Kind: question.Accept, Content: map[string]any{"name": "x"}}
	if o := outcomeOf(t, out1); o.Kind != question.Accept {
		t.Fatalf("first = %+v, want accept", o)
	}
}

// TestBridgeReattachShowsOpenPrompts: a TUI that quits (Detach) leaves
// its open prompts open; the next one to attach shows them again, a
// prompt answered before the detach is not shown again, and one whose
// context ended while nobody was attached is gone.
func TestBridgeReattachShowsOpenPrompts(t *testing.T) {
	t.Parallel()
	br := NewBridge(BridgeOptions{})
	defer br.Close()
	first := make(inbox, 16)
	br.Attach(first.send)
	open := formPrompt(t, "demo", 1, "stays open", defaultSchema)
	answered := formPrompt(t, "demo", 2, "answered", defaultSchema)
	ended := formPrompt(t, "demo", 3, "withdrawn", defaultSchema)
	endCtx, end := context.WithCancelCause(t.Context())
	outOpen := prompting(t.Context(), br, open)
	first.opened(t)
	outAnswered := prompting(t.Context(), br, answered)
	ans := first.opened(t)
	outEnded := prompting(endCtx, br, ended)
	first.opened(t)
	// The first program answers one, then quits.
	ans.reply <- question.Outcome{Kind: question.Decline}
	br.Detach()
	end(question.ErrWithdrawn)
	if o := outcomeOf(t, outAnswered); o.Kind != question.Decline {
		t.Fatalf("answered = %+v, want its decline", o)
	}
	outcomeOf(t, outEnded)
	noneOf[promptClosedMsg](t, first) // nobody is attached to be told

	second := make(inbox, 16)
	br.Attach(second.send)
	again := second.opened(t)
	if again.p.Key != open.Key {
		t.Fatalf("re-attach showed %v, want only %v", again.p.Key, open.Key)
	}
	noneOf[promptOpenedMsg](t, second)
	again.reply <- question.Outcome{Kind: question.Cancel}
	if o := outcomeOf(t, outOpen); o.Kind != question.Cancel {
		t.Fatalf("open = %+v, want the second program's cancel", o)
	}
}

// TestBridgeReattachAfterAnswerInFlight: an answer the first program
// sent just before it quit, which the Prompt goroutine had not taken yet
// when the next program attached, is the answer; the pane shown again
// for it is closed, so the person is not asked twice.
func TestBridgeReattachAfterAnswerInFlight(t *testing.T) {
	t.Parallel()
	br := NewBridge(BridgeOptions{})
	defer br.Close()
	first := make(inbox, 16)
	br.Attach(first.send)
	p := formPrompt(t, "demo", 1, "q", defaultSchema)
	out := prompting(t.Context(), br, p)
	shown := first.opened(t)
	shown.reply <- question.Outcome{Kind: question.Decline}
	br.Detach()
	second := make(inbox, 16)
	br.Attach(second.send)
	if o := outcomeOf(t, out); o.Kind != question.Decline {
		t.Fatalf("outcome = %+v, want the first program's decline", o)
	}
	// Either it was not shown again, or it was and is closed at once.
	for {
		select {
		case msg := <-second:
			switch msg := msg.(type) {
			case promptOpenedMsg:
				select {
				case c := <-second:
					if cl, ok := c.(promptClosedMsg); !ok || cl.key != p.Key {
						t.Fatalf("re-shown pane followed by %#v, want its close", c)
					}
				case <-time.After(5 * time.Second):
					t.Fatal("a pane for an answered prompt was shown and never closed")
				}
			case promptClosedMsg:
				t.Fatalf("closed %v that was never shown", msg.key)
			}
		default:
			return
		}
	}
}

// watchOpens reports each prompt the Bridge takes in, once it holds it.
func watchOpens(br *Bridge) <-chan question.Key {
	ch := make(chan question.Key, 16)
	br.onOpen = func(k question.Key) { ch <- k }
	return ch
}

// taken waits for the Bridge to hold the prompt keyed k.
func taken(t *testing.T, opens <-chan question.Key, k question.Key) {
	t.Helper()
	select {
	case got := <-opens:
		if got != k {
			t.Fatalf("bridge took %v, want %v", got, k)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("bridge never took %v", k)
	}
}

// TestReattachProgramShowsPane runs two real programs one after the
// other on one Bridge, as `elicit attach` twice does: the pane the first
// showed is on the second's screen and the second's answer is the one.
func TestReattachProgramShowsPane(t *testing.T) {
	t.Parallel()
	eng := newFakeEngine()
	br := NewBridge(BridgeOptions{})
	defer br.Close()
	br.Detach()
	opens := watchOpens(br)
	p := formPrompt(t, "demo", 1, "Who are you?", defaultSchema)
	out := prompting(t.Context(), br, p)
	taken(t, opens, p.Key)
	for run := range 2 {
		m := New(eng, br, Options{Context: t.Context(), OpenURL: func(string) error { return nil }, ArmDelay: -1, Attached: true})
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
		br.Attach(tm.Send)
		waitProbe(t, tm, func(m *Model) bool { return len(m.prompts.panes) == 1 && m.prompts.panes[0].open() })
		if run == 0 {
			// ctrl+c with a question open detaches at once: the question
			// stays the session's.
			tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
			tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
			br.Detach()
			select {
			case o := <-out:
				t.Fatalf("quitting the attached TUI answered the prompt: %+v", o)
			default:
			}
			continue
		}
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		if o := outcomeOf(t, out); o.Kind != question.Accept || o.Content["name"] != "dflt" {
			t.Fatalf("outcome = %+v, want accept dflt", o)
		}
		tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
		br.Detach()
	}
}
