package hub

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

// endedMax bounds how many ended questions a session remembers, to tell a
// late answer how its question ended.
const endedMax = 1024

// Prompter is a session's question.Prompter in the hub: each question
// waits, keyed, with no timeout, until an answer settles it (Answer, the
// call's own policy, or the Next prompter: an attached TUI); the first
// answer wins.
type Prompter struct {
	s *Session

	mu   sync.Mutex
	open map[string]*pending // by key, answerable
	// unresolved are questions until the engine journalled them
	// (PromptResolved), so an answer can wait for what went out.
	unresolved map[string]*pending
	ended      map[string]string // key → how it ended, for a late answer
	endedOrder []string
	att        *attachment // the attached prompter, if any
	nexts      sync.WaitGroup
}

// attachment is a prompter every open question is handed to as well
// (Attach).
type attachment struct {
	p      question.Prompter
	ctx    context.Context
	cancel context.CancelCauseFunc
}

// ErrSettled and ErrDetached are the causes an attached prompter's
// question context ends with: the question was settled elsewhere (or
// ended: withdrawn, abandoned…), or the prompter was detached.
var (
	ErrSettled  = errors.New("the question was settled elsewhere")
	ErrDetached = errors.New("detached")
)

// pending is one question in the hub.
type pending struct {
	q     *question.Question
	key   string
	call  *Call // nil when none is known
	maybe []string
	since time.Time

	answer  chan question.Outcome // buffered: the first claim never waits
	claimed bool                  // under Prompter.mu
	// live ends (ErrSettled) when the question is settled or ended; what
	// an attached prompter was handed ends with it.
	live context.Context
	// resolved is closed once the engine journalled the question; entry
	// and sent are set before.
	resolved chan struct{}
	entry    question.JournalEntry
	sent     string
}

func newPrompter(s *Session) *Prompter {
	return &Prompter{s: s, open: map[string]*pending{}, unresolved: map[string]*pending{}, ended: map[string]string{}}
}

// Attach hands every open question, and each one opened until detach is
// called, to next as well: an attached TUI (a ui.Bridge). What next
// answers competes with every other answer (the first wins); its
// question's context ends with ErrSettled when the question is settled
// elsewhere, with the engine's cause when it ends otherwise (withdrawn,
// abandoned…), and with ErrDetached on detach. One prompter is
// attached at a time: a second Attach detaches the first.
func (p *Prompter) Attach(next question.Prompter) (detach func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	att := &attachment{p: next, ctx: ctx, cancel: cancel}
	p.mu.Lock()
	old := p.att
	p.att = att
	var open []*pending
	for _, pd := range p.open {
		if !pd.claimed {
			open = append(open, pd)
		}
	}
	p.mu.Unlock()
	if old != nil {
		old.cancel(ErrDetached)
	}
	slices.SortFunc(open, func(a, b *pending) int { return a.since.Compare(b.since) })
	for _, pd := range open {
		p.hand(att, pd)
	}
	return func() {
		p.mu.Lock()
		if p.att == att {
			p.att = nil
		}
		p.mu.Unlock()
		cancel(ErrDetached)
	}
}

// hand gives pd to the attached prompter; its answer is claimed like any
// other.
func (p *Prompter) hand(att *attachment, pd *pending) {
	nctx, stop := context.WithCancelCause(pd.live)
	unhook := context.AfterFunc(att.ctx, func() { stop(context.Cause(att.ctx)) })
	p.nexts.Go(func() {
		defer stop(nil)
		defer unhook()
		out := att.p.Prompt(nctx, pd.q)
		if nctx.Err() == nil {
			_, _ = p.claim(pd.key, out)
		}
	})
}

// Prompt implements question.Prompter.
func (p *Prompter) Prompt(ctx context.Context, q *question.Question) question.Outcome {
	call, maybe := p.s.callOf(q.Origin)
	pd := &pending{q: q, key: q.Key.String(), call: call, maybe: maybe, since: q.Arrived,
		answer: make(chan question.Outcome, 1), resolved: make(chan struct{})}
	if pd.since.IsZero() {
		pd.since = time.Now()
	}
	if call != nil {
		call.opened(pd) // its result waits for the question's journal entry
		if pol := call.policy(); pol != nil {
			p.mu.Lock()
			p.unresolved[pd.key] = pd
			p.mu.Unlock()
			return pol.Prompt(ctx, q) // never open: nobody else may answer it
		}
	}
	live, settle := context.WithCancelCause(ctx)
	defer settle(ErrSettled)
	pd.live = live
	p.mu.Lock()
	p.open[pd.key] = pd
	p.unresolved[pd.key] = pd
	att := p.att
	p.mu.Unlock()
	if att != nil {
		p.hand(att, pd)
	}
	select {
	case out := <-pd.answer:
		p.end(pd, "answered ("+out.Kind.String()+")")
		return out
	case <-ctx.Done():
		p.end(pd, endingOf(context.Cause(ctx)))
		return question.Outcome{Kind: question.Cancel} // the engine decides, by the cause
	}
}

// endingOf names how a question ended by its context's cause.
func endingOf(cause error) string {
	switch {
	case errors.Is(cause, question.ErrWithdrawn):
		return "withdrawn"
	case errors.Is(cause, question.ErrAbandoned):
		return "abandoned"
	case errors.Is(cause, question.ErrDisconnected):
		return "disconnected"
	case errors.Is(cause, question.ErrTimeout):
		return "timeout"
	case cause == nil:
		return "ended"
	}
	return "ended (" + cause.Error() + ")"
}

// end takes pd out of the open questions, remembering how it ended.
func (p *Prompter) end(pd *pending, how string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.open[pd.key] == pd {
		delete(p.open, pd.key)
	}
	if _, seen := p.ended[pd.key]; !seen {
		p.endedOrder = append(p.endedOrder, pd.key)
		if len(p.endedOrder) > endedMax {
			delete(p.ended, p.endedOrder[0])
			p.endedOrder = p.endedOrder[1:]
		}
	}
	p.ended[pd.key] = how
}

// errEnded is an answer to a question that is no longer open.
type errEnded struct{ key, how string }

func (e *errEnded) Error() string {
	return fmt.Sprintf("question %s already ended: %s", e.key, e.how)
}

// errUnknown is an answer to a key the session never had.
type errUnknown struct{ key string }

func (e *errUnknown) Error() string {
	return fmt.Sprintf("no question %s in this session (elicit questions lists the open ones)", e.key)
}

// lookup is the open question key, or why there is none.
func (p *Prompter) lookup(key string) (*pending, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pd := p.open[key]; pd != nil && !pd.claimed {
		return pd, nil
	}
	if pd := p.open[key]; pd != nil {
		return nil, &errEnded{key: key, how: "answered"}
	}
	if how, ok := p.ended[key]; ok {
		return nil, &errEnded{key: key, how: how}
	}
	return nil, &errUnknown{key: key}
}

// claim settles the open question key with out, if no answer came first.
func (p *Prompter) claim(key string, out question.Outcome) (*pending, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pd := p.open[key]
	if pd == nil {
		if how, ok := p.ended[key]; ok {
			return nil, &errEnded{key: key, how: how}
		}
		return nil, &errUnknown{key: key}
	}
	if pd.claimed {
		return nil, &errEnded{key: key, how: "answered"}
	}
	pd.claimed = true
	pd.answer <- out
	return pd, nil
}

// Event implements client.Observer: a question's journal entry ends the
// wait of the answer that settled it.
func (p *Prompter) Event(e client.Event) {
	r, ok := e.(client.PromptResolved)
	if !ok {
		return
	}
	p.resolve(r.Key.String(), r.Entry, r.Sent)
}

// resolve ends the wait of the answer that settled key: entry is how it
// ended, sent what went out.
func (p *Prompter) resolve(key string, entry question.JournalEntry, sent string) {
	p.mu.Lock()
	pd := p.unresolved[key]
	delete(p.unresolved, key)
	p.mu.Unlock()
	if pd != nil {
		pd.entry, pd.sent = entry, sent
		close(pd.resolved)
	}
}

// list is the open questions, oldest first.
func (p *Prompter) list() []QuestionInfo {
	p.mu.Lock()
	var open []*pending
	for _, pd := range p.open {
		if !pd.claimed {
			open = append(open, pd)
		}
	}
	p.mu.Unlock()
	slices.SortFunc(open, func(a, b *pending) int { return a.since.Compare(b.since) })
	out := make([]QuestionInfo, 0, len(open))
	for _, pd := range open {
		qi := pd.info()
		if p.s.proxy != nil { // no call of the hub's: its host's
			qi.Origin = "host"
		}
		out = append(out, qi)
	}
	return out
}

// count is how many questions are open.
func (p *Prompter) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.open)
}

// info is what elicit questions shows of pd.
func (pd *pending) info() QuestionInfo {
	q := pd.q
	qi := QuestionInfo{Key: pd.key, Server: q.Server, Message: q.Message, Mode: string(q.Mode), URL: q.URL, Since: pd.since}
	if len(q.RawSchema) > 0 && q.Mode != question.ModeURL {
		qi.RequestedSchema = q.RawSchema
	}
	switch {
	case pd.call != nil:
		qi.Call = pd.call.ID
	case len(q.Origin.Maybe) > 0:
		qi.Origin, qi.Maybe = "ambiguous", pd.maybe
	default:
		qi.Origin = "unknown"
	}
	return qi
}
