package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
)

// replayPrompter answers a replayed session's questions as the recording
// says they were answered. A question is matched to a recorded one by
// what it asks (kind, mode, message, schema, the URL's volatile parts
// aside), never by its key: ids differ between runs. A question whose
// message matches but whose schema does not is the same question
// changed; one matching nothing is extra, and is cancelled.
type replayPrompter struct {
	wait   time.Duration
	permit permitPolicy // what a recorded allow may allow (permit.go)

	mu sync.Mutex
	// expected are the current call's recorded answers; outside those
	// asked during no call (kept for the whole session).
	expected, outside []*expectation
	cancel            context.CancelFunc // the current call's
	seen              []*seenQuestion
	byKey             map[question.Key]*seenQuestion
	resolved          chan struct{} // a token per outcome reported
}

type expectation struct {
	a    record.Answer
	used bool
}

// seenQuestion is a question of the replay and how it ended.
type seenQuestion struct {
	key      question.Key
	q        *record.Question
	match    *expectation // nil: extra
	changed  bool         // matched by message only: its shape changed
	outcome  string       // "" until the engine reported it
	sent     string
	content  map[string]any
	resolved bool
	refused  string // why the recorded answer was not given (permit.go)
}

func newReplayPrompter(wait time.Duration) *replayPrompter {
	return &replayPrompter{wait: wait, byKey: map[question.Key]*seenQuestion{}, resolved: make(chan struct{}, 1)}
}

// begin sets up the questions of the next call.
func (p *replayPrompter) begin(expected []record.Answer, cancel context.CancelFunc) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expected = nil
	for _, a := range expected {
		p.expected = append(p.expected, &expectation{a: a})
	}
	p.cancel, p.seen = cancel, nil
	clear(p.byKey)
}

// addOutside adds recorded answers asked during no call.
func (p *replayPrompter) addOutside(a record.Answer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.outside = append(p.outside, &expectation{a: a})
}

// cameOutside reports whether a recorded answer of no call was matched.
func (p *replayPrompter) cameOutside(a record.Answer) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.outside {
		if e.a.Seq == a.Seq {
			return e.used
		}
	}
	return false
}

// end waits (up to p.wait) for every question of the call to be
// reported ended, and returns them.
func (p *replayPrompter) end(ctx context.Context) []*seenQuestion {
	deadline := time.NewTimer(p.wait)
	defer deadline.Stop()
	defer func() {
		// A question coming late is matched to no call's answers.
		p.mu.Lock()
		p.expected, p.cancel = nil, nil
		p.mu.Unlock()
	}()
	for {
		p.mu.Lock()
		done := !slices.ContainsFunc(p.seen, func(s *seenQuestion) bool { return !s.resolved })
		seen := slices.Clone(p.seen)
		p.mu.Unlock()
		if done {
			return seen
		}
		select {
		case <-p.resolved:
		case <-deadline.C:
			return seen
		case <-ctx.Done():
			return seen
		}
	}
}

// Prompt implements question.Prompter.
func (p *replayPrompter) Prompt(ctx context.Context, q *question.Question) question.Outcome {
	rq := record.QuestionOf(q)
	p.mu.Lock()
	s := p.see(q.Key, rq)
	cancel := p.cancel
	p.mu.Unlock()
	if s.match == nil {
		return question.Outcome{Kind: question.Cancel, Reason: "replay: the recording has no such question"}
	}
	a := s.match.a
	switch a.Outcome {
	case "withdrawn", "disconnected", "timeout", "open":
		// It ended by itself: wait for that (bounded).
		p.waitEnd(ctx)
		return question.Outcome{Kind: question.Cancel, Reason: "replay: the recording says this question ended as " + a.Outcome}
	case "abandoned":
		// The person cancelled the call while it was open.
		if cancel != nil {
			cancel()
		}
		p.waitEnd(ctx)
		return question.Outcome{Kind: question.Cancel, Reason: "replay: the call was cancelled"}
	}
	out := recordedOutcome(a)
	if why := p.permit.refusal(q, rq, a, out); why != "" {
		p.mu.Lock()
		s.refused = why
		p.mu.Unlock()
		return question.Outcome{Kind: question.Decline, Reason: "replay: " + why}
	}
	return out
}

// recordedOutcome is the answer a recorded, given again.
func recordedOutcome(a record.Answer) question.Outcome {
	if a.Given != nil {
		return a.Given.Outcome()
	}
	switch a.Outcome {
	case "accept":
		return question.Outcome{Kind: question.Accept, Content: a.Content}
	case "decline":
		return question.Outcome{Kind: question.Decline}
	}
	return question.Outcome{Kind: question.Cancel}
}

func (p *replayPrompter) waitEnd(ctx context.Context) {
	t := time.NewTimer(p.wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// see records a question of the replay, matched to a recorded one.
// p.mu is held.
func (p *replayPrompter) see(key question.Key, rq *record.Question) *seenQuestion {
	if s := p.byKey[key]; s != nil {
		if s.q == nil && rq != nil {
			s.q = rq
		}
		return s
	}
	s := &seenQuestion{key: key, q: rq}
	if rq != nil {
		s.match, s.changed = matchQuestion(rq, p.expected)
		if s.match == nil {
			s.match, s.changed = matchQuestion(rq, p.outside)
		}
		if s.match != nil {
			s.match.used = true
		}
	}
	p.byKey[key] = s
	p.seen = append(p.seen, s)
	return s
}

// Event implements client.Observer: how the engine ended each question.
func (p *replayPrompter) Event(e client.Event) {
	switch e := e.(type) {
	case client.PromptOpened:
		p.mu.Lock()
		p.see(e.Prompt.Key, record.QuestionOf(e.Prompt))
		p.mu.Unlock()
	case client.PromptResolved:
		p.mu.Lock()
		s := p.see(e.Key, nil)
		s.outcome, s.sent, s.content, s.resolved = e.Entry.Kind.String(), e.Sent, e.Entry.Content, true
		if s.sent == "" {
			s.sent = e.Entry.Sent
		}
		p.mu.Unlock()
		select {
		case p.resolved <- struct{}{}:
		default:
		}
	}
}

// matchQuestion finds the first unused recorded question asking the
// same as q; failing that, the first with its kind and message (changed).
func matchQuestion(q *record.Question, in []*expectation) (*expectation, bool) {
	for _, e := range in {
		if !e.used && e.a.Question != nil && sameQuestion(e.a.Question, q) {
			return e, false
		}
	}
	for _, e := range in {
		if !e.used && e.a.Question != nil && e.a.Question.Kind == q.Kind && e.a.Question.Message == q.Message {
			return e, true
		}
	}
	return nil, false
}

// sameQuestion: kind, mode, message, schema (as JSON values, member
// order aside) and URL (volatile parts aside) are the same.
func sameQuestion(a, b *record.Question) bool {
	return a.Kind == b.Kind && a.Mode == b.Mode && a.Message == b.Message &&
		bytes.Equal(canonicalJSON(a.Schema), canonicalJSON(b.Schema)) &&
		maskVolatileText(a.URL, nil) == maskVolatileText(b.URL, nil) &&
		bytes.Equal(canonicalJSON(permissionShape(a.Permission)), canonicalJSON(permissionShape(b.Permission)))
}

// permissionShape is what of an ACP permission request a replay
// matches and compares: the tool call's title and kind, and the
// options' ids and kinds (not the tool call's id, which the agent makes
// per run, nor the options' names, which are for a person).
func permissionShape(p *record.Permission) json.RawMessage {
	if p == nil {
		return nil
	}
	type option struct {
		ID   string `json:"optionId"`
		Kind string `json:"kind"`
	}
	shape := struct {
		Title   string   `json:"title"`
		Kind    string   `json:"toolKind"`
		Options []option `json:"options"`
	}{Title: p.Title, Kind: p.ToolKind, Options: []option{}}
	for _, o := range p.Options {
		shape.Options = append(shape.Options, option{ID: o.ID, Kind: o.Kind})
	}
	b, _ := json.Marshal(shape) // plain strings: cannot fail
	return b
}

// canonicalJSON re-encodes raw with object members sorted.
func canonicalJSON(raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return b
}
