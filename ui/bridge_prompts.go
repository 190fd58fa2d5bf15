package ui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/question"
)

// How the Bridge holds prompts across programs. A program that quits
// while prompts are open (elicit attach's TUI, which leaves the session
// running) takes nothing with it: each prompt stays in the table until it
// is answered or its context ends, and the next program to attach is
// shown every one still there. Each showing gets its own reply channel,
// so an answer is known to come from the program it was shown to: an
// answer sent by a program that has gone, taken after the prompt was
// shown again, closes the pane shown again instead of asking twice.

// errAnsweredBefore closes a pane shown again for a prompt an earlier
// program had already answered; the engine's verdict follows.
var errAnsweredBefore = errors.New("answered before this attach")

// heldPrompt is one prompt waiting for its answer.
type heldPrompt struct {
	p *question.Question
	// reply is the channel of the latest showing (capacity 1, the pane's
	// only send); moved is closed when a newer showing replaces it.
	reply chan question.Outcome
	moved chan struct{}
	// gen is the Attach it was last shown to (0: never shown); shown,
	// that its message has gone to that program (reshow sends from a
	// goroutine of its own); closing, the cause of a close due once it
	// has.
	gen     int
	shown   bool
	closing error
}

// promptTable is the Bridge's held prompts in the order asked; guarded
// by Bridge.mu.
type promptTable struct {
	held []*heldPrompt
}

func (t *promptTable) add(e *heldPrompt) { t.held = append(t.held, e) }

func (t *promptTable) has(e *heldPrompt) bool {
	for _, h := range t.held {
		if h == e {
			return true
		}
	}
	return false
}

func (t *promptTable) remove(e *heldPrompt) {
	for i, h := range t.held {
		if h == e {
			t.held = append(t.held[:i], t.held[i+1:]...)
			return
		}
	}
}

// reshow gives every held prompt not yet shown to program gen a new
// showing and returns them in the order asked, for showAll. A prompt whose
// answer waits in its channel (sent by the program that just left) is
// not shown again: its Prompt is about to take that answer.
func (t *promptTable) reshow(gen int) []*heldPrompt {
	var out []*heldPrompt
	for _, e := range t.held {
		if e.gen == gen || len(e.reply) > 0 {
			continue
		}
		e.reply = make(chan question.Outcome, 1)
		close(e.moved)
		e.moved = make(chan struct{})
		e.gen, e.shown = gen, false
		out = append(out, e)
	}
	return out
}

// showAll shows the prompts reshow picked to the program gen, in order,
// unless one ended meanwhile; a close that came while its message was
// on its way follows it.
func (b *Bridge) showAll(gen int, send func(tea.Msg), list []*heldPrompt) {
	for _, e := range list {
		b.mu.Lock()
		live := e.gen == gen && b.prompts.has(e)
		msg := promptOpenedMsg{p: e.p, reply: e.reply}
		b.mu.Unlock()
		if !live {
			continue
		}
		send(msg)
		b.mu.Lock()
		e.shown = true
		cause := e.closing
		b.mu.Unlock()
		if cause != nil {
			send(promptClosedMsg{key: e.p.Key, cause: cause})
		}
	}
}

// closeShown tells the program that shows e that its prompt ended;
// called with b.mu held, it returns what to send after unlocking. A pane
// whose message is still on its way is closed by showAll after it.
func (b *Bridge) closeShown(e *heldPrompt, cause error) func() {
	if e.gen == 0 || e.gen != b.gen || b.send == nil {
		return func() {}
	}
	if !e.shown {
		e.closing = cause
		return func() {}
	}
	send := b.send
	return func() { send(promptClosedMsg{key: e.p.Key, cause: cause}) }
}

// hold takes a new prompt into the table and, when a program is
// attached, returns its message and the program's send. It returns a nil
// prompt once the Bridge is closed.
func (b *Bridge) hold(p *question.Question) (*heldPrompt, tea.Msg, func(tea.Msg)) {
	select {
	case <-b.closed:
		return nil, nil, nil
	default:
	}
	e := &heldPrompt{p: p, reply: make(chan question.Outcome, 1), moved: make(chan struct{})}
	b.mu.Lock()
	b.prompts.add(e)
	send := b.send
	if send != nil {
		// Sent by Prompt right after, before anything can close it.
		e.gen, e.shown = b.gen, true
	}
	hook := b.onOpen
	b.mu.Unlock()
	if hook != nil {
		hook(p.Key)
	}
	return e, promptOpenedMsg{p: e.p, reply: e.reply}, send
}

// await waits for the prompt's answer from whichever program shows it,
// or for ctx to end.
func (b *Bridge) await(ctx context.Context, e *heldPrompt) question.Outcome {
	for {
		b.mu.Lock()
		reply, moved := e.reply, e.moved
		b.mu.Unlock()
		select {
		case o := <-reply:
			b.mu.Lock()
			b.prompts.remove(e)
			closed := func() {}
			if e.reply != reply {
				// Shown again after this answer was sent: close that pane.
				closed = b.closeShown(e, errAnsweredBefore)
			}
			b.mu.Unlock()
			closed()
			return o
		case <-moved:
			// A new showing: an answer the old one sent before it was
			// replaced was kept out of reshow (len(reply) > 0), so the old
			// channel is empty here.
		case <-ctx.Done():
			b.mu.Lock()
			b.prompts.remove(e)
			closed := b.closeShown(e, context.Cause(ctx))
			b.mu.Unlock()
			closed()
			return question.Outcome{Kind: question.Cancel, Reason: "prompt context ended"}
		case <-b.closed:
			b.mu.Lock()
			b.prompts.remove(e)
			b.mu.Unlock()
			return question.Outcome{Kind: question.Cancel, Reason: "UI closed"}
		}
	}
}
