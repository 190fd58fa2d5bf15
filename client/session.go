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
)

// ErrClosed is returned by calls on a Session that was closed by us.
var ErrClosed = errors.New("session closed")

// closeGrace is how long Close lets open prompts send their cancel answers
// before the transport goes.
const closeGrace = time.Second

// Session is one connection to one MCP server. It is safe for concurrent
// use. See the package doc for its goroutines and prompt rules.
type Session struct {
	name    string
	opts    Options
	log     *slog.Logger
	journal *question.Journal
	events  *dispatcher
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

	// mu guards the tables below, and is held around what must agree
	// across the peer's two tables (cancelCall, handleRequest, withdraw,
	// claim): our calls and the server's requests being served.
	mu        sync.Mutex
	neg       negotiated // what initialize or server/discover settled
	roots     rootsState // the roots we offer (roots.go)
	logLevel  string     // 2026-07-28: sent in every request's _meta
	legacySSE bool       // the connection is the HTTP+SSE fallback

	// peer is the JSON-RPC side (transport/rpcpeer): our ids, our calls
	// awaiting a response (each a *call), the ids we cancelled, progress
	// tokens, the server's requests being served (each an *incoming),
	// writes. Its lock is a leaf, taken under mu.
	peer *mcpPeer
	// life is connecting, ready, closing, ended, and what the end waits
	// for (life.go).
	life life
	// hs settles the era, and initializes again (era.go, lifecycle.go).
	hs handshake
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
	ctx, cancel := patientTimeout(ctx, s.opts.ConnectTimeout, connectTimeout(s.opts.ConnectTimeout), waitingOn(s.peer))
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
	s.peer.Swap(conn)
	done, _, _ := s.life.newLoop() // the first loop: nothing has ended it yet
	go s.readLoop(conn, done)
	if err := s.hs.establish(ctx, t); err != nil {
		err = fmt.Errorf("connect to %s: %w", s.name, err)
		s.life.failed(err)
		_ = s.peer.Conn().Close()
		<-s.life.done
		return nil, err
	}
	if s.opts.onReady != nil {
		s.opts.onReady(s)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Announced under the lifecycle's lock so that it cannot follow the
	// teardown's final state.
	if err := s.life.readyNow(func() {
		s.emit(ServerStateChanged{Server: s.name, State: StateReady, Protocol: s.neg.protocol, Era: eraLabel(s.neg.kind, s.neg.protocol)})
	}); err != nil {
		// The transport died right after the handshake.
		return nil, fmt.Errorf("connect to %s: %w", s.name, err)
	}
	return s, nil
}

func newSession(opts *Options) *Session {
	s := &Session{
		life: newLife(),
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
	s.peer = newPeer(s.name, s.opts.WriteTimeout)
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
	s.questions = newAsking(askHandleOf(s), s.opts.Prompter, &s.life.wg)
	s.receiver.h = receiverHandleOf(s)
	s.urls = newURLRequired(urlHandleOf(s))
	s.headers.h = headersHandleOf(s)
	s.lists.freshness = listFreshnessOf(s)
	s.rounds = newRounds(roundsHandleOf(s))
	s.offers = newOffers(offersHandleOf(s))
	s.tasks.h = tasksHandleOf(s)
	s.hs.h = handshakeOf(s)
	return s
}

// abort ends a session that never got a connection.
func (s *Session) abort(err error) {
	s.mu.Lock()
	s.life.abort(err)
	s.mu.Unlock()
	s.emit(ServerStateChanged{Server: s.name, State: StateFailed, Err: err})
	s.events.close()
	s.life.finished()
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
	swapped := s.peer.Conn() != conn
	s.mu.Unlock()
	if !swapped {
		s.teardown(err)
	}
}

// teardown ends the session once the read loop is over: pending calls
// fail, open prompts end (Disconnected, or Abandoned when we closed), the
// final state goes out, and the dispatcher drains.
func (s *Session) teardown(readErr error) {
	// Under mu: a section that joins the lifecycle while it registers
	// something in the session's tables sees it alive or ended, whole.
	s.mu.Lock()
	state, sessErr := s.life.end(s.name, readErr)
	s.mu.Unlock()
	// Waiting calls end with the session's error (they may also have
	// seen quit), and later ones fail at once with it.
	s.peer.Fail(sessErr)

	_ = s.peer.Conn().Close()
	s.life.settle()
	s.rounds.settle(sessErr)
	ev := ServerStateChanged{Server: s.name, State: state}
	if state != StateClosed {
		ev.Err = sessErr
	}
	s.emit(ev)
	s.events.close()
	s.life.finished()
}

// Close closes the session: open prompts end Abandoned (each answered
// {"action":"cancel"} if that can still go out within a second), pending
// calls fail with ErrClosed, the transport is closed and every goroutine
// has ended when Close returns. It is idempotent and safe to call after the
// transport died.
//
// A Prompter must return soon after its ctx ends, or Close waits for it.
func (s *Session) Close() error {
	s.life.close(func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.life.startClose()
	}, closeGrace, func() { _ = s.peer.Conn().Close() })
	return nil
}

// Done is closed when the session has ended (transport died, Close, or a
// failed Connect) and all its goroutines are gone.
func (s *Session) Done() <-chan struct{} { return s.life.done }

// Err says why the session ended: an error wrapping ErrDisconnected, or
// ErrClosed; nil while it is alive.
func (s *Session) Err() error { return s.life.error() }

// Name is the server's name as given in Options.
func (s *Session) Name() string { return s.name }

// Pending reports (for tests and diagnostics: the terminal-path matrix
// checks that every ending releases what it held) the sizes of the two id
// tables: our requests awaiting a
// response, and the server's requests we are still serving.
func (s *Session) Pending() (outgoing, incoming int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peer.Len(), s.peer.ServingLen()
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
