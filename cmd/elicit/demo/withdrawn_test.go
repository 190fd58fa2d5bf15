package demo_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestWithdrawn: the server cancels its own question, go-sdk sends
// notifications/cancelled, and the client's handler context ends within
// WithdrawAfter plus a second, over both transports. Over HTTP this only
// works because the tool keeps its POST stream open after cancelling.
func TestWithdrawn(t *testing.T) {
	t.Parallel()
	const after = 200 * time.Millisecond
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			withdrawnIn := make(chan time.Duration, 1)
			cs := connect(t, kind, &demo.Options{WithdrawAfter: after}, elicitWith(
				func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					start := time.Now()
					select {
					case <-ctx.Done():
						withdrawnIn <- time.Since(start)
						return nil, ctx.Err()
					case <-time.After(after + 5*time.Second):
						withdrawnIn <- -1
						return &mcp.ElicitResult{Action: "cancel"}, nil
					}
				}), pinned)

			got := okText(t, cs, "withdrawn", nil)
			if want := "The server withdrew its question after 200ms."; got != want {
				t.Errorf("result = %q, want %q", got, want)
			}
			d := within(t, time.Second, withdrawnIn, "the handler to finish")
			if d < 0 || d > after+time.Second {
				t.Errorf("handler context not cancelled within %s (took %v; -1 means never)", after+time.Second, d)
			}
		})
	}
}

// TestWithdrawnAnsweredFirst: an answer that beats the withdrawal is
// reported as such.
func TestWithdrawnAnsweredFirst(t *testing.T) {
	t.Parallel()
	cs := connect(t, "memory", &demo.Options{WithdrawAfter: time.Minute}, answer(&mcp.ElicitResult{Action: "decline"}), pinned)
	got := okText(t, cs, "withdrawn", nil)
	if !strings.Contains(got, "answered (decline) before the server withdrew") {
		t.Errorf("result = %q", got)
	}
}

// TestWithdrawnDefault: without Options the question lives 4s, and the tool
// says so.
func TestWithdrawnDefault(t *testing.T) {
	t.Parallel()
	msg := make(chan string, 1)
	cs := connect(t, "memory", nil, elicitWith(func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		msg <- req.Params.Message
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}), pinned)
	okText(t, cs, "withdrawn", nil)
	if m := <-msg; !strings.Contains(m, "in 4s") {
		t.Errorf("message = %q, want it to say 4s", m)
	}
}
