package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// detailsServer is a stateful go-sdk server that says who it is and how
// to use it.
func detailsServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "details", Title: "Details Server", Version: "2.1.0"},
		legacyOpts(&mcp.ServerOptions{Instructions: "Call ask to be asked."}))
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, matrixArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, nil, nil
	})
	return srv
}

// serveDetails serves a fresh detailsServer on l.
func serveDetails(t *testing.T, l net.Listener) (*httptest.Server, *mcp.Server) {
	t.Helper()
	srv := detailsServer()
	ts := httptest.NewUnstartedServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	ts.Listener.Close()
	ts.Listener = l
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(func() {
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	})
	return ts, srv
}

// TestManagerDetails: a Manager describes a server's session (who it
// says it is, its instructions, both sides' capabilities, its HTTP
// session), keeps describing it after the server died and a reconnect
// failed, and keeps the last failure after a reconnect succeeded.
func TestManagerDetails(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	ts, _ := serveDetails(t, l)
	// Each event the manager's sessions emit is a reason to look at the
	// state again (waitUntilState).
	changed := make(chan struct{}, 1)
	m := client.NewManager(&client.ManagerOptions{Observer: client.ObserverFunc(func(client.Event) {
		select {
		case changed <- struct{}{}:
		default:
		}
	})})
	defer m.Close()
	if err := m.Add(t.Context(), "web", &transport.HTTP{URL: ts.URL}, &client.Options{Prompter: question.DeclineAll}); err != nil {
		t.Fatal(err)
	}

	d, err := m.Details("web")
	if err != nil {
		t.Fatal(err)
	}
	sd := d.Session
	switch {
	case d.State != client.StateReady || d.LastErr != nil:
		t.Errorf("state %v, last error %v", d.State, d.LastErr)
	case sd.ServerInfo.Name != "details" || sd.ServerInfo.Title != "Details Server" || sd.ServerInfo.Version != "2.1.0":
		t.Errorf("serverInfo %+v", sd.ServerInfo)
	case sd.Instructions != "Call ask to be asked.":
		t.Errorf("instructions %q", sd.Instructions)
	case !sd.Caps.Tools || sd.Protocol != "2025-11-25" || sd.Era != "2025-11-25 stateful":
		t.Errorf("caps %+v, protocol %q, era %q", sd.Caps, sd.Protocol, sd.Era)
	case sd.Conn.Kind != "Streamable HTTP" || sd.Conn.SessionID == "" || sd.Conn.Stateless || !sd.Conn.GETStream:
		t.Errorf("conn %+v", sd.Conn)
	case sd.Ready.IsZero() || !sd.Ended.IsZero() || sd.Err != nil:
		t.Errorf("ready %v, ended %v, err %v", sd.Ready, sd.Ended, sd.Err)
	}
	var caps map[string]json.RawMessage
	if err := json.Unmarshal(sd.ClientCaps, &caps); err != nil || caps["elicitation"] == nil || caps["tasks"] == nil {
		t.Errorf("client capabilities %s (%v), want elicitation and tasks", sd.ClientCaps, err)
	}

	// The server dies: the details stay, with the end and why.
	ts.CloseClientConnections()
	ts.Listener.Close()
	waitUntilState(t, m, changed, "web", client.StateDisconnected)
	d, _ = m.Details("web")
	if d.Session.ServerInfo.Title != "Details Server" || d.Session.Ended.IsZero() || !errors.Is(d.Session.Err, question.ErrDisconnected) {
		t.Errorf("after the death: %+v", d.Session)
	}
	if d.LastErr == nil || d.LastErrAt.IsZero() {
		t.Errorf("last error %v at %v", d.LastErr, d.LastErrAt)
	}

	// A reconnect fails: the last session is still described, and the
	// failure is the last error.
	if err := m.Reconnect(t.Context(), "web"); err == nil {
		t.Fatal("reconnect to a dead server succeeded")
	}
	d, _ = m.Details("web")
	if d.State != client.StateFailed || d.Session.ServerInfo.Title != "Details Server" || !errors.Is(d.LastErr, syscall.ECONNREFUSED) {
		t.Errorf("after a failed reconnect: state %v, session %+v, last error %v", d.State, d.Session.ServerInfo, d.LastErr)
	}

	// The server is back on its address: a reconnect makes a new session,
	// and the failure stays the last error.
	l2, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s again: %v", addr, err)
	}
	serveDetails(t, l2)
	if err := m.Reconnect(t.Context(), "web"); err != nil {
		t.Fatalf("reconnect: %v", err)
	}
	d2, _ := m.Details("web")
	if d2.State != client.StateReady || d2.Session.Conn.SessionID == "" || d2.Session.Conn.SessionID == sd.Conn.SessionID ||
		!d2.Session.Ready.After(sd.Ready) {
		t.Errorf("after reconnecting: state %v, session %+v", d2.State, d2.Session)
	}
	if d2.LastErr == nil || !d2.LastErrAt.Equal(d.LastErrAt) {
		t.Errorf("last error %v at %v, want the failed reconnect's, at %v", d2.LastErr, d2.LastErrAt, d.LastErrAt)
	}
	if _, err := m.Details("nobody"); !errors.Is(err, client.ErrUnknownServer) {
		t.Errorf("details of an unknown server: %v", err)
	}
}

// waitUntilState waits for a managed server to reach state, as long as a
// dead server may take to be noticed; it looks again on each signal of
// changed (the manager's events: a session sets its state before it
// emits the change).
func waitUntilState(t *testing.T, m *client.Manager, changed <-chan struct{}, name string, state client.ServerState) {
	t.Helper()
	timeout := time.After(deadBound)
	for {
		for _, s := range m.Status() {
			if s.Name == name && s.State == state {
				return
			}
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("%s did not become %v within %v: %+v", name, state, deadBound, m.Status())
		}
	}
}

// TestSessionDetailsStdio: a stdio session names its server's process.
func TestSessionDetailsStdio(t *testing.T) {
	t.Parallel()
	tr := &transport.Stdio{Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: []string{serverEnv + "=ask"}}
	s, err := client.Connect(t.Context(), tr, &client.Options{Name: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := s.Details()
	if d.Conn.Kind != "stdio" || d.Conn.Pid <= 0 || d.ServerInfo.Name != "ask-server" {
		t.Fatalf("details %+v", d)
	}
	if err := syscall.Kill(d.Conn.Pid, 0); err != nil {
		t.Errorf("pid %d is not a live process: %v", d.Conn.Pid, err)
	}
}

// TestSessionDetailsStateless: a 2026-07-28 session has no HTTP session
// and declares, per request, the tasks extension.
func TestSessionDetailsStateless(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, _ := deadServer(t, func(life context.Context) *mcp.Server { return newMatrixServer(life, true) },
		&mcp.StreamableHTTPOptions{Stateless: true}, &client.Options{Name: "modern"}, rec)
	d := s.Details()
	if !d.Conn.Stateless || d.Conn.SessionID != "" || d.Conn.GETStream || d.Era != "2026-07-28 stateless" {
		t.Errorf("details %+v", d)
	}
	var caps map[string]json.RawMessage
	if err := json.Unmarshal(d.ClientCaps, &caps); err != nil || caps["extensions"] == nil || caps["tasks"] != nil {
		t.Errorf("client capabilities %s (%v), want the extensions and no core tasks", d.ClientCaps, err)
	}
}

// TestServerInfoMalformedIconsStillConnects: serverInfo's 2025-11-25
// members are read (description, websiteUrl) and its icons kept as sent,
// so an icon list that is not one never fails the handshake.
func TestServerInfoMalformedIconsStillConnects(t *testing.T) {
	t.Parallel()
	s, _, _ := connectPeer(t, "icons", nil, nil, func(sc transport.Conn) {
		m, err := readSkippingProbe(sc)
		if err != nil || m.Method != "initialize" {
			return
		}
		_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},` +
			`"serverInfo":{"name":"icons","version":"1","description":"Draws.","websiteUrl":"https://icons.example","icons":"not a list"}}`)}, nil)
		for {
			m, err := msgOf(sc.Read(context.Background()))
			if err != nil || m.Method == "notifications/initialized" {
				return
			}
		}
	})
	info := s.Details().ServerInfo
	if info.Description != "Draws." || info.WebsiteURL != "https://icons.example" || string(info.Icons) != `"not a list"` {
		t.Errorf("serverInfo %+v", info)
	}
}
