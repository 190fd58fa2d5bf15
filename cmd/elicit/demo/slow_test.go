package demo_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notes collects the notifications a client receives. Handlers only send
// on buffered channels: go-sdk runs notification handlers one at a time.
type notes struct {
	progress chan float64
	logs     chan string
}

func listen() (*mcp.ClientOptions, notes) {
	n := notes{progress: make(chan float64, 100), logs: make(chan string, 100)}
	return &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			n.progress <- req.Params.Progress
		},
		//lint:ignore SA1019 logging is current in 2025-11-25
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			if s, ok := req.Params.Data.(string); ok && req.Params.Level == "info" {
				n.logs <- s
			}
		},
	}, n
}

// TestSlowProgress: a 1.5 s job reports progress at 1 s and at the end, and
// logs each step at info level.
func TestSlowProgress(t *testing.T) {
	t.Parallel()
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			copts, n := listen()
			cs := connect(t, kind, nil, copts, pinned)
			//lint:ignore SA1019 logging is current in 2025-11-25
			if err := cs.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
				t.Fatal(err)
			}
			params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"seconds": 1.5}}
			params.SetProgressToken("job-1")
			res, err := cs.CallTool(t.Context(), params)
			if err != nil {
				t.Fatal(err)
			}
			if got := textOf(t, res); got != "done after 1.5s" {
				t.Errorf("result = %q", got)
			}
			var progress []float64
			var logs []string
			for range 2 {
				progress = append(progress, within(t, 5*time.Second, n.progress, "progress"))
				logs = append(logs, within(t, 5*time.Second, n.logs, "a log message"))
			}
			if diff := cmp.Diff([]float64{1, 1.5}, progress); diff != "" {
				t.Errorf("progress (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"slow: 1s of 1.5s", "slow: 1.5s of 1.5s"}, logs); diff != "" {
				t.Errorf("logs (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSlowQuietWithoutToken: no progressToken, no log level: no
// notifications, just the result.
func TestSlowQuietWithoutToken(t *testing.T) {
	t.Parallel()
	copts, n := listen()
	cs := connect(t, "memory", nil, copts, pinned)
	if got := okText(t, cs, "slow", map[string]any{"seconds": 1.2}); got != "done after 1.2s" {
		t.Errorf("result = %q", got)
	}
	if len(n.progress)+len(n.logs) != 0 {
		t.Errorf("got %d progress and %d log notifications, want none", len(n.progress), len(n.logs))
	}
}

// recorder is a slog handler that reports each message on a channel.
type recorder struct {
	mu   sync.Mutex
	msgs chan string
}

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case r.msgs <- rec.Message:
	default:
	}
	return nil
}
func (r *recorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *recorder) WithGroup(string) slog.Handler      { return r }

// TestSlowCancel: cancelling the call stops the job on the server.
func TestSlowCancel(t *testing.T) {
	t.Parallel()
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{msgs: make(chan string, 100)}
			copts, n := listen()
			cs := connect(t, kind, &demo.Options{Logger: slog.New(rec)}, copts, pinned)

			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			errc := make(chan error, 1)
			go func() {
				params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"seconds": 60}}
				params.SetProgressToken(7)
				_, err := cs.CallTool(ctx, params)
				errc <- err
			}()
			within(t, 5*time.Second, n.progress, "the first progress notification")
			cancel()
			if err := within(t, 5*time.Second, errc, "the call to return"); !errors.Is(err, context.Canceled) {
				t.Errorf("CallTool error = %v, want context.Canceled", err)
			}
			deadline := time.After(5 * time.Second)
			for {
				select {
				case m := <-rec.msgs:
					if m == "slow: cancelled" {
						return
					}
				case <-deadline:
					t.Fatal("the server never stopped the slow job")
				}
			}
		})
	}
}
