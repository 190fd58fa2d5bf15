package hub

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// A proxied session (elicit proxy --session) is not opened by the hub:
// the proxy process talks to its host and its server, and holds one
// connection to the hub (Link) for the session's life. On it the proxy
// opens the session (MethodProxyOpen), waits for its stop
// (MethodProxyWait), says who its host is, passes its server's frames,
// and asks the questions it fills in for the host (MethodAsk), which wait
// in the session's Prompter like any other until a person answers them.
// The connection closing is the proxy gone: its questions end
// disconnected and the session leaves the hub.
const (
	MethodProxyOpen = "proxy/open"     // ProxyParams → StartResult
	MethodProxyWait = "proxy/wait"     // NameParams → {} once the session is stopped
	MethodProxyHost = "proxy/host"     // HostParams → {}
	MethodAsk       = "proxy/ask"      // AskParams → question.Outcome
	MethodSettled   = "proxy/settled"  // SettledParams → {}
	MethodWithdraw  = "proxy/withdraw" // WithdrawParams → {}
	MethodFrame     = "proxy/frame"    // FrameParams, a notification
)

// ProxyParams open a proxied session.
type ProxyParams struct {
	Session string `json:"session"`
	Server  string `json:"server"`
	Pid     int    `json:"pid"` // the proxy's
}

// HostParams name the proxied session's host (its clientInfo name).
type HostParams struct {
	Session string `json:"session"`
	Host    string `json:"host"`
}

// AskParams are one question the proxy filled in: the server's request
// as sent and what the server was told is declared, parsed again here
// (Request's fields: method, params, modes, sampling).
type AskParams struct {
	Session  string          `json:"session"`
	Key      WireKey         `json:"key"`
	Method   string          `json:"method"`
	Params   json.RawMessage `json:"params,omitempty"`
	Modes    question.Modes  `json:"modes"`
	Sampling bool            `json:"sampling,omitempty"`
	Arrived  time.Time       `json:"arrived"`
}

// WireKey is a question.Key on the wire (an id not set is left out: a
// JSON-RPC id is never null).
type WireKey struct {
	Server    string            `json:"server"`
	Delivery  question.Delivery `json:"delivery"`
	RequestID *jsonrpc.ID       `json:"requestId,omitempty"`
	CallID    *jsonrpc.ID       `json:"callId,omitempty"`
	TaskID    string            `json:"taskId,omitempty"`
	Input     string            `json:"input,omitempty"`
}

// WireKeyOf is k on the wire.
func WireKeyOf(k question.Key) WireKey {
	w := WireKey{Server: k.Server, Delivery: k.Delivery, TaskID: k.TaskID, Input: k.Input}
	if k.RequestID.IsValid() {
		w.RequestID = &k.RequestID
	}
	if k.CallID.IsValid() {
		w.CallID = &k.CallID
	}
	return w
}

// Key is the question.Key w stands for.
func (w WireKey) Key() question.Key {
	k := question.Key{Server: w.Server, Delivery: w.Delivery, TaskID: w.TaskID, Input: w.Input}
	if w.RequestID != nil {
		k.RequestID = *w.RequestID
	}
	if w.CallID != nil {
		k.CallID = *w.CallID
	}
	return k
}

// SettledParams say how a question ended in the proxy and what went out.
type SettledParams struct {
	Session string           `json:"session"`
	Key     WireKey          `json:"key"`
	Asked   question.Kind    `json:"asked"`
	Outcome question.Outcome `json:"outcome"`
	Sent    string           `json:"sent"`
	Latency time.Duration    `json:"latency"`
}

// WithdrawParams end a question the proxy no longer waits for: How is
// "withdrawn" (the host or server withdrew it), "disconnected",
// "abandoned" or "timeout".
type WithdrawParams struct {
	Session string `json:"session"`
	Key     string `json:"key"`
	How     string `json:"how"`
}

// FrameParams are one frame between the proxy and its server.
type FrameParams struct {
	Session string    `json:"session"`
	In      bool      `json:"in"` // from the server
	Raw     string    `json:"raw"`
	Time    time.Time `json:"time"`
}

// ProxyOpener makes what the hub keeps of a proxied session (its attach
// TUI, fed its frames); cmd/elicit sets it. The Opened it returns has no
// Client.
type ProxyOpener func(p ProxyParams, h Hooks) (*Opened, error)

// proxied is what a proxied session has instead of a client.Session.
type proxied struct {
	server string
	pid    int

	mu   sync.Mutex
	host string
	gone bool
	asks map[string]context.CancelCauseFunc // the questions waiting, by key
}

// causes are how a proxy names a question's end, as the engine's causes.
var causes = map[string]error{
	"withdrawn":    question.ErrWithdrawn,
	"abandoned":    question.ErrAbandoned,
	"disconnected": question.ErrDisconnected,
	"timeout":      question.ErrTimeout,
}

// endAll ends every question waiting with cause.
func (px *proxied) endAll(cause error) {
	px.mu.Lock()
	defer px.mu.Unlock()
	for _, end := range px.asks {
		end(cause)
	}
}

// proxyOpen adds a proxied session; ctx is its connection's, whose end is
// the proxy's.
func (h *hub) proxyOpen(ctx context.Context, p ProxyParams) (*StartResult, error) {
	if err := h.reserve(p.Session); err != nil {
		return nil, err
	}
	s := h.newSession(p.Session, &proxied{server: p.Server, pid: p.Pid, asks: map[string]context.CancelCauseFunc{}})
	opened := &Opened{Close: func() {}}
	var err error
	if h.cfg.OpenProxy != nil {
		opened, err = h.cfg.OpenProxy(p, Hooks{Prompter: s.ask, Observer: s.ask})
	}
	if err := h.admit(s, opened, err); err != nil {
		return nil, hubError(ExitUsage, ErrorData{}, "%s", err.Error())
	}
	// The proxy gone (its connection closed): its questions end
	// disconnected, and the session leaves the hub.
	context.AfterFunc(ctx, func() {
		s.proxy.mu.Lock()
		s.proxy.gone = true
		s.proxy.mu.Unlock()
		s.proxy.endAll(question.ErrDisconnected)
		h.mu.Lock()
		mine := h.sessions[s.Name] == s
		if mine {
			delete(h.sessions, s.Name)
		}
		h.mu.Unlock()
		if mine {
			s.close()
		}
		h.ended()
	})
	return &StartResult{Session: s.Name, Server: p.Server, Protocol: "proxy", HubPid: os.Getpid()}, nil
}

// proxySession is the proxied session named, or why not.
func (h *hub) proxySession(name string) (*Session, error) {
	s, err := h.session(name)
	if err != nil {
		return nil, err
	}
	if s.proxy == nil {
		return nil, hubError(ExitUsage, ErrorData{}, "session %q is not a proxied one", name)
	}
	return s, nil
}

// proxyWait answers once the session stopped (or the proxy went).
func (h *hub) proxyWait(ctx context.Context, name string) (any, error) {
	s, err := h.proxySession(name)
	if err != nil {
		return nil, err
	}
	select {
	case <-s.ctx.Done():
		return struct{}{}, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// ask puts a proxy's question to the session's Prompter and answers what
// settles it; a question that ends otherwise is answered with how.
func (h *hub) ask(p AskParams) (*question.Outcome, error) {
	s, err := h.proxySession(p.Session)
	if err != nil {
		return nil, err
	}
	k := p.Key.Key()
	q := &question.Question{Key: k, Server: k.Server, Arrived: p.Arrived}
	kind, ok := question.KindFor(p.Method)
	if !ok {
		return nil, hubError(ExitUsage, ErrorData{}, "no question kind answers %s", p.Method)
	}
	q.Kind = kind
	env := question.Env{Modes: p.Modes, Sampling: question.SamplingModes{On: p.Sampling}, Subset: schema.Subset2025_11_25,
		Schemas: &question.SchemaCache{}}
	if perr := question.ParseAs(q, p.Params, env); perr != nil {
		return nil, hubError(ExitUsage, ErrorData{}, "question %s: %s", q.Key, perr.Msg)
	}
	key := q.Key.String()
	actx, end := context.WithCancelCause(context.Background())
	defer end(nil)
	s.proxy.mu.Lock()
	if s.proxy.gone {
		s.proxy.mu.Unlock()
		return nil, hubError(ExitConnect, ErrorData{Ended: "disconnected"}, "session %s: the proxy is gone", s.Name)
	}
	if _, dup := s.proxy.asks[key]; dup {
		// A server that reuses an id still open: the first stays the
		// one answerable under the key.
		s.proxy.mu.Unlock()
		return nil, hubError(ExitUsage, ErrorData{}, "question %s is open already (a request id used twice)", key)
	}
	s.proxy.asks[key] = end
	s.proxy.mu.Unlock()
	defer func() {
		s.proxy.mu.Lock()
		delete(s.proxy.asks, key)
		s.proxy.mu.Unlock()
	}()
	out := s.ask.Prompt(actx, q)
	if actx.Err() != nil {
		how := endingOf(context.Cause(actx))
		return nil, hubError(ExitNotAccepted, ErrorData{Ended: how}, "question %s ended %s", key, how)
	}
	return &out, nil
}

// withdraw ends a question the proxy no longer waits for.
func (h *hub) withdraw(p WithdrawParams) (any, error) {
	s, err := h.proxySession(p.Session)
	if err != nil {
		return nil, err
	}
	cause := causes[p.How]
	if cause == nil {
		cause = errors.New(p.How)
	}
	s.proxy.mu.Lock()
	end := s.proxy.asks[p.Key]
	s.proxy.mu.Unlock()
	if end != nil {
		end(cause)
	}
	return struct{}{}, nil
}

// settled ends the wait of the answer that settled a proxy's question:
// its answer went out (the proxy's journal entry).
func (h *hub) settled(p SettledParams) (any, error) {
	s, err := h.proxySession(p.Session)
	if err != nil {
		return nil, err
	}
	k := p.Key.Key()
	e := question.JournalEntry{Key: k, Server: k.Server, Kind: p.Outcome.Kind, Content: p.Outcome.Content, Reason: p.Outcome.Reason,
		Sent: p.Sent, Asked: p.Asked, At: time.Now(), Latency: p.Latency}
	s.ask.resolve(k.String(), e, p.Sent)
	if o := s.opened.Events; o != nil {
		o.Event(client.PromptResolved{Key: k, Entry: e, Sent: p.Sent})
	}
	return struct{}{}, nil
}

// frame passes one of the proxy's frames to what the hub keeps of it.
func (h *hub) frame(p FrameParams) {
	s, err := h.proxySession(p.Session)
	if err != nil || s.opened.OnFrame == nil {
		return
	}
	dir := transport.Out
	if p.In {
		dir = transport.In
	}
	s.opened.OnFrame(transport.Frame{Time: p.Time, Dir: dir, Raw: []byte(p.Raw)})
}

// host records the proxied session's host.
func (h *hub) host(p HostParams) (any, error) {
	s, err := h.proxySession(p.Session)
	if err != nil {
		return nil, err
	}
	s.proxy.mu.Lock()
	s.proxy.host = p.Host
	s.proxy.mu.Unlock()
	return struct{}{}, nil
}
