package demo_test

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// servePipes runs ServeIO over two io.Pipes and returns the client's
// transport and the channel ServeIO's result arrives on.
func servePipes(ctx context.Context) (*mcp.IOTransport, <-chan error) {
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- demo.ServeIO(ctx, toServer, fromServer, nil) }()
	return &mcp.IOTransport{Reader: toClient, Writer: fromClient}, done
}

// TestServeIOClientLeaves: the session ends cleanly when the client closes
// its end.
func TestServeIOClientLeaves(t *testing.T) {
	t.Parallel()
	transport, done := servePipes(t.Context())
	client := mcp.NewClient(&mcp.Implementation{Name: "pipe", Version: "0"}, answer(&mcp.ElicitResult{Action: "cancel"}))
	cs, err := client.Connect(t.Context(), transport, pinned)
	if err != nil {
		t.Fatal(err)
	}
	if got := okText(t, cs, "deploy", nil); got != "Deployment cancelled: the question was dismissed without an answer; ask again later." {
		t.Errorf("deploy over pipes = %q", got)
	}
	_ = cs.Close()
	if err := within(t, 5*time.Second, done, "ServeIO to return"); err != nil {
		t.Errorf("ServeIO = %v, want nil", err)
	}
}

// TestServeIOContextEnds: ending ctx stops the server while the client is
// still connected, and the client notices.
func TestServeIOContextEnds(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	transport, done := servePipes(ctx)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "pipe", Version: "0"}, nil).Connect(t.Context(), transport, pinned)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	okText(t, cs, "echo", map[string]any{"text": "hi"})
	cancel()
	if err := within(t, 5*time.Second, done, "ServeIO to return"); err != nil {
		t.Errorf("ServeIO = %v, want nil", err)
	}
	// ServeIO closed its ends of the pipes, so the client sees the session end.
	within(t, 5*time.Second, waitErr(cs), "the client session to end")
}

func waitErr(cs *mcp.ClientSession) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- cs.Wait() }()
	return ch
}

// TestServeListener serves real HTTP on a loopback port and shuts down when
// ctx ends, even with a client session (and its SSE stream) still open.
func TestServeListener(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- demo.ServeListener(ctx, ln, nil) }()

	client := mcp.NewClient(&mcp.Implementation{Name: "http", Version: "0"}, answer(&mcp.ElicitResult{Action: "decline"}))
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String()}, pinned)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := okText(t, cs, "deploy", nil); got != "Deployment declined by the user: nothing was deployed." {
		t.Errorf("deploy over HTTP = %q", got)
	}
	cancel()
	if err := within(t, 10*time.Second, done, "ServeListener to return"); err != nil {
		t.Errorf("ServeListener = %v, want nil", err)
	}
}

func TestServeHTTPBadAddress(t *testing.T) {
	t.Parallel()
	if err := demo.ServeHTTP(t.Context(), "127.0.0.1:-1", nil); err == nil {
		t.Error("want an error for a bad address")
	}
}

// TestShutdownWithdrawsOpenQuestions: ending ServeListener's ctx while a
// question is open does not wait for the answer, and the client is told
// the question is gone (its handler context ends).
func TestShutdownWithdrawsOpenQuestions(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- demo.ServeListener(ctx, ln, &demo.Options{WithdrawAfter: time.Hour}) }()

	asked, gone := make(chan struct{}), make(chan struct{})
	client := mcp.NewClient(&mcp.Implementation{Name: "http", Version: "0"}, elicitWith(
		func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			close(asked)
			<-ctx.Done()
			close(gone)
			return nil, ctx.Err()
		}))
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String()}, pinned)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	go func() { _, _ = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "withdrawn"}) }()

	within(t, 5*time.Second, asked, "the question")
	cancel()
	if err := within(t, 5*time.Second, done, "ServeListener to return"); err != nil {
		t.Errorf("ServeListener = %v, want nil", err)
	}
	within(t, 5*time.Second, gone, "the client's question to be withdrawn")
}

// TestShutdownStopsSlowJobs: ending ServeIO's ctx stops a running job
// instead of waiting for it.
func TestShutdownStopsSlowJobs(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	transport, done := servePipes(ctx)
	copts, n := listen()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "pipe", Version: "0"}, copts).Connect(t.Context(), transport, pinned)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	go func() {
		params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"seconds": 3600}}
		params.SetProgressToken("long")
		_, _ = cs.CallTool(t.Context(), params)
	}()
	within(t, 5*time.Second, n.progress, "the job to start")
	cancel()
	if err := within(t, 5*time.Second, done, "ServeIO to return"); err != nil {
		t.Errorf("ServeIO = %v, want nil", err)
	}
}
