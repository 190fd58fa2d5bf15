package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// idleLinger is how long a hub with no session waits for one before it
// exits (a start that never came, or that failed).
const idleLinger = 30 * time.Second

// ErrBusy: another hub holds the folder.
var ErrBusy = errors.New("hub: another hub is running")

// Opener opens a session from elicit session start's command line, with
// the hub's hooks wired in (cmd/elicit: its flags and server specs,
// through cmd/elicit/internal/app). Its error is the command's.
type Opener func(ctx context.Context, p StartParams, h Hooks) (*Opened, error)

// Runner runs a headless command (args: its name first) on s, as it runs
// alone, printing what it prints; it returns the exit code. A call's
// Call is in ctx (CallFrom), the session too (SessionFrom).
type Runner func(ctx context.Context, s *Session, args []string, stdout, stderr io.Writer) int

// Config is what a hub needs from cmd/elicit.
type Config struct {
	Paths Paths
	Open  Opener
	Run   Runner
	// OpenProxy makes what the hub keeps of a proxied session (nil:
	// only its questions).
	OpenProxy ProxyOpener
	// Code is the exit code of an Opener's error.
	Code func(error) int
	// Log gets what the hub has to say (stderr of servers, its own
	// notes); it is the hub's log file.
	Log io.Writer
	// Ready is called once the socket accepts connections.
	Ready func()
}

// hub is the running hub.
type hub struct {
	cfg Config
	ln  *net.UnixListener

	mu       sync.Mutex
	sessions map[string]*Session
	starting map[string]bool
	active   int  // connections being served
	started  bool // a session start came (the hub ends with its last session)
	linger   *time.Timer
}

// Serve runs the hub until its last session stops (or ctx ends, which
// stops them all). It returns ErrBusy when another hub holds the folder.
func Serve(ctx context.Context, cfg Config) error {
	if err := cfg.Paths.Ensure(); err != nil {
		return err
	}
	lock, err := os.OpenFile(cfg.Paths.Live, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("hub: %w", err)
	}
	defer lock.Close() // releases the flock
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return ErrBusy
	}
	// We hold the folder: a socket left here is a dead hub's.
	_ = os.Remove(cfg.Paths.Socket)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: cfg.Paths.Socket, Net: "unix"})
	if err != nil {
		return fmt.Errorf("hub: listen: %w", err)
	}
	ln.SetUnlinkOnClose(true)
	if err := os.Chmod(cfg.Paths.Socket, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("hub: %w", err)
	}
	h := &hub{cfg: cfg, ln: ln, sessions: map[string]*Session{}, starting: map[string]bool{}}
	h.linger = time.AfterFunc(idleLinger, h.idle)
	if cfg.Ready != nil {
		cfg.Ready()
	}
	stop := context.AfterFunc(ctx, h.shutdown)
	defer stop()
	var conns sync.WaitGroup
	for {
		nc, err := ln.AcceptUnix()
		if err != nil {
			break // closed: shutdown or idle
		}
		if uid, err := peerUID(nc); err != nil || uid != os.Getuid() {
			fmt.Fprintf(cfg.Log, "hub: refused a connection from uid %d (%v)\n", uid, err)
			nc.Close()
			continue
		}
		h.mu.Lock()
		h.active++
		h.mu.Unlock()
		conns.Go(func() {
			if m, rest := firstRequest(nc); m != nil {
				h.attach(ctx, nc, rest, m)
			} else {
				serveConn(ctx, readerConn{Conn: nc, r: rest}, h.handle)
			}
			h.mu.Lock()
			h.active--
			h.mu.Unlock()
			h.ended()
		})
	}
	h.linger.Stop()
	// Sessions first: a command waiting on a person ends with its session.
	h.closeAll()
	conns.Wait()
	h.closeAll() // one a start was still opening
	return nil
}

// idle ends the hub if it has no session and serves no command (the
// linger after it started ran out).
func (h *hub) idle() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sessions) == 0 && len(h.starting) == 0 && h.active == 0 {
		h.ln.Close()
	}
}

// ended ends the hub after a command, once a session was started here and
// none is left: the last session stopped (or the only start failed).
func (h *hub) ended() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.started && len(h.sessions) == 0 && len(h.starting) == 0 && h.active == 0 {
		h.ln.Close()
	}
}

// shutdown stops accepting; Serve then stops every session.
func (h *hub) shutdown() { h.ln.Close() }

// closeAll stops the sessions left (the hub is ending).
func (h *hub) closeAll() {
	h.mu.Lock()
	all := sessionsOf(h.sessions)
	h.sessions = map[string]*Session{}
	h.mu.Unlock()
	for _, s := range all {
		s.close()
	}
}

// handle answers one control request.
func (h *hub) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case MethodStart:
		var p StartParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.start(ctx, p)
	case MethodList:
		h.mu.Lock()
		all := sessionsOf(h.sessions)
		h.mu.Unlock()
		out := make([]SessionInfo, 0, len(all))
		for _, s := range all {
			out = append(out, s.info())
		}
		return out, nil
	case MethodStop:
		var p NameParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.stop(p.Session)
	case MethodRun:
		var p RunParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.run(ctx, p)
	case MethodResult:
		var p ResultParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.result(ctx, p)
	case MethodQuestions:
		var p NameParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		s, err := h.session(p.Session)
		if err != nil {
			return nil, err
		}
		return s.questionsOf(""), nil
	case MethodAnswer:
		var p AnswerParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.answer(ctx, p)
	case MethodApp:
		var p AppParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.app(ctx, p)
	}
	return h.handleProxy(ctx, method, params)
}

// handleProxy answers the requests of a proxy's link (proxied.go).
func (h *hub) handleProxy(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case MethodProxyOpen:
		var p ProxyParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.proxyOpen(ctx, p)
	case MethodProxyWait:
		var p NameParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.proxyWait(ctx, p.Session)
	case MethodProxyHost:
		var p HostParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.host(p)
	case MethodAsk:
		var p AskParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.ask(p)
	case MethodSettled:
		var p SettledParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.settled(p)
	case MethodWithdraw:
		var p WithdrawParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return h.withdraw(p)
	case MethodFrame:
		var p FrameParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		h.frame(p)
		return nil, nil
	}
	return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "no method "+method, nil)
}

func decode(params json.RawMessage, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc.NewError(jsonrpc.CodeInvalidParams, err.Error(), ErrorData{Exit: ExitUsage})
	}
	return nil
}

// session is the session named, or the error a command on it exits with.
func (h *hub) session(name string) (*Session, error) {
	h.mu.Lock()
	s := h.sessions[name]
	h.mu.Unlock()
	if s == nil {
		return nil, hubError(ExitConnect, ErrorData{}, "no session %q (elicit session list shows them)", name)
	}
	return s, nil
}

// reserve takes name for a session about to open (elicit session start,
// proxy --session): refused when it is no session's name or is taken.
func (h *hub) reserve(name string) error {
	if err := CheckName(name); err != nil {
		return hubError(ExitUsage, ErrorData{}, "%v", err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sessions[name] != nil || h.starting[name] {
		return hubError(ExitUsage, ErrorData{}, "a session %q is running already (elicit session stop %s ends it)", name, name)
	}
	h.starting[name] = true
	h.started = true
	return nil
}

// newSession is the session a reserved name opens as (px: a proxied one).
func (h *hub) newSession(name string, px *proxied) *Session {
	sctx, cancel := context.WithCancel(context.Background())
	s := &Session{Name: name, since: time.Now(), ctx: sctx, cancel: cancel, calls: map[string]*Call{}, proxy: px}
	s.ask = newPrompter(s)
	return s
}

// admit ends a reservation: s joins the hub opened, or on err its name is
// free again and err is returned.
func (h *hub) admit(s *Session, opened *Opened, err error) error {
	h.mu.Lock()
	delete(h.starting, s.Name)
	if err == nil {
		s.opened = opened
		h.sessions[s.Name] = s
	}
	h.mu.Unlock()
	if err != nil {
		s.cancel()
	}
	return err
}

// start opens a session (the name is taken while it connects).
func (h *hub) start(ctx context.Context, p StartParams) (*StartResult, error) {
	if err := h.reserve(p.Session); err != nil {
		return nil, err
	}
	s := h.newSession(p.Session, nil)
	opened, err := h.cfg.Open(ctx, p, Hooks{Prompter: s.ask, Observer: s.ask})
	if err := h.admit(s, opened, err); err != nil {
		return nil, hubError(h.cfg.Code(err), ErrorData{}, "%s", err.Error())
	}
	c := opened.Client
	return &StartResult{Session: s.Name, Server: c.Name(), Protocol: c.Protocol(), Era: c.Era(), Pid: opened.Pid, HubPid: os.Getpid()}, nil
}

// stop ends a session; the hub ends with its last one.
func (h *hub) stop(name string) (*StopResult, error) {
	h.mu.Lock()
	s := h.sessions[name]
	delete(h.sessions, name)
	h.mu.Unlock()
	if s == nil {
		return nil, hubError(ExitConnect, ErrorData{}, "no session %q (elicit session list shows them)", name)
	}
	open := s.ask.count()
	s.close()
	return &StopResult{Session: name, Stopped: true, Abandoned: open}, nil
}

// run runs a headless command on a session. A call gets a Call; with
// NoWait it runs on under the session and its id is answered at once.
func (h *hub) run(ctx context.Context, p RunParams) (*RunResult, error) {
	s, err := h.session(p.Session)
	if err != nil {
		return nil, err
	}
	if err := s.Err(); err != nil {
		return nil, hubError(ExitConnect, ErrorData{}, "%s", err.Error())
	}
	if s.proxy != nil {
		return nil, hubError(ExitUsage, ErrorData{}, "session %s is proxied (elicit proxy --session): its host runs its calls; elicit questions and elicit answer work on it", s.Name)
	}
	if len(p.Args) == 0 {
		return nil, hubError(ExitUsage, ErrorData{}, "no command to run")
	}
	ctx = context.WithValue(ctx, sessionKey{}, s)
	if p.Args[0] != "call" {
		if p.NoWait {
			return nil, hubError(ExitUsage, ErrorData{}, "--no-wait is for elicit call")
		}
		r := h.exec(ctx, s, p.Args)
		return &r, nil
	}
	c := s.newCall()
	if !p.NoWait {
		defer s.forget(c)
		r := h.exec(context.WithValue(ctx, callKey{}, c), s, p.Args)
		c.finish(r)
		return &r, nil
	}
	// It outlives this connection: it ends with the session, or its
	// result is collected by elicit result.
	cctx := context.WithValue(context.WithValue(s.ctx, sessionKey{}, s), callKey{}, c)
	if !s.goRun(c, func() RunResult { return h.exec(cctx, s, p.Args) }) {
		s.forget(c)
		return nil, hubError(ExitConnect, ErrorData{}, "session %s is stopping", s.Name)
	}
	return &RunResult{Call: c.ID, Questions: s.questionsOf(c.ID)}, nil
}

// exec runs the command, catching what it prints.
func (h *hub) exec(ctx context.Context, s *Session, args []string) RunResult {
	var out, errs bytes.Buffer
	code := h.cfg.Run(ctx, s, args, &out, &errs)
	return RunResult{Stdout: out.String(), Stderr: errs.String(), Exit: code}
}

// result waits for a call started with NoWait and answers its end.
func (h *hub) result(ctx context.Context, p ResultParams) (*RunResult, error) {
	s, err := h.session(p.Session)
	if err != nil {
		return nil, err
	}
	c := s.call(p.Call)
	if c == nil {
		return nil, hubError(ExitUsage, ErrorData{}, "no call %q in session %s (elicit call --no-wait prints its id)", p.Call, s.Name)
	}
	select {
	case <-c.done:
		r := c.result
		return &r, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	case <-s.ctx.Done():
		return nil, hubError(ExitConnect, ErrorData{}, "session %s stopped before call %s ended", s.Name, c.ID)
	}
}

// answer settles one open question and waits until the answer went out.
func (h *hub) answer(ctx context.Context, p AnswerParams) (*AnswerResult, error) {
	s, err := h.session(p.Session)
	if err != nil {
		return nil, err
	}
	pd, err := s.ask.lookup(p.Key)
	if err != nil {
		return nil, answerError(err)
	}
	out, err := outcomeOf(pd.q, p)
	if err != nil {
		return nil, err
	}
	if pd, err = s.ask.claim(p.Key, out); err != nil {
		return nil, answerError(err)
	}
	t := time.NewTimer(settleBound)
	defer t.Stop()
	select {
	case <-pd.resolved:
	case <-t.C:
		return nil, hubError(ExitConnect, ErrorData{}, "question %s: the answer was given, but the session did not say within %s that it went out", p.Key, settleBound)
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	r := &AnswerResult{Key: p.Key, Outcome: pd.entry.Kind.String(), Sent: pd.sent, Content: pd.entry.Content}
	if pd.entry.Kind != out.Kind {
		return nil, hubError(ExitNotAccepted, ErrorData{Ended: pd.entry.Kind.String()},
			"question %s ended %s, not %s: %s", p.Key, pd.entry.Kind, out.Kind, pd.entry.Reason)
	}
	return r, nil
}

// answerError is the error of an answer to a question not open: exit 5
// saying how it ended, or 2 for a key the session never had.
func answerError(err error) error {
	var ended *errEnded
	if errors.As(err, &ended) {
		return hubError(ExitNotAccepted, ErrorData{Ended: ended.how}, "%s", err.Error())
	}
	return hubError(ExitUsage, ErrorData{}, "%s", err.Error())
}

// outcomeOf is the answer p gives q, checked in the hub before anything
// is sent: content that fails the schema names its field (exit 2).
func outcomeOf(q *question.Question, p AnswerParams) (question.Outcome, error) {
	switch p.Action {
	case "decline":
		return question.Outcome{Kind: question.Decline, Reason: "elicit answer --decline"}, nil
	case "cancel":
		return question.Outcome{Kind: question.Cancel, Reason: "elicit answer --cancel"}, nil
	case "accept":
	default:
		return question.Outcome{}, hubError(ExitUsage, ErrorData{}, "unknown action %q", p.Action)
	}
	if q.Mode == question.ModeURL {
		if len(p.Content) > 0 {
			return question.Outcome{}, hubError(ExitUsage, ErrorData{}, "question %s is URL mode: accept is consent only and carries no content (use --accept-defaults or --accept '{}')", p.Key)
		}
		return question.Outcome{Kind: question.Accept, Reason: "elicit answer: consent"}, nil
	}
	if p.Defaults {
		out := question.AcceptDefaults.Prompt(context.Background(), q)
		if out.Kind != question.Accept {
			return question.Outcome{}, hubError(ExitUsage, ErrorData{}, "question %s: --accept-defaults cannot answer it: %s", p.Key, out.Reason)
		}
		return out, nil
	}
	content, unknown := question.Merge(q, p.Content)
	if len(unknown) > 0 {
		return question.Outcome{}, hubError(ExitUsage, ErrorData{Field: unknown[0]}, "question %s has no field %q (nothing sent)", p.Key, unknown[0])
	}
	if q.Schema != nil {
		if err := q.Schema.Validate(content); err != nil {
			var ve *schema.ValidationError
			if errors.As(err, &ve) && ve.Property != "" {
				return question.Outcome{}, hubError(ExitUsage, ErrorData{Field: ve.Property},
					"question %s: field %q %s (nothing sent)", p.Key, ve.Property, ve.Reason)
			}
			return question.Outcome{}, hubError(ExitUsage, ErrorData{}, "question %s: %v (nothing sent)", p.Key, err)
		}
	}
	return question.Outcome{Kind: question.Accept, Content: content, Reason: "elicit answer --accept"}, nil
}

var _ client.Observer = (*Prompter)(nil)
