package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// DefaultWriteTimeout bounds one write to either side.
const DefaultWriteTimeout = 10 * time.Second

// Config is one proxied connection.
type Config struct {
	// Host is the host's side (elicit's stdin and stdout); Server the
	// server's, dialled with the server flags. Run closes both.
	Host, Server transport.Conn
	// Name is the server's name: it keys the questions elicit asks.
	Name string
	// Elicit answers the elicitations elicit fills in, of the modes in
	// Modes; nil fills in no elicitation.
	Elicit question.Prompter
	Modes  question.Modes
	// Sample answers the sampling requests elicit fills in; nil fills in
	// no sampling.
	Sample question.Prompter
	// Person answers the filled-in questions no policy above answers
	// (Elicit nil; Sample nil with PersonSamples): a person, through the
	// sessions hub (elicit proxy --session). nil: none.
	Person        Person
	PersonSamples bool
	// OnHost hears the host's clientInfo name from its initialize.
	OnHost func(name string)
	// Roots is the roots/list result elicit answers with when it fills in
	// roots; nil fills in no roots.
	Roots json.RawMessage
	// Findings records the host's violations (Party host); nil records
	// none.
	Findings *findings.Recorder
	// Notice hears what the proxy has to say (a host's violation, what it
	// filled in); the caller escapes it. nil says nothing.
	Notice func(string)
	// WriteTimeout bounds one write; zero means DefaultWriteTimeout.
	WriteTimeout time.Duration
}

// offer is what elicit can fill in.
func (c *Config) offer() caps {
	elicit := c.Elicit != nil || c.Person != nil
	return caps{form: elicit && c.Modes.Form, url: elicit && c.Modes.URL,
		sampling: c.Sample != nil || (c.Person != nil && c.PersonSamples), roots: c.Roots != nil}
}

// proxy is one running proxied connection.
type proxy struct {
	cfg  Config
	ctx  context.Context // ends when the connection does
	wg   sync.WaitGroup  // the answers and rounds under way
	ids  *ownIDs
	mu   sync.Mutex
	fill caps // 2025-11-25: filled in at initialize
	// declared is what the server was told (the host's and the filled).
	declared caps
	// toHost are the server's requests given to the host, which only
	// the host answers.
	toHost map[jsonrpc.ID]hostAsked
	// answering are the server's requests elicit answers, with what
	// withdraws each (the server's notifications/cancelled).
	answering map[jsonrpc.ID]context.CancelCauseFunc
	// hostCalls are the host's requests under way, with the round that
	// completes each one elicit fills in (2026-07-28).
	hostCalls map[jsonrpc.ID]*call
	schemas   question.SchemaCache
	version   string // the protocol version the server connection was told
	// carried are elicit's answers to rounds shared with the host, for
	// the host's retry (carryKey).
	carried map[string]map[string]json.RawMessage
}

// Run proxies until either side ends: the host closing its end stops the
// server (Server.Close), and the server going away closes the host's end.
// It returns nil when the host ended it, else why the server went.
func Run(ctx context.Context, cfg Config) error {
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &proxy{cfg: cfg, ctx: ctx, ids: newOwnIDs(), toHost: map[jsonrpc.ID]hostAsked{},
		answering: map[jsonrpc.ID]context.CancelCauseFunc{}, hostCalls: map[jsonrpc.ID]*call{},
		carried: map[string]map[string]json.RawMessage{}}
	hostDone := make(chan error, 1)
	serverDone := make(chan error, 1)
	go func() { hostDone <- p.fromHost() }()
	go func() { serverDone <- p.fromServer() }()
	var err error
	select {
	case <-hostDone:
		cancel()
		_ = cfg.Server.Close() // stops the process group: no orphan
		_ = cfg.Host.Close()
		<-serverDone
	case err = <-serverDone:
		cancel()
		_ = cfg.Host.Close()
		_ = cfg.Server.Close()
		<-hostDone
	case <-ctx.Done():
		cancel()
		_ = cfg.Server.Close()
		_ = cfg.Host.Close()
		<-hostDone
		<-serverDone
	}
	p.wg.Wait()
	return err
}

// notice tells the person something.
func (p *proxy) notice(format string, args ...any) {
	if p.cfg.Notice != nil {
		p.cfg.Notice(fmt.Sprintf(format, args...))
	}
}

func (p *proxy) write(c transport.Conn, m *jsonrpc.Message) error {
	ctx, cancel := context.WithTimeout(p.ctx, p.cfg.WriteTimeout)
	defer cancel()
	return c.Write(ctx, m, nil)
}

func (p *proxy) toServer(m *jsonrpc.Message) {
	if err := p.write(p.cfg.Server, m); err != nil && p.ctx.Err() == nil {
		p.notice("write to the server: %v", err)
	}
}

func (p *proxy) toHostConn(m *jsonrpc.Message) {
	if err := p.write(p.cfg.Host, m); err != nil && p.ctx.Err() == nil {
		p.notice("write to the host: %v", err)
	}
}

// key is id as a map key (1 and 1.0 are one id).
func key(id jsonrpc.ID) jsonrpc.ID {
	if c, ok := id.Canonical(); ok {
		return c
	}
	return id
}

// fromHost reads the host until it ends; nil when it closed its end.
func (p *proxy) fromHost() error {
	for {
		in, err := p.cfg.Host.Read(p.ctx)
		if err != nil {
			return fmt.Errorf("read the host: %w", err)
		}
		if in.Msg == nil {
			continue // only a server's answers end this way
		}
		p.hostMessage(in.Msg)
	}
}

func (p *proxy) hostMessage(m *jsonrpc.Message) {
	switch m.Kind() {
	case jsonrpc.KindRequest:
		p.hostRequest(m)
	case jsonrpc.KindNotification:
		p.hostNotification(m)
	case jsonrpc.KindResponse:
		p.mu.Lock()
		asked, ours := p.toHost[key(m.ID)]
		delete(p.toHost, key(m.ID))
		p.mu.Unlock()
		if !ours {
			p.hostFinding(findings.HostAnswerUnasked, m, "the host answered request %s, which the server never sent it (dropped)", m.ID)
			return
		}
		p.judgeHostAnswer(asked, m)
		p.toServer(m)
	}
}

func (p *proxy) hostRequest(m *jsonrpc.Message) {
	p.ids.hostUsed(m.ID)
	c := &call{hostID: m.ID, method: m.Method}
	switch {
	case m.Method == wire.MethodInitialize:
		if p.cfg.OnHost != nil {
			p.cfg.OnHost(clientName(m.Params))
		}
		host := initializeCaps(m.Params)
		fill := p.cfg.offer().minus(host)
		p.mu.Lock()
		p.fill, p.declared = fill, host.or(fill)
		p.mu.Unlock()
		if !fill.none() {
			params, err := fillInitialize(m.Params, fill)
			if err != nil {
				p.notice("initialize: %v (sent as the host wrote it)", err)
				break
			}
			m = &jsonrpc.Message{ID: m.ID, Method: m.Method, Params: params}
			p.notice("filling in for the host: %s", fill)
		}
	default:
		if modernMeta(m.Params) == nil {
			break
		}
		p.setVersion(member(modernMeta(m.Params), wire.MetaProtocolVersion))
		host := readCaps(member(modernMeta(m.Params), wire.MetaClientCapabilities))
		c.fill = p.cfg.offer().minus(host)
		c.declared = host.or(c.fill)
		if c.fill.none() {
			break
		}
		if carried := p.withCarried(m.Method, m.Params); carried != nil {
			m = &jsonrpc.Message{ID: m.ID, Method: m.Method, Params: carried}
		}
		params, err := fillModern(m.Params, c.fill)
		if err != nil {
			p.notice("%s: %v (sent as the host wrote it)", m.Method, err)
			c.fill = caps{}
			break
		}
		m = &jsonrpc.Message{ID: m.ID, Method: m.Method, Params: params}
	}
	c.params = m.Params
	c.serverID = m.ID
	p.mu.Lock()
	p.hostCalls[key(m.ID)] = c
	p.mu.Unlock()
	p.toServer(m)
}

func (p *proxy) hostNotification(m *jsonrpc.Message) {
	if m.Method == wire.NotifyCancelled {
		p.hostCancel(m)
		return
	}
	p.toServer(m)
}

// hostCancel forwards the host's cancellation of one of its requests,
// under the id the server now knows it by (a round elicit completes has
// one of elicit's own), and ends elicit's round.
func (p *proxy) hostCancel(m *jsonrpc.Message) {
	var params struct {
		RequestID *jsonrpc.ID `json:"requestId"`
	}
	_ = json.Unmarshal(m.Params, &params)
	if params.RequestID == nil {
		p.toServer(m)
		return
	}
	p.mu.Lock()
	c := p.hostCalls[key(*params.RequestID)]
	p.mu.Unlock()
	if c == nil {
		p.toServer(m)
		return
	}
	id := c.cancel()
	p.callEnded(c) // an answer that crosses the cancel goes to the host, which ignores it
	if rc, ok := p.cfg.Server.(transport.RequestCanceler); ok && rc.CancelRequest(id) {
		return
	}
	if id != c.hostID {
		params, err := withMember(m.Params, "requestId", mustJSON(id))
		if err == nil {
			m = &jsonrpc.Message{Method: m.Method, Params: params}
		}
	}
	p.toServer(m)
}

func mustJSON(id jsonrpc.ID) json.RawMessage {
	b, _ := encode(id) // an id always marshals
	return b
}

// callEnded forgets the host's call c.
func (p *proxy) callEnded(c *call) {
	p.mu.Lock()
	if p.hostCalls[key(c.hostID)] == c {
		delete(p.hostCalls, key(c.hostID))
	}
	p.mu.Unlock()
}

// fromServer reads the server until it ends, and says why.
func (p *proxy) fromServer() error {
	for {
		in, err := p.cfg.Server.Read(p.ctx)
		if err != nil {
			if errors.Is(err, transport.ErrClosed) || p.ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("the server went away: %w", err)
		}
		if in.Msg == nil {
			p.serverAnswer(&jsonrpc.Message{ID: in.ID, Error: jsonrpc.NewError(jsonrpc.CodeInternalError,
				"elicit proxy: the server's answer could not be read: "+in.Err.Error(), nil)})
			continue
		}
		switch in.Msg.Kind() {
		case jsonrpc.KindResponse:
			p.serverAnswer(in.Msg)
		case jsonrpc.KindRequest:
			p.serverRequest(in.Msg)
		case jsonrpc.KindNotification:
			p.serverNotification(in.Msg)
		}
	}
}

// serverAnswer routes the server's response: to elicit's own request, or
// to the host's under the host's id, completing first the rounds elicit
// fills in.
func (p *proxy) serverAnswer(m *jsonrpc.Message) {
	if p.ids.deliver(m) {
		return
	}
	p.mu.Lock()
	c := p.hostCalls[key(m.ID)]
	p.mu.Unlock()
	if c != nil && c.method == wire.MethodInitialize && m.Result != nil {
		p.setVersion(member(m.Result, "protocolVersion"))
	}
	if c != nil && !c.fill.none() && m.Result != nil {
		if round, ok := p.readRound(c, m.Result); ok {
			// The call stays the host's under way (a cancel finds it)
			// until the round ends.
			p.wg.Go(func() {
				defer p.callEnded(c)
				p.complete(c, round)
			})
			return
		}
	}
	if c != nil {
		p.callEnded(c)
	}
	p.toHostConn(m)
}

func (p *proxy) serverNotification(m *jsonrpc.Message) {
	if m.Method == wire.NotifyCancelled {
		var params struct {
			RequestID *jsonrpc.ID `json:"requestId"`
			Reason    string      `json:"reason"`
		}
		_ = json.Unmarshal(m.Params, &params)
		if params.RequestID != nil {
			p.mu.Lock()
			withdraw := p.answering[key(*params.RequestID)]
			p.mu.Unlock()
			if withdraw != nil {
				withdraw(question.ErrWithdrawn)
				return // it was elicit's to answer: the host never saw the request
			}
		}
	}
	p.toHostConn(m)
}

// serverRequest answers the server's request if elicit fills in its
// capability, else gives it to the host.
func (p *proxy) serverRequest(m *jsonrpc.Message) {
	p.mu.Lock()
	fill, declared := p.fill, p.declared
	mine := fills(fill, m)
	if mine {
		ctx, withdraw := context.WithCancelCause(p.ctx)
		p.answering[key(m.ID)] = withdraw
		p.mu.Unlock()
		p.wg.Go(func() {
			defer withdraw(nil)
			p.answer(ctx, m, declared)
			p.mu.Lock()
			delete(p.answering, key(m.ID))
			p.mu.Unlock()
		})
		return
	}
	p.toHost[key(m.ID)] = hostAsked{method: m.Method, mode: elicitMode(m.Params), declared: declared}
	p.mu.Unlock()
	p.toHostConn(m)
}

// fills reports whether a server request m is of a capability elicit
// fills in.
func fills(fill caps, m *jsonrpc.Message) bool {
	switch m.Method {
	case wire.MethodElicit:
		if elicitMode(m.Params) == question.ModeURL {
			return fill.url
		}
		return fill.form
	case wire.MethodCreateMessage:
		return fill.sampling
	case wire.MethodRootsList:
		return fill.roots
	}
	return false
}

// elicitMode is the mode an elicitation's params ask (form when none).
func elicitMode(params json.RawMessage) question.Mode {
	var mode string
	_ = json.Unmarshal(member(params, "mode"), &mode)
	if mode == string(question.ModeURL) {
		return question.ModeURL
	}
	return question.ModeForm
}

func (c caps) String() string {
	var s []string
	if c.form {
		s = append(s, "elicitation form")
	}
	if c.url {
		s = append(s, "elicitation url")
	}
	if c.sampling {
		s = append(s, "sampling")
	}
	if c.roots {
		s = append(s, "roots")
	}
	if len(s) == 0 {
		return "nothing"
	}
	out := s[0]
	for _, x := range s[1:] {
		out += ", " + x
	}
	return out
}

// setVersion tells a server connection that repeats the protocol version
// on every request (Streamable HTTP's MCP-Protocol-Version) which one
// the host and the server agreed on, as elicit's own sessions do.
func (p *proxy) setVersion(raw json.RawMessage) {
	var v string
	if json.Unmarshal(raw, &v) != nil || v == "" {
		return
	}
	p.mu.Lock()
	same := p.version == v
	p.version = v
	p.mu.Unlock()
	if vs, ok := p.cfg.Server.(transport.VersionSetter); ok && !same {
		vs.SetProtocolVersion(v)
	}
}
