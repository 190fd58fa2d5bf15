package hub

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/redact"
)

// settleBound bounds the wait for a settled question's journal entry
// (its answer is being written to the server): the engine's writes are
// bounded by less.
const settleBound = 15 * time.Second

// Opened is a session as cmd/elicit opened it (Opener).
type Opened struct {
	Client   *client.Session
	Findings *findings.Recorder
	// Recorder is the session's recording (--record on session start;
	// nil: none).
	Recorder *record.Recorder
	// Pid is the server's process, when it is one of ours (stdio).
	Pid int
	// Secrets are the session's (its server's configured secrets, what
	// its sign-in got): masked in what every command on it prints.
	Secrets *redact.Secrets
	// Close stops the session (its server and what it started) and
	// closes the recording.
	Close func()
	// Events gets a proxied session's events: a client.PromptResolved
	// for each question its proxy settled (nil: none kept).
	Events client.Observer
	// OnFrame gets a proxied session's frames (nil: none kept).
	OnFrame func(transport.Frame)
	// Apps says it declared the MCP Apps extension (session start
	// --apps): elicit app --session may host its apps (app.go).
	Apps bool
	// Attach runs the session's TUI on an attached terminal (elicit
	// attach); nil: it has none.
	Attach Attacher
}

// Hooks are what the hub gives a session it opens: its questions go to
// Prompter, its events to Observer.
type Hooks struct {
	Prompter question.Prompter
	Observer client.Observer
}

// Session is one named session of the hub.
type Session struct {
	Name   string
	since  time.Time
	opened *Opened
	ask    *Prompter
	// proxy is set for a proxied session (elicit proxy --session), which
	// has no Client: its proxy process holds the connections.
	proxy *proxied
	// ctx lives as long as the session: calls that outlive their command
	// (--no-wait) run under it.
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	calls    map[string]*Call // running, and --no-wait ones finished (collectable)
	finished []string         // the finished --no-wait calls kept, oldest first
	nextCall int
	closed   bool // no call starts any more
	runs     sync.WaitGroup
}

// keptResults bounds the finished --no-wait calls a session keeps for
// elicit result; the oldest goes first.
const keptResults = 1024

// Client is the session's MCP session.
func (s *Session) Client() *client.Session { return s.opened.Client }

// Findings is the session's findings recorder (since it started).
func (s *Session) Findings() *findings.Recorder { return s.opened.Findings }

// Recorder is the session's recording (nil: none).
func (s *Session) Recorder() *record.Recorder { return s.opened.Recorder }

// Secrets are the session's secrets (Opened.Secrets).
func (s *Session) Secrets() *redact.Secrets { return s.opened.Secrets }

// Prompter is where the session's questions wait (attach hands its TUI to
// SetNext).
func (s *Session) Prompter() *Prompter { return s.ask }

// Err says why the session can no longer be used (its server went away),
// nil while it can.
func (s *Session) Err() error {
	if s.proxy != nil {
		return nil // it leaves the hub when its proxy goes
	}
	select {
	case <-s.opened.Client.Done():
		return fmt.Errorf("session %s: %w: %v", s.Name, ErrDisconnected, s.opened.Client.Err())
	default:
		return nil
	}
}

// info is what elicit session list shows of s.
func (s *Session) info() SessionInfo {
	if px := s.proxy; px != nil {
		px.mu.Lock()
		defer px.mu.Unlock()
		return SessionInfo{Session: s.Name, Server: px.server, Protocol: "proxy", Questions: s.ask.count(),
			Since: s.since, State: "ready", Proxy: true, Host: px.host, Pid: px.pid}
	}
	c := s.opened.Client
	si := SessionInfo{Session: s.Name, Server: c.Name(), Protocol: c.Protocol(), Questions: s.ask.count(),
		Calls: s.running(), Since: s.since, State: "ready", Apps: s.opened.Apps}
	if err := s.Err(); err != nil {
		si.State, si.Error = "disconnected", err.Error()
	}
	return si
}

// running is how many calls are in flight.
func (s *Session) running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		select {
		case <-c.done:
		default:
			n++
		}
	}
	return n
}

// newCall registers a call about to start.
func (s *Session) newCall() *Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextCall++
	c := &Call{ID: strconv.Itoa(s.nextCall), s: s, ids: map[jsonrpc.ID]bool{}, done: make(chan struct{})}
	s.calls[c.ID] = c
	return c
}

// call is the call id, finished or not.
func (s *Session) call(id string) *Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[id]
}

// forget drops a finished call nobody will collect.
func (s *Session) forget(c *Call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.calls, c.ID)
}

// goRun runs f as a call that outlives its command, unless the session is
// closing; the session's close waits for it.
func (s *Session) goRun(c *Call, f func() RunResult) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.runs.Go(func() {
		c.finish(f())
		s.mu.Lock()
		defer s.mu.Unlock()
		s.finished = append(s.finished, c.ID)
		if len(s.finished) > keptResults {
			delete(s.calls, s.finished[0])
			s.finished = s.finished[1:]
		}
	})
	return true
}

// callOf is the call a question of origin o belongs to, when one call of
// ours can be named; else, for a question several calls may own, their
// ids (hub call ids, or the request ids of calls the hub did not start).
func (s *Session) callOf(o question.Origin) (*Call, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	owner := func(id jsonrpc.ID) *Call {
		for _, c := range s.calls {
			if c.owns(id) {
				return c
			}
		}
		return nil
	}
	if o.CallID.IsValid() {
		return owner(o.CallID), nil
	}
	var maybe []string
	for _, m := range o.Maybe {
		if c := owner(m.CallID); c != nil {
			maybe = append(maybe, c.ID)
		} else {
			maybe = append(maybe, "request "+m.CallID.Raw())
		}
	}
	return nil, maybe
}

// questionsOf are the open questions of call id ("" for all).
func (s *Session) questionsOf(id string) []QuestionInfo {
	all := s.ask.list()
	if id == "" {
		return all
	}
	return slices.DeleteFunc(all, func(q QuestionInfo) bool { return q.Call != id })
}

// close stops the session: calls still running end with it (their
// questions abandoned), then its server.
func (s *Session) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.runs.Wait()
	if s.proxy != nil { // the proxy answers them itself from now on
		s.proxy.endAll(question.ErrAbandoned)
	}
	s.opened.Close()
	s.ask.nexts.Wait()
}

// Call is one tools/call the hub runs on a session for a command.
type Call struct {
	ID string
	s  *Session

	mu      sync.Mutex
	ids     map[jsonrpc.ID]bool // the request ids it was sent under
	answers question.Prompter   // its --answer policy; nil: a person answers
	asked   []*pending

	done   chan struct{} // closed when the command ended; result is set
	result RunResult
}

// CallFrom is the hub's call a command runs for, if it runs in the hub.
func CallFrom(ctx context.Context) *Call {
	c, _ := ctx.Value(callKey{}).(*Call)
	return c
}

// SessionFrom is the session a command runs on, if it runs in the hub.
func SessionFrom(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}

type callKey struct{}
type sessionKey struct{}

// SetPolicy has p answer the call's questions (elicit call --answer); a
// call without one leaves them to a person.
func (c *Call) SetPolicy(p question.Prompter) {
	c.mu.Lock()
	c.answers = p
	c.mu.Unlock()
}

func (c *Call) policy() question.Prompter {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.answers
}

// OnID is client.CallOptions.OnID: the ids it is sent under are its.
func (c *Call) OnID(id jsonrpc.ID) {
	c.mu.Lock()
	c.ids[id] = true
	c.mu.Unlock()
}

func (c *Call) owns(id jsonrpc.ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ids[id]
}

// Owns says whether a journal entry's question was this call's. One
// whose call could not be told (Origin.Maybe) is no call's: listing it
// under each call it may belong to would claim it for a call it was not.
func (c *Call) Owns(o question.Origin) bool {
	return o.CallID.IsValid() && c.owns(o.CallID)
}

func (c *Call) opened(pd *pending) {
	c.mu.Lock()
	c.asked = append(c.asked, pd)
	c.mu.Unlock()
}

// Settle waits until every question the call opened in the hub is
// journalled (its answer went out, or it ended), bounded: the call's
// result has come, so its journal is about to be complete.
func (c *Call) Settle(ctx context.Context) {
	c.mu.Lock()
	asked := slices.Clone(c.asked)
	c.mu.Unlock()
	t := time.NewTimer(settleBound)
	defer t.Stop()
	for _, pd := range asked {
		select {
		case <-pd.resolved:
		case <-t.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// finish records the command's end.
func (c *Call) finish(r RunResult) {
	c.result = r
	close(c.done)
}

// sessionsOf is the sessions by name, sorted.
func sessionsOf(m map[string]*Session) []*Session {
	return slices.SortedFunc(maps.Values(m), func(a, b *Session) int { return a.since.Compare(b.since) })
}
