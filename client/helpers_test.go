package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// liveness is how long tests wait for something that should happen at once.
const liveness = 5 * time.Second

// connTransport dials to an already made Conn.
type connTransport struct{ c transport.Conn }

func (t connTransport) Dial(context.Context) (transport.Conn, error) { return t.c, nil }

// recorder is both a client.Observer and a transport.Observer: it keeps
// every event and every frame.
type recorder struct {
	mu     sync.Mutex
	events []client.Event
	frames []transport.Frame
	// grew, once a waiter asked for it (eventsAndMore), is closed when an
	// event is recorded: the waiter looks again then.
	grew chan struct{}
}

func (r *recorder) Event(e client.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
	if r.grew != nil {
		close(r.grew)
		r.grew = nil
	}
}

// eventsAndMore returns the events so far and a channel closed when the
// next one is recorded.
func (r *recorder) eventsAndMore() ([]client.Event, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.grew == nil {
		r.grew = make(chan struct{})
	}
	return append([]client.Event(nil), r.events...), r.grew
}

func (r *recorder) Frame(f transport.Frame) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f.Raw = append([]byte(nil), f.Raw...)
	r.frames = append(r.frames, f)
}

func (r *recorder) Stderr(string) {}

func (r *recorder) Events() []client.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]client.Event(nil), r.events...)
}

// wireMsg is a decoded frame.
type wireMsg struct {
	ID     *json.RawMessage `json:"id"`
	Method string           `json:"method"`
	Params json.RawMessage  `json:"params"`
	Result json.RawMessage  `json:"result"`
	Error  *jsonrpc.Error   `json:"error"`
}

// out returns our outgoing frames, decoded.
func (r *recorder) out() []wireMsg {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ms []wireMsg
	for _, f := range r.frames {
		if f.Dir != transport.Out || f.Err != nil || len(f.Raw) == 0 {
			continue
		}
		var m wireMsg
		if json.Unmarshal(f.Raw, &m) == nil {
			ms = append(ms, m)
		}
	}
	return ms
}

// responsesTo returns our frames that answer the server's request id.
func (r *recorder) responsesTo(id string) []wireMsg {
	var ms []wireMsg
	for _, m := range r.out() {
		if m.Method == "" && m.ID != nil && string(*m.ID) == id {
			ms = append(ms, m)
		}
	}
	return ms
}

// waitEvent waits until an event matching pred was recorded.
func waitEvent[T client.Event](t *testing.T, r *recorder, pred func(T) bool) T {
	t.Helper()
	return waitEventWithin(t, r, liveness, pred)
}

// waitEventWithin is waitEvent with its own bound.
func waitEventWithin[T client.Event](t *testing.T, r *recorder, bound time.Duration, pred func(T) bool) T {
	t.Helper()
	timeout := time.After(bound)
	for {
		events, more := r.eventsAndMore()
		for _, e := range events {
			if v, ok := e.(T); ok && (pred == nil || pred(v)) {
				return v
			}
		}
		select {
		case <-more:
		case <-timeout:
			var zero T
			t.Fatalf("no %T event within %v; got %v", zero, bound, r.Events())
			return zero
		}
	}
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(liveness)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond) // the interval of the poll
	}
}

// servePipe runs srv at the far end of an in-memory stream pair and
// connects a session to it. Everything is stopped at cleanup.
func servePipe(t testing.TB, srv *mcp.Server, opts *client.Options, rec *recorder) *client.Session {
	t.Helper()
	var obs transport.Observer
	if rec != nil {
		obs = rec
	}
	conn, sr, sw := transport.PipeIO(obs)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		ss, err := srv.Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
		if err != nil {
			return
		}
		go func() { <-ctx.Done(); _ = ss.Close() }()
		_ = ss.Wait()
	}()
	if opts == nil {
		opts = &client.Options{}
	}
	if opts.Name == "" {
		opts.Name = "test"
	}
	if rec != nil && opts.Observer == nil {
		opts.Observer = rec
	}
	s, err := client.Connect(context.Background(), connTransport{conn}, opts)
	if err != nil {
		cancel()
		_ = sr.Close()
		_ = sw.Close()
		<-done
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Close()
		cancel()
		<-done
	})
	return s
}

// askArgs is the input of the test servers' "ask" tool.
type askArgs struct {
	Name string `json:"name"`
}

// askSchema is a one-field form.
var askSchema = json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}`)

// legacyOpts restricts a go-sdk server to the stateful era (its tools call
// Session.Elicit, which 2026-07-28 forbids). Such a server answers our
// server/discover probe with -32022 listing only stateful versions, so
// every test using it also runs the probe's fallback to initialize.
func legacyOpts(o *mcp.ServerOptions) *mcp.ServerOptions {
	var c mcp.ServerOptions
	if o != nil {
		c = *o
	}
	c.SupportedProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
	return &c
}

// newAskServer returns a go-sdk server of the stateful era whose "ask" tool
// elicits one answer (message "question <name>") and returns
// "<name>: <action> <answer>".
func newAskServer(opts *mcp.ServerOptions) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "ask-server", Version: "1.0.0"}, legacyOpts(opts))
	mcp.AddTool(srv, &mcp.Tool{Name: "ask", Description: "asks one question"},
		func(ctx context.Context, req *mcp.CallToolRequest, in askArgs) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
				Message:         "question " + in.Name,
				RequestedSchema: askSchema,
			})
			if err != nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: in.Name + ": error " + err.Error()}}}, nil, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s: %s %v", in.Name, res.Action, res.Content["answer"])}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"},
		func(ctx context.Context, req *mcp.CallToolRequest, in askArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo " + in.Name}}}, nil, nil
		})
	return srv
}

// gate is a Prompter that holds every prompt until released, and answers
// with answer(p).
type gate struct {
	mu      sync.Mutex
	open    map[string]chan struct{} // by message
	calls   int
	answer  func(p *question.Question) question.Outcome
	ctxEnds map[string]error // by message: context.Cause when ctx ended first
	// returned is closed, by message, when Prompt has returned: the engine
	// settles a question whose ctx ended without waiting for the Prompter,
	// so cause waits for this before it reads ctxEnds.
	returned map[string]chan struct{}
}

func newGate(answer func(p *question.Question) question.Outcome) *gate {
	return &gate{open: map[string]chan struct{}{}, ctxEnds: map[string]error{}, returned: map[string]chan struct{}{}, answer: answer}
}

func (g *gate) Prompt(ctx context.Context, p *question.Question) question.Outcome {
	ch, done := make(chan struct{}), make(chan struct{})
	g.mu.Lock()
	g.open[p.Message] = ch
	g.returned[p.Message] = done
	g.calls++
	g.mu.Unlock()
	defer close(done)
	select {
	case <-ch:
		return g.answer(p)
	case <-ctx.Done():
		g.mu.Lock()
		g.ctxEnds[p.Message] = context.Cause(ctx)
		g.mu.Unlock()
		// A late answer, which the engine must discard.
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "too late"}}
	}
}

func (g *gate) waitOpen(t *testing.T, msgs ...string) {
	t.Helper()
	waitFor(t, "prompts "+strings.Join(msgs, ","), func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		for _, m := range msgs {
			if g.open[m] == nil {
				return false
			}
		}
		return true
	})
}

func (g *gate) release(msg string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	close(g.open[msg])
}

func (g *gate) cause(msg string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.ctxEnds[msg]
}

// ended is cause once the Prompt of msg has returned: the engine settles
// a question whose ctx ended without waiting for its Prompter, so a test
// that saw the question resolved waits for this before it reads the cause.
func (g *gate) ended(msg string) error {
	g.mu.Lock()
	done := g.returned[msg]
	g.mu.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			return fmt.Errorf("the Prompter of %q has not returned", msg)
		}
	}
	return g.cause(msg)
}

func (g *gate) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls
}

// peer is a hand-driven server at the far end of transport.Pipe, for wire
// behaviour no real server library produces on demand.
type peer struct {
	t    testing.TB
	conn transport.Conn
}

func (p *peer) read() *jsonrpc.Message {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	m, err := msgOf(p.conn.Read(ctx))
	if err != nil {
		p.t.Fatalf("peer read: %v", err)
	}
	return m
}

// expect reads until a message with method arrives (skipping others), and
// returns it.
func (p *peer) expect(method string) *jsonrpc.Message {
	p.t.Helper()
	for {
		m := p.read()
		if m.Method == method {
			return m
		}
	}
}

func (p *peer) send(m *jsonrpc.Message) {
	p.t.Helper()
	if err := p.conn.Write(context.Background(), m, nil); err != nil {
		p.t.Fatalf("peer write: %v", err)
	}
}

func (p *peer) sendRaw(id jsonrpc.ID, method string, params string) {
	p.t.Helper()
	p.send(&jsonrpc.Message{ID: id, Method: method, Params: json.RawMessage(params)})
}

func (p *peer) respond(id jsonrpc.ID, result string) {
	p.t.Helper()
	p.send(&jsonrpc.Message{ID: id, Result: json.RawMessage(result)})
}

// msgOf is what a peer's Read delivered, as a message: the client writes
// nothing a peer's stream cannot decode, so an Inbound without one is an
// error here.
func msgOf(in transport.Inbound, err error) (*jsonrpc.Message, error) {
	if err == nil && in.Msg == nil {
		err = fmt.Errorf("request %s ended without a message: %w", in.ID, in.Err)
	}
	return in.Msg, err
}

// readSkippingProbe reads sc's next message, answering our era probe
// (server/discover) the way a 2025 server does: method not found.
func readSkippingProbe(sc transport.Conn) (*jsonrpc.Message, error) {
	for {
		m, err := msgOf(sc.Read(context.Background()))
		if err != nil || m.Method != "server/discover" {
			return m, err
		}
		err = sc.Write(context.Background(), jsonrpc.NewErrorResponse(m.ID, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: server/discover", nil)), nil)
		if err != nil {
			return nil, err
		}
	}
}

// pipePeer connects a session to a hand-driven peer. The peer's handshake
// runs concurrently with Connect.
func pipePeer(t *testing.T, version string, opts *client.Options, rec *recorder) (*client.Session, *peer, transport.Conn) {
	t.Helper()
	return connectPeer(t, "peer", opts, rec, func(sc transport.Conn) {
		m, err := readSkippingProbe(sc)
		if err != nil || m.Method != "initialize" {
			return
		}
		_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"` + version + `","capabilities":{"tools":{"listChanged":true},"resources":{},"prompts":{},"logging":{}},"serverInfo":{"name":"peer","version":"0.1"},"instructions":"be nice"}`)}, nil)
		for {
			m, err := msgOf(sc.Read(context.Background()))
			if err != nil || m.Method == "notifications/initialized" {
				return
			}
		}
	})
}

// connectPeer connects a session named name (unless opts names it) to a
// hand-driven peer over transport.Pipe, running handshake on the peer's
// end while Connect runs.
func connectPeer(t *testing.T, name string, opts *client.Options, rec *recorder, handshake func(sc transport.Conn)) (*client.Session, *peer, transport.Conn) {
	t.Helper()
	var obs transport.Observer
	if rec != nil {
		obs = rec
	}
	cc, sc := transport.Pipe(obs)
	p := &peer{t: t, conn: sc}
	hs := make(chan struct{})
	go func() {
		defer close(hs)
		handshake(sc)
	}()
	if opts == nil {
		opts = &client.Options{}
	}
	if opts.Name == "" {
		opts.Name = name
	}
	if rec != nil && opts.Observer == nil {
		opts.Observer = rec
	}
	s, err := client.Connect(context.Background(), connTransport{cc}, opts)
	<-hs
	if err != nil {
		_ = sc.Close()
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Close()
		_ = sc.Close()
	})
	return s, p, sc
}

// waitJournal waits until the session's journal holds n entries (an
// answer goes out before it is journalled, so the server's reply to the
// call can overtake the entry).
func waitJournal(t *testing.T, s *client.Session, n int) []question.JournalEntry {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d journal entries", n), func() bool { return s.Journal().Counts().Total() >= n })
	return s.Journal().Entries()
}
