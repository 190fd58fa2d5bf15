package client

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/lint"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// ErrClosed is returned by calls on a Session that was closed by us.
var ErrClosed = errors.New("session closed")

// closeGrace is how long Close lets open prompts send their cancel answers
// before the transport goes.
const closeGrace = time.Second

// lateLimit bounds the set of ids we cancelled and may still get a late
// response for (only used to word the Notice; rpcpeer.Table).
const lateLimit = 4096

// Session is one connection to one MCP server. It is safe for concurrent
// use. See the package doc for its goroutines and prompt rules.
type Session struct {
	name    string
	opts    Options
	log     *slog.Logger
	journal *question.Journal
	events  *dispatcher
	conn    transport.Conn
	// questions is the one ask path: its schema cache and Asker (deliver.go).
	questions *asking
	// offers is what we offer a server and the handlers of its requests
	// and notifications (features.go, notify.go); read-only after newSession.
	offers   *offers
	headers  toolHeaders   // x-mcp-header bindings from tools/list (headers.go)
	urls     *urlRequired  // -32042 elicitations awaiting completion (urlrequired.go); under its own lock
	rounds   *rounds       // the 2026-07-28 request path, rounds not yet sent (mrtr*.go); under its own lock
	tasks    taskTable     // the tasks we follow (tasks*.go); under its own lock
	receiver receiverTable // the tasks we run for the server (receiver*.go); under its own lock
	subs     subscriptions // subscriptions/listen streams, resource subscriptions (listen.go, subscribe*.go); under their own locks
	lists    listFlights   // list requests coalesced, last answers (lists.go); under its own lock
	lint     *lint.Linter  // the findings checks and what they remember (client/lint); under its own lock

	// base is the parent of every incoming request's context; cancelling
	// it (always under mu) ends every open prompt with its cause.
	base       context.Context
	baseCancel context.CancelCauseFunc

	mu        sync.Mutex
	nextToken int64
	// calls are our requests awaiting a response, by id (from 1), and
	// the ids we cancelled (rpcpeer.Table). Under mu, with in and
	// progress, which must agree with it.
	calls     *rpcpeer.Table[*call]
	in        map[jsonrpc.ID]*incoming // the server's requests being served
	progress  map[jsonrpc.ID]*call     // progress token -> call
	neg       negotiated               // what initialize or server/discover settled
	roots     rootsState               // the roots we offer (roots.go)
	logLevel  string                   // 2026-07-28: sent in every request's _meta
	legacySSE bool                     // the connection is the HTTP+SSE fallback
	loopDone  chan struct{}            // closed when the current read loop ends
	gen       int                      // bumped by every successful initialize
	ready     bool                     // the first initialize succeeded
	closing   bool                     // Close was called
	readyAt   time.Time                // when Connect returned it ready
	endedAt   time.Time                // when it ended
	failErr   error                    // Connect failed with this
	isDead    bool                     // the read loop ended
	err       error                    // why the session ended
	initMu    sync.Mutex               // serialises re-initialize
	closeOnce sync.Once

	quit chan struct{}  // closed when Close starts or the read loop ends
	dead chan struct{}  // closed when the read loop ends
	done chan struct{}  // closed when teardown has finished
	wg   sync.WaitGroup // incoming handlers, cancel notifications, prompters
}

// negotiated is what initialize or server/discover settled.
type negotiated struct {
	protocol     string
	kind         eraKind
	serverInfo   wire.Implementation
	caps         ServerCapabilities
	instructions string
}

// Connect dials t, settles the protocol era (see the package doc) and
// returns a ready Session. ctx bounds the dial, the probe and the handshake
// only, and so does Options.ConnectTimeout: when it runs out first, the
// error wraps ErrTimeout and names the request left unanswered. On failure
// the Observer sees StateFailed and everything started is stopped.
func Connect(ctx context.Context, t transport.Transport, opts *Options) (*Session, error) {
	s := newSession(opts)
	ctx, cancel := patientTimeout(ctx, s.opts.ConnectTimeout, connectTimeout(s.opts.ConnectTimeout), s.personWaiting)
	defer cancel()
	if err := checkRoots(s.opts.Roots); err != nil {
		err = fmt.Errorf("connect to %s: %w", s.name, err)
		s.abort(err)
		return nil, err
	}
	if s.opts.Protocol != "" && !wire.IsSupported(s.opts.Protocol) {
		err := fmt.Errorf("connect to %s: protocol version %q is not supported (want one of %v)",
			s.name, s.opts.Protocol, wire.SupportedProtocols())
		s.abort(err)
		return nil, err
	}
	s.emit(ServerStateChanged{Server: s.name, State: StateConnecting})
	conn, err := t.Dial(ctx)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && !errors.Is(err, cause) {
			err = fmt.Errorf("%w: %w", cause, err) // the dial says only "deadline exceeded"
		}
		err = fmt.Errorf("connect to %s: %w", s.name, err)
		s.abort(err)
		return nil, err
	}
	s.mu.Lock()
	s.conn, s.loopDone = conn, make(chan struct{})
	done := s.loopDone
	s.mu.Unlock()
	go s.readLoop(conn, done)
	if err := s.establish(ctx, t); err != nil {
		err = fmt.Errorf("connect to %s: %w", s.name, err)
		s.mu.Lock()
		s.failErr = err
		s.mu.Unlock()
		_ = s.wire().Close()
		<-s.done
		return nil, err
	}
	if s.opts.onReady != nil {
		s.opts.onReady(s)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.isDead {
		// The transport died right after the handshake.
		return nil, fmt.Errorf("connect to %s: %w", s.name, s.err)
	}
	s.ready, s.readyAt = true, time.Now()
	// Emitted under mu so that it cannot follow the teardown's final state.
	s.emit(ServerStateChanged{Server: s.name, State: StateReady, Protocol: s.neg.protocol, Era: eraLabel(s.neg.kind, s.neg.protocol)})
	return s, nil
}

func newSession(opts *Options) *Session {
	s := &Session{
		calls:    rpcpeer.NewTable[*call](1, lateLimit),
		in:       map[jsonrpc.ID]*incoming{},
		progress: map[jsonrpc.ID]*call{},
		quit:     make(chan struct{}),
		dead:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	if opts != nil {
		s.opts = *opts
	}
	s.name = s.opts.Name
	if s.name == "" {
		s.name = "server"
	}
	s.lint = newLinter(s)
	// A bound always exists: zero (or less) is the default, not "never".
	if s.opts.ConnectTimeout <= 0 {
		s.opts.ConnectTimeout = DefaultConnectTimeout
	}
	if s.opts.RequestTimeout <= 0 {
		s.opts.RequestTimeout = DefaultRequestTimeout
	}
	if s.opts.WriteTimeout <= 0 {
		s.opts.WriteTimeout = DefaultWriteTimeout
	}
	s.subs.h = listensHandleOf(s)
	if s.opts.ClientInfo.Name == "" {
		s.opts.ClientInfo = wire.Implementation{Name: "elicit", Version: "dev"}
	}
	s.log = s.opts.Logger
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.log = s.log.With("server", s.name)
	s.journal = s.opts.Journal
	if s.journal == nil {
		s.journal = question.NewJournal(0)
	}
	s.events = newDispatcher(s.opts.Observer)
	s.roots = rootsState{list: slices.Clone(s.opts.Roots), declared: s.opts.Roots != nil}
	s.base, s.baseCancel = context.WithCancelCause(context.Background())
	s.questions = newAsking(askHandleOf(s), s.opts.Prompter, &s.wg)
	s.receiver.h = receiverHandleOf(s)
	s.urls = newURLRequired(urlHandleOf(s))
	s.headers.h = headersHandleOf(s)
	s.lists.freshness = listFreshnessOf(s)
	s.rounds = newRounds(roundsHandleOf(s))
	s.offers = newOffers(offersHandleOf(s))
	s.tasks.h = tasksHandleOf(s)
	return s
}

// abort ends a session that never got a connection.
func (s *Session) abort(err error) {
	s.mu.Lock()
	s.failErr, s.err, s.isDead = err, err, true
	s.baseCancel(question.ErrDisconnected)
	close(s.quit)
	close(s.dead)
	s.mu.Unlock()
	s.emit(ServerStateChanged{Server: s.name, State: StateFailed, Err: err})
	s.events.close()
	close(s.done)
}

// wire is the current connection (it changes only during Connect, when
// the era falls back).
func (s *Session) wire() transport.Conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn
}

// readLoop reads conn until it fails or is closed, then tears down, unless
// conn was swapped out meanwhile (era fallback), in which case it just
// ends. It blocks on nothing but conn.Read: everything it does with a
// message is a map operation under mu, a buffered channel send, or
// starting a goroutine.
func (s *Session) readLoop(conn transport.Conn, done chan struct{}) {
	defer close(done)
	var err error
	for {
		in, rerr := conn.Read(context.Background())
		if rerr != nil {
			err = rerr
			break
		}
		if in.Msg == nil {
			s.handleResponse(in) // a request of ours ended without a response
			continue
		}
		switch in.Msg.Kind() {
		case jsonrpc.KindResponse:
			s.handleResponse(in)
		case jsonrpc.KindRequest:
			s.handleRequest(in)
			// Go runs a new goroutine next, and the reader, woken by the
			// transport, next again: in a burst of requests the newest
			// are served while the first wait in the run queue. Yielding
			// lets the ones already started run first (p99 under load:
			// BENCHMARKS.md).
			runtime.Gosched()
		case jsonrpc.KindNotification:
			s.offers.notify(in.Msg)
		default:
			s.notice("skipped a message that is neither request, notification nor response")
			s.lint.Find(findings.JSONRPCShape, lint.InFrame(in.Msg.ID, in.Msg.Method, in.Received), "a message that is neither request, notification nor response")
		}
	}
	s.mu.Lock()
	swapped := s.conn != conn
	s.mu.Unlock()
	if !swapped {
		s.teardown(err)
	}
}

// teardown ends the session once the read loop is over: pending calls
// fail, open prompts end (Disconnected, or Abandoned when we closed), the
// final state goes out, and the dispatcher drains.
func (s *Session) teardown(readErr error) {
	s.mu.Lock()
	var state ServerState
	var cause error
	switch {
	case s.failErr != nil:
		state, cause, s.err = StateFailed, question.ErrDisconnected, s.failErr
	case s.closing:
		state, cause, s.err = StateClosed, question.ErrAbandoned, ErrClosed
	case !s.ready:
		state, cause = StateFailed, question.ErrDisconnected
		s.err = fmt.Errorf("%s: %w: %w", s.name, question.ErrDisconnected, readErr)
	default:
		state, cause = StateDisconnected, question.ErrDisconnected
		s.err = fmt.Errorf("%s: %w: %w", s.name, question.ErrDisconnected, readErr)
	}
	s.isDead, s.endedAt = true, time.Now()
	s.baseCancel(cause)
	// Waiters select on dead and read err; the tables just empty out.
	s.calls.Drain()
	clear(s.progress)
	if !s.closing {
		close(s.quit)
	}
	close(s.dead)
	sessErr := s.err
	s.mu.Unlock()

	_ = s.wire().Close()
	s.wg.Wait()
	s.rounds.settle(sessErr)
	ev := ServerStateChanged{Server: s.name, State: state}
	if state != StateClosed {
		ev.Err = sessErr
	}
	s.emit(ev)
	s.events.close()
	close(s.done)
}

// Close closes the session: open prompts end Abandoned (each answered
// {"action":"cancel"} if that can still go out within a second), pending
// calls fail with ErrClosed, the transport is closed and every goroutine
// has ended when Close returns. It is idempotent and safe to call after the
// transport died.
//
// A Prompter must return soon after its ctx ends, or Close waits for it.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		dead := s.isDead
		if !dead {
			// Pending calls fail at once (quit), before the prompts'
			// cancel answers can make the server reply to them.
			s.closing = true
			s.err = ErrClosed
			close(s.quit)
			s.baseCancel(question.ErrAbandoned)
		}
		s.mu.Unlock()
		if dead {
			return
		}
		waitGrace(&s.wg, closeGrace)
		_ = s.wire().Close()
	})
	<-s.done
	return nil
}

// waitGrace waits for wg, but no longer than d.
func waitGrace(wg *sync.WaitGroup, d time.Duration) {
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}

// Done is closed when the session has ended (transport died, Close, or a
// failed Connect) and all its goroutines are gone.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err says why the session ended: an error wrapping ErrDisconnected, or
// ErrClosed; nil while it is alive.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Name is the server's name as given in Options.
func (s *Session) Name() string { return s.name }

// Pending reports (for tests and diagnostics: the terminal-path matrix
// checks that every ending releases what it held) the sizes of the two id
// tables: our requests awaiting a
// response, and the server's requests we are still serving.
func (s *Session) Pending() (outgoing, incoming int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls.Len(), len(s.in)
}

// Journal is where this session records prompt outcomes.
func (s *Session) Journal() *question.Journal { return s.journal }

// Protocol is the negotiated protocol version.
func (s *Session) Protocol() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.neg.protocol
}

// Era is a short label for how the session speaks to its server:
// "2026-07-28 stateless", "2025-11-25 stateful", "2024-11-05 legacy SSE".
func (s *Session) Era() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return eraLabel(s.neg.kind, s.neg.protocol)
}

// stateless reports whether the session speaks the 2026-07-28 era.
func (s *Session) stateless() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.neg.kind == eraStateless
}

// hint is what a Manager remembers of this session's era.
func (s *Session) hint() eraKind {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.neg.kind
}

// ServerInfo is the server's serverInfo (from initialize, or from
// server/discover's _meta in 2026-07-28).
func (s *Session) ServerInfo() wire.Implementation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.neg.serverInfo
}

// ServerCapabilities is what the server declared.
func (s *Session) ServerCapabilities() ServerCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.neg.caps
}

// Instructions is the server's instructions, "" if none.
func (s *Session) Instructions() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.neg.instructions
}

// Subset is the elicitation schema subset of the negotiated version.
func (s *Session) Subset() schema.Subset {
	if s.Protocol() == wire.Protocol2025_06_18 {
		return schema.Subset2025_06_18
	}
	return schema.Subset2025_11_25
}

// modes reports which elicitation modes are in force: what we declared in
// the negotiated version (features.go), and nothing more. 2025-06-18
// declares form only, and 2025-03-26 and 2024-11-05 have no elicitation
// at all, so there an elicitation/create is refused (-32602) as in
// --elicit off, never answered with content nobody offered.
func (s *Session) modes() question.Modes {
	v := s.Protocol()
	switch {
	case v == wire.Protocol2025_11_25 || wire.Stateless(v):
		return question.Modes{Form: s.opts.Elicit.form(), URL: s.opts.Elicit.url()}
	case v == wire.Protocol2025_06_18:
		return question.Modes{Form: s.opts.Elicit.form()}
	}
	return question.Modes{}
}

// emit queues a lossless event.
func (s *Session) emit(e Event) { s.events.push(e, nil) }

// notice reports something the person should know, and logs it.
func (s *Session) notice(format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	s.log.Debug("notice", "text", text)
	s.emit(Notice{Server: s.name, Text: text, Time: time.Now()})
}
