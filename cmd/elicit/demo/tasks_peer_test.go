package demo_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// go-sdk's clients know nothing of tasks, so the task tests speak raw
// JSON-RPC: a peer writes requests and reads every message the server
// sends, over ServeIO's pipes, an in-memory connection, or HTTP.

// msg is one JSON-RPC message from the server, left generic.
type msg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params map[string]any  `json:"params,omitempty"`
	Result map[string]any  `json:"result,omitempty"`
	Error  *wireErr        `json:"error,omitempty"`
}

type wireErr struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// peer is a hand-written client.
type peer struct {
	t      *testing.T
	modern bool           // add the 2026-07-28 _meta to every request
	caps   map[string]any // the capabilities that _meta declares
	send   func(body []byte, method, name string) error
	// hangUp closes the client's end; served is closed once serving
	// returned (pipePeer only).
	hangUp func()
	served <-chan struct{}

	mu      sync.Mutex
	nextID  int
	waiting map[string]chan msg
	inbox   []msg         // server requests and notifications, oldest first
	arrived chan struct{} // closed and replaced when inbox grows
}

// waitFor bounds every wait of the task tests.
const waitFor = 10 * time.Second

// extCaps declares form elicitation and the tasks extension.
var extCaps = map[string]any{
	"elicitation": map[string]any{"form": map[string]any{}},
	"extensions":  map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}},
}

func newPeer(t *testing.T, modern bool) *peer {
	return &peer{t: t, modern: modern, caps: extCaps, waiting: map[string]chan msg{}, arrived: make(chan struct{})}
}

// receive files one message from the server.
func (p *peer) receive(raw []byte) {
	var m msg
	if err := json.Unmarshal(raw, &m); err != nil {
		p.t.Errorf("undecodable message %q: %v", raw, err)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if m.Method != "" {
		p.inbox = append(p.inbox, m)
		close(p.arrived)
		p.arrived = make(chan struct{})
		return
	}
	if ch, ok := p.waiting[string(m.ID)]; ok {
		delete(p.waiting, string(m.ID))
		ch <- m
	}
}

// start sends a request and returns where its response will arrive.
func (p *peer) start(method string, params map[string]any) <-chan msg {
	p.t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	if p.modern {
		params["_meta"] = meta(p.caps)
	}
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	ch := make(chan msg, 1)
	p.waiting[fmt.Sprint(id)] = ch
	p.mu.Unlock()
	body := mustJSON(p.t, map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	name, _ := params["name"].(string)
	if id, ok := params["taskId"].(string); ok {
		name = id
	}
	if err := p.send(body, method, name); err != nil {
		p.t.Fatalf("sending %s: %v", method, err)
	}
	return ch
}

// call sends a request and waits for its response.
func (p *peer) call(method string, params map[string]any) msg {
	p.t.Helper()
	return within(p.t, waitFor, p.start(method, params), "the response to "+method)
}

// ok calls and fails the test on a JSON-RPC error.
func (p *peer) ok(method string, params map[string]any) map[string]any {
	p.t.Helper()
	m := p.call(method, params)
	if m.Error != nil {
		p.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	return m.Result
}

// fails calls and checks the JSON-RPC error code.
func (p *peer) fails(method string, params map[string]any, code int) *wireErr {
	p.t.Helper()
	m := p.call(method, params)
	if m.Error == nil || m.Error.Code != code {
		p.t.Fatalf("%s = %s, want error %d", method, asJSON(m), code)
	}
	return m.Error
}

// notify sends a notification.
func (p *peer) notify(method string, params map[string]any) {
	p.t.Helper()
	if err := p.send(mustJSON(p.t, map[string]any{"jsonrpc": "2.0", "method": method, "params": params}), method, ""); err != nil {
		p.t.Fatalf("sending %s: %v", method, err)
	}
}

// reply answers a request from the server.
func (p *peer) reply(id json.RawMessage, result any) {
	p.t.Helper()
	if err := p.send(mustJSON(p.t, map[string]any{"jsonrpc": "2.0", "id": id, "result": result}), "", ""); err != nil {
		p.t.Fatalf("replying: %v", err)
	}
}

// next waits for the first server request or notification with method,
// and takes it out of the inbox.
func (p *peer) next(method string) msg {
	p.t.Helper()
	deadline := time.After(waitFor)
	for {
		p.mu.Lock()
		for i, m := range p.inbox {
			if m.Method == method {
				p.inbox = append(p.inbox[:i], p.inbox[i+1:]...)
				p.mu.Unlock()
				return m
			}
		}
		arrived := p.arrived
		p.mu.Unlock()
		select {
		case <-arrived:
		case <-deadline:
			p.t.Fatalf("no %s from the server within %s", method, waitFor)
		}
	}
}

// seen returns the server requests and notifications with method so far.
func (p *peer) seen(method string) []msg {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []msg
	for _, m := range p.inbox {
		if m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

// initialize runs the 2025-11-25 handshake and returns the result.
func (p *peer) initialize() map[string]any {
	p.t.Helper()
	res := p.ok("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{"elicitation": map[string]any{"form": map[string]any{}}},
		"clientInfo":      map[string]any{"name": "raw", "version": "0"},
	})
	p.notify("notifications/initialized", map[string]any{})
	return res
}

// pipePeer talks to ServeIO over io.Pipes, as `elicit demo --serve stdio`
// is reached.
func pipePeer(t *testing.T, modern bool, opts *demo.Options) *peer {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	var serveErr error
	served := make(chan struct{})
	go func() {
		defer close(served)
		serveErr = demo.ServeIO(t.Context(), toServer, fromServer, opts)
	}()
	p := newPeer(t, modern)
	p.hangUp = func() { _ = fromClient.Close() }
	p.served = served
	var wmu sync.Mutex
	p.send = func(body []byte, _, _ string) error {
		wmu.Lock()
		defer wmu.Unlock()
		_, err := fromClient.Write(append(body, '\n'))
		return err
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(toClient)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.receive(bytes.Clone(sc.Bytes()))
		}
	}()
	t.Cleanup(func() {
		_ = fromClient.Close()
		within(t, waitFor, served, "ServeIO to return")
		if serveErr != nil {
			t.Errorf("ServeIO = %v", serveErr)
		}
		within(t, waitFor, read, "the reader to stop")
	})
	return p
}

// memPeer talks to New's server over go-sdk's in-memory transport,
// wrapped with WrapTransport for 2025-11-25 tasks.
func memPeer(t *testing.T, modern bool, opts *demo.Options) *peer {
	t.Helper()
	return memPeerOn(t, modern, demo.New(opts))
}

// memPeerOn is memPeer on a server of the caller's, so that several
// sessions can share it.
func memPeerOn(t *testing.T, modern bool, srv *mcp.Server) *peer {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), demo.WrapTransport(st), nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ct.Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	p := newPeer(t, modern)
	p.send = func(body []byte, _, _ string) error {
		m, err := jsonrpc.DecodeMessage(body)
		if err != nil {
			return err
		}
		return conn.Write(context.WithoutCancel(t.Context()), m)
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		for {
			m, err := conn.Read(context.Background())
			if err != nil {
				return
			}
			raw, err := jsonrpc.EncodeMessage(m)
			if err != nil {
				t.Errorf("encoding %v: %v", m, err)
				return
			}
			p.receive(raw)
		}
	}()
	t.Cleanup(func() {
		_ = conn.Close()
		_ = ss.Wait()
		within(t, waitFor, read, "the reader to stop")
	})
	return p
}

// httpPeer talks Streamable HTTP: stateful 2025-11-25 with a session, or
// stateless 2026-07-28 with the Mcp-Method and Mcp-Name headers. Each POST's
// response (JSON or an event stream) is read in the background, so server
// requests on a tasks/result stream arrive while it is open.
func httpPeer(t *testing.T, modern bool, opts *demo.Options) *peer {
	t.Helper()
	h := demo.HTTPHandler(opts)
	version := "2025-11-25"
	if modern {
		h, version = demo.HTTPHandlerStateless(opts), "2026-07-28"
	}
	ts := httptest.NewServer(h)
	p := newPeer(t, modern)
	var (
		readers sync.WaitGroup
		smu     sync.Mutex
		session string
	)
	post := func(method string, body []byte, header http.Header) (*http.Response, error) {
		req, err := http.NewRequestWithContext(context.WithoutCancel(t.Context()), method, ts.URL, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header = header
		smu.Lock()
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		smu.Unlock()
		return http.DefaultClient.Do(req)
	}
	p.send = func(body []byte, method, name string) error {
		hd := http.Header{}
		hd.Set("Content-Type", "application/json")
		hd.Set("Accept", "application/json, text/event-stream")
		if method != "initialize" {
			hd.Set("Mcp-Protocol-Version", version)
		}
		if modern {
			hd.Set("Mcp-Method", method)
			if name != "" {
				hd.Set("Mcp-Name", name)
			}
		}
		resp, err := post(http.MethodPost, body, hd)
		if err != nil {
			return err
		}
		if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
			smu.Lock()
			session = sid
			smu.Unlock()
		}
		readers.Go(func() {
			defer resp.Body.Close()
			readHTTPBody(t, resp, p.receive)
		})
		return nil
	}
	t.Cleanup(func() {
		smu.Lock()
		sid := session
		smu.Unlock()
		if sid != "" { // ends the session, and with it its tasks
			if resp, err := post(http.MethodDelete, nil, http.Header{"Mcp-Protocol-Version": {version}}); err == nil {
				resp.Body.Close()
			}
		}
		readers.Wait()
		ts.Close()
	})
	return p
}

// readHTTPBody hands each message of a POST's response to receive.
func readHTTPBody(t *testing.T, resp *http.Response, receive func([]byte)) {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		raw, err := io.ReadAll(resp.Body)
		if err == nil && len(bytes.TrimSpace(raw)) > 0 {
			receive(raw)
		}
	case "text/event-stream":
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data:"); ok && strings.TrimSpace(data) != "" {
				receive([]byte(strings.TrimSpace(data)))
			}
		}
	default:
		if resp.StatusCode >= 300 {
			raw, _ := io.ReadAll(resp.Body)
			t.Errorf("HTTP %d: %s", resp.StatusCode, raw)
		}
	}
}
