package demo_test

import (
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestProtocolOption: Options.Protocol decides which era a go-sdk client
// that offers 2026-07-28 gets over a transport that could serve both.
func TestProtocolOption(t *testing.T) {
	t.Parallel()
	cases := []struct {
		protocol string
		offer    *mcp.ClientSessionOptions
		want     string
	}{
		{"", modernPin, "2026-07-28"},
		{"", pinned, "2025-11-25"},
		{demo.ProtocolLegacy, modernPin, "2025-11-25"}, // discover refused: falls back to initialize
		{demo.ProtocolLegacy, nil, "2025-11-25"},
		{"2025-06-18", nil, "2025-06-18"},
		{demo.ProtocolStateless, modernPin, "2026-07-28"},
		// go-sdk still answers initialize, with 2025-11-25 (documented).
		{demo.ProtocolStateless, pinned, "2025-11-25"},
	}
	for _, c := range cases {
		offered := "default"
		if c.offer != nil {
			offered = c.offer.ProtocolVersion
		}
		t.Run(c.protocol+"/"+offered, func(t *testing.T) {
			t.Parallel()
			cs := connect(t, "memory", &demo.Options{Protocol: c.protocol}, answer(&mcp.ElicitResult{Action: "cancel"}), c.offer)
			if got := cs.InitializeResult().ProtocolVersion; got != c.want {
				t.Errorf("negotiated %q, want %q", got, c.want)
			}
			if got := okText(t, cs, "deploy", nil); got != "Deployment cancelled: the question was dismissed without an answer; ask again later." {
				t.Errorf("deploy = %q", got)
			}
		})
	}
}

func TestProtocolOptionInvalid(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"", "2025-11-25", "2026-07-28", "2024-11-05"} {
		if err := demo.CheckProtocol(v); err != nil {
			t.Errorf("CheckProtocol(%q) = %v", v, err)
		}
	}
	bad := &demo.Options{Protocol: "2027-01-01"}
	if err := demo.CheckProtocol(bad.Protocol); err == nil {
		t.Error("CheckProtocol accepted 2027-01-01")
	}
	if err := demo.ServeHTTP(t.Context(), "127.0.0.1:0", bad); err == nil {
		t.Error("ServeHTTP accepted an unknown protocol")
	}
	if err := demo.ServeIO(t.Context(), nil, nil, bad); err == nil {
		t.Error("ServeIO accepted an unknown protocol")
	}
	defer func() {
		if recover() == nil {
			t.Error("New did not panic on an unknown protocol")
		}
	}()
	demo.New(bad)
}

// TestServeListenerStateless: Options.Stateless makes ServeListener serve the
// stateless handler, where a 2026-07-28 client runs the wizard, and it still
// shuts down cleanly.
func TestServeListenerStateless(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- demo.ServeListener(ctx, ln, &demo.Options{Stateless: true}) }()

	var n atomic.Int32
	client := mcp.NewClient(&mcp.Implementation{Name: "http", Version: "0"}, wizardUser("staging", "slot-a", &n))
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String()}, modernPin)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Errorf("negotiated %q", v)
	}
	if got := okText(t, cs, "wizard", nil); got != "Wizard done: environment staging, slot slot-a." {
		t.Errorf("wizard = %q", got)
	}
	cancel()
	if err := within(t, 10*time.Second, done, "ServeListener to return"); err != nil {
		t.Errorf("ServeListener = %v, want nil", err)
	}
}

// TestStatelessOldClient documents the limit of the stateless handler: a
// 2025-11-25 client can call tools that ask nothing, but go-sdk refuses
// server-to-client requests there, so deploy fails for it.
func TestStatelessOldClient(t *testing.T) {
	t.Parallel()
	client := mcp.NewClient(&mcp.Implementation{Name: "old", Version: "0"}, answer(nil))
	ts := newStatelessServer(t)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: ts}, pinned)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := okText(t, cs, "echo", map[string]any{"text": "hi"}); got != "hi" {
		t.Errorf("echo = %q", got)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "deploy"})
	if err == nil && !res.IsError {
		t.Errorf("deploy asked an old client over the stateless handler: %s", asJSON(res))
	}
}
