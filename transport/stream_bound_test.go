package transport_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
)

// TestStdioWriteEndsWithItsContext: a server that never reads its stdin
// leaves a line longer than the pipe holds half written. Write returns
// once its ctx ends, rather than waiting on the server for ever (the rest
// of the line goes out if the server reads again, or ends with Close,
// which the goleak check of TestMain sees done), and the next Write waits
// for its turn only as long as its own ctx lets it.
func TestStdioWriteEndsWithItsContext(t *testing.T) {
	t.Parallel()
	writing := make(chan struct{}, 1) // the bytes start going out
	obs := transport.ObserverFuncs{OnFrame: func(f transport.Frame) {
		if f.Dir == transport.Out {
			select {
			case writing <- struct{}{}:
			default:
			}
		}
	}}
	c := dial(t, "sleeper", obs, 50*time.Millisecond)
	defer c.Close()

	big := mustRequest(t, 1, "big", map[string]string{"data": strings.Repeat("x", 4<<20)}) // the pipe holds 1 MiB
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() { errc <- c.Write(ctx, big, nil) }()
	<-writing
	cancel()
	waitWrite(t, errc, "the long line", context.Canceled)

	small := mustRequest(t, 2, "small", nil)
	ctx, cancel = context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	go func() { errc <- c.Write(ctx, small, nil) }()
	waitWrite(t, errc, "the next line", context.DeadlineExceeded)
}

// waitWrite waits for a Write's error, which must wrap want.
func waitWrite(t *testing.T, errc <-chan error, what string, want error) {
	t.Helper()
	select {
	case err := <-errc:
		if !errors.Is(err, want) {
			t.Errorf("writing %s: %v, want %v", what, err, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("writing %s still waits on a server that does not read, after its ctx ended", what)
	}
}
