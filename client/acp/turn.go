package acp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The stop reasons of a turn.
const (
	StopEndTurn         = "end_turn"
	StopMaxTokens       = "max_tokens"
	StopMaxTurnRequests = "max_turn_requests"
	StopRefusal         = "refusal"
	StopCancelled       = "cancelled"
)

// TurnResult is how one prompt turn ended and what it said.
type TurnResult struct {
	// StopReason is the agent's, as sent; "" when it did not answer.
	StopReason string
	// Message and Thought are the agent's text chunks joined, the first
	// MaxTextBytes of each; MessageCut and ThoughtCut count the bytes not
	// kept.
	Message, Thought       string
	MessageCut, ThoughtCut int
	// User is the person's prompts as the agent told them
	// (user_message_chunk: a load's history), joined, at most
	// MaxTextBytes; UserCut counts the bytes not kept.
	User    string
	UserCut int
	// ToolCalls are the turn's tool calls, merged, in order of first
	// report: the first MaxToolCalls, each raw field at most
	// MaxKeptUpdateBytes (keptToolCall). ToolUpdatesDropped counts the
	// updates of tool calls beyond them.
	ToolCalls          []ToolCall
	ToolUpdatesDropped int
	// Other holds the updates shown plainly: kinds not decoded into the
	// above (plans, commands, modes, usage, unknown), each at most
	// MaxKeptUpdateBytes (Update.Cut says what was not kept). A kind that
	// replaces the one before (a plan…) appears once, its latest, where
	// the first stood (Update.Replaced counts the ones before); of the
	// others the first MaxKeptUpdates, UpdatesDropped counting the rest.
	Other          []Update
	UpdatesDropped int
	// Stopped is set when we sent session/cancel for this turn.
	Stopped bool
	// RequestCancelled is set when the agent answered session/prompt
	// with -32800 instead of a stopReason: cancelled, not failed.
	RequestCancelled bool
	// IdleStopped is set when the turn was stopped for Options.TurnIdle:
	// the agent had gone quiet.
	IdleStopped bool
}

// turnState gathers one turn's updates.
type turnState struct {
	mu      sync.Mutex
	res     TurnResult
	byID    map[string]int
	msg     []byte
	thought []byte
	// user is the person's prompts as the agent told them (a load).
	user []byte
	// history is set for a load's replay, whose messages are of many
	// turns: a message after another kind of update starts a line of
	// its own. last is the kind of the update before.
	history bool
	last    string
	// latest is where in res.Other the update of a replacing kind stands;
	// added counts the others kept.
	latest  map[string]int
	added   int
	stopped chan struct{}
	stopOne sync.Once
	// abandon is closed by AbandonTurn: $/cancel_request for the prompt.
	abandon    chan struct{}
	abandonOne sync.Once
	// asks counts the turn's questions not yet journalled, so that a
	// turn returns with its journal complete.
	asks settler
	// activity hears, without blocking, that the agent sent something
	// for the session (Options.TurnIdle).
	activity chan struct{}
	// prompt is the session/prompt's id once sent (under Client.mu):
	// when the read loop has read its answer, the turn is over, though
	// Prompt has not forgotten it yet (underWay).
	prompt jsonrpc.ID
}

func newTurnState() *turnState {
	return &turnState{byID: map[string]int{}, latest: map[string]int{}, stopped: make(chan struct{}), abandon: make(chan struct{}),
		activity: make(chan struct{}, 1)}
}

// heard notes that the agent sent something for the turn's session. On
// the read loop: it never blocks.
func (t *turnState) heard() {
	select {
	case t.activity <- struct{}{}:
	default:
	}
}

func (t *turnState) add(u Update) {
	t.heard()
	t.mu.Lock()
	defer t.mu.Unlock()
	newLine := func(b []byte) string {
		if t.history && t.last != u.Kind && len(b) > 0 {
			return "\n"
		}
		return ""
	}
	defer func() { t.last = u.Kind }()
	switch {
	case u.Kind == UpdateAgentMessage && u.Content != nil:
		t.res.MessageCut += appendText(&t.msg, newLine(t.msg)+u.Content.Text)
	case u.Kind == UpdateAgentThought && u.Content != nil:
		t.res.ThoughtCut += appendText(&t.thought, u.Content.Text)
	case u.ToolCall != nil:
		tc := keptToolCall(*u.ToolCall)
		if i, ok := t.byID[tc.ID]; ok {
			t.res.ToolCalls[i].Merge(&tc)
			return
		}
		if len(t.res.ToolCalls) >= MaxToolCalls {
			t.res.ToolUpdatesDropped++
			return
		}
		t.byID[tc.ID] = len(t.res.ToolCalls)
		t.res.ToolCalls = append(t.res.ToolCalls, tc)
	case u.Kind == UpdateUserMessage && u.Content != nil:
		t.res.UserCut += appendText(&t.user, newLine(t.user)+u.Content.Text)
	case u.Kind == UpdateUserMessage:
	case replaces(u.Kind):
		k := keptUpdate(u)
		if i, ok := t.latest[u.Kind]; ok {
			k.Replaced = t.res.Other[i].Replaced + 1
			t.res.Other[i] = k
			return
		}
		t.latest[u.Kind] = len(t.res.Other)
		t.res.Other = append(t.res.Other, k)
	case t.added >= MaxKeptUpdates:
		t.res.UpdatesDropped++
	default:
		t.added++
		t.res.Other = append(t.res.Other, keptUpdate(u))
	}
}

func (t *turnState) result() TurnResult {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.res
	r.Message, r.Thought, r.User = string(t.msg), string(t.thought), string(t.user)
	r.ToolCalls = append([]ToolCall(nil), t.res.ToolCalls...)
	r.Other = append([]Update(nil), t.res.Other...)
	return r
}

// ErrTurnBusy is returned by Prompt while another turn of the session is
// under way.
var ErrTurnBusy = errors.New("acp: a prompt turn of this session is already under way")

// Prompt runs one turn with a text prompt. It returns when the agent
// answers session/prompt. Stop (or ctx ending, which stops the turn the
// same way) sends session/cancel; the turn then waits up to CancelWait
// for the agent's stopReason. Without it, or at once on AbandonTurn, it
// abandons the request with $/cancel_request and waits up to CancelWait
// more: a -32800 then is RequestCancelled (not an error), no answer
// ErrNoAnswer. Updates that arrive after a Stop are still taken.
func (c *Client) Prompt(ctx context.Context, sessionID, text string) (TurnResult, error) {
	return c.PromptBlocks(ctx, sessionID, []ContentBlock{{Type: "text", Text: text}})
}

// PromptBlocks is Prompt with the prompt's content blocks as given: text
// and resource_link always, image, audio and resource only when the
// agent declares them (promptCapabilities; ErrNotDeclared otherwise,
// nothing sent). A "/name rest" text asks for the agent's command name
// (available_commands_update): ACP sends it as the text it is.
func (c *Client) PromptBlocks(ctx context.Context, sessionID string, blocks []ContentBlock) (TurnResult, error) {
	if err := c.promptAllowed(blocks); err != nil {
		return TurnResult{}, err
	}
	t := newTurnState()
	c.mu.Lock()
	if c.turns[sessionID] != nil {
		c.mu.Unlock()
		return TurnResult{}, ErrTurnBusy
	}
	c.turns[sessionID] = t
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.turns, sessionID)
		c.mu.Unlock()
		// However the turn ended, nothing it started runs on.
		c.killTerminals(sessionID, KilledAtTurnEnd, false)
	}()

	params := map[string]any{"sessionId": sessionID, "prompt": blocks}
	id, ch, err := c.peer.start(MethodSessionPrompt, params, nil)
	if err != nil {
		return TurnResult{}, err
	}
	c.mu.Lock()
	t.prompt = id
	c.mu.Unlock()
	defer c.peer.Forget(id)
	a, answered, idled := c.awaitTurn(ctx, sessionID, t, ch)
	if !answered {
		// A turn ends by session/cancel, whose answer is the stopReason.
		// An agent that does not give it within CancelWait (or a second
		// Stop: AbandonTurn) gets $/cancel_request for the prompt itself;
		// its -32800 then is cancelled, not failed.
		timer := time.NewTimer(c.opts.CancelWait)
		defer timer.Stop()
		select {
		case a = <-ch:
			answered = true
		case <-timer.C:
		case <-t.abandon:
		}
	}
	if !answered {
		var err error
		if a, err = c.peer.abandon(id, ch, MethodSessionPrompt, c.opts.CancelWait); err != nil {
			res := t.result()
			res.Stopped, res.IdleStopped = true, idled
			return res, fmt.Errorf("acp: session/prompt: %w, nor within %s of session/cancel (it may still be working)", err, c.opts.CancelWait)
		}
	}
	a.Err = wrapAnswer(MethodSessionPrompt, a.Err)
	// The agent may answer before we journalled its last question's
	// answer; wait for that, bounded.
	waitSettled(&t.asks, c.opts.CloseWait)
	res := t.result()
	res.IdleStopped = idled
	select {
	case <-t.stopped:
		res.Stopped = true
	default:
	}
	if errors.Is(a.Err, ErrCancelled) {
		res.RequestCancelled = true
		return res, nil
	}
	if a.Err != nil {
		return res, a.Err
	}
	var r struct {
		StopReason string `json:"stopReason"`
	}
	if err := wire.DecodeExact(a.Result, &r); err != nil || r.StopReason == "" {
		return res, fmt.Errorf("acp: session/prompt: the result has no stopReason")
	}
	res.StopReason = r.StopReason
	return res, nil
}

// promptAllowed refuses a block the agent did not declare it takes.
func (c *Client) promptAllowed(blocks []ContentBlock) error {
	if len(blocks) == 0 {
		return fmt.Errorf("acp: session/prompt: an empty prompt")
	}
	for _, b := range blocks {
		var ok bool
		var capability string
		switch b.Type {
		case "text", "resource_link":
			ok = true
		case "image":
			ok, capability = c.caps.Image, "promptCapabilities.image"
		case "audio":
			ok, capability = c.caps.Audio, "promptCapabilities.audio"
		case "resource":
			ok, capability = c.caps.EmbeddedContext, "promptCapabilities.embeddedContext"
		default:
			return fmt.Errorf("acp: session/prompt: unknown content block type %q", b.Type)
		}
		if !ok {
			return fmt.Errorf("%w: a %s block (%s)", ErrNotDeclared, b.Type, capability)
		}
	}
	return nil
}

// awaitTurn waits for the prompt's answer until ctx ends or the turn is
// stopped (or, with Options.TurnIdle, the agent goes quiet: idled),
// stopping it as Stop does in the first and last case.
func (c *Client) awaitTurn(ctx context.Context, sessionID string, t *turnState, ch <-chan answer) (a answer, answered, idled bool) {
	var idle <-chan time.Time // nil without TurnIdle: never ready
	var timer *time.Timer
	if d := c.opts.TurnIdle; d > 0 {
		timer = time.NewTimer(d)
		defer timer.Stop()
		idle = timer.C
	}
	for {
		select {
		case a = <-ch:
			return a, true, false
		case <-ctx.Done():
			c.Stop(sessionID)
			return a, false, false
		case <-t.stopped:
			return a, false, false
		case <-t.activity:
			if timer != nil {
				timer.Reset(c.opts.TurnIdle)
			}
		case <-idle:
			if t.asks.busy() {
				// A question is open: the agent waits for us, not we
				// for it.
				timer.Reset(c.opts.TurnIdle)
				continue
			}
			c.Stop(sessionID)
			return a, false, true
		}
	}
}

// Stop cancels the session's turn: every open question of the session
// ends (permission "cancelled", elicitation "cancel") and session/cancel
// goes to the agent. The turn shows cancelled only once the agent says
// so. Safe to call at any time, more than once.
func (c *Client) Stop(sessionID string) {
	c.mu.Lock()
	t := c.turns[sessionID]
	var ends []*openQuestion
	for _, oq := range c.open {
		if oq.session == sessionID && !oq.claimed {
			oq.stopping = true
			ends = append(ends, oq)
		}
	}
	c.mu.Unlock()
	first := false
	if t != nil {
		t.stopOne.Do(func() { first = true; close(t.stopped) })
	}
	// session/cancel goes out before the "cancelled" answers, so that
	// the agent reads them as the turn's cancellation.
	if first || t == nil {
		_ = c.peer.notify(MethodSessionCancel, map[string]string{"sessionId": sessionID})
	}
	for _, oq := range ends {
		oq.cancel(errTurnCancelled)
	}
}

// AbandonTurn stops the session's turn (Stop) and abandons its
// session/prompt with $/cancel_request at once, without waiting for the
// stopReason: a second Stop, for an agent slow to end its turn.
func (c *Client) AbandonTurn(sessionID string) {
	c.Stop(sessionID)
	c.mu.Lock()
	t := c.turns[sessionID]
	c.mu.Unlock()
	if t != nil {
		t.abandonOne.Do(func() { close(t.abandon) })
	}
}

// errTurnCancelled is the cause of questions ended by Stop: abandoned
// (question.ErrAbandoned), which the ACP rows answer as the turn's
// cancellation.
var errTurnCancelled = fmt.Errorf("%w: the prompt turn was cancelled", errAbandoned)

// settler counts questions being answered; settled is closed when none
// is.
type settler struct {
	mu   sync.Mutex
	n    int
	idle chan struct{}
}

func (s *settler) begin() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

func (s *settler) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n--
	if s.n == 0 && s.idle != nil {
		close(s.idle)
		s.idle = nil
	}
}

// busy reports whether a question is being answered.
func (s *settler) busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n > 0
}

func (s *settler) settled() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		ch := make(chan struct{})
		close(ch)
		return ch
	}
	if s.idle == nil {
		s.idle = make(chan struct{})
	}
	return s.idle
}

// waitSettled waits, up to d, until s has no question being answered.
func waitSettled(s *settler, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.settled():
	case <-t.C:
	}
}
