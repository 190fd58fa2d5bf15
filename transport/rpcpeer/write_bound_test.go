package rpcpeer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// TestWriteBoundWhenTheOtherSideStopsReading: the other side reads no
// more (its stream took in one message, which nobody Reads, and then
// stops taking bytes off the pipe). The next message sticks as it goes
// out; the write still ends at Options.WriteTimeout with a *WriteError
// (ACP's 10 s bound is this one), instead of holding the caller for ever.
func TestWriteBoundWhenTheOtherSideStopsReading(t *testing.T) {
	t.Parallel()
	r := newRig(t, rpcpeer.Options{WriteTimeout: 500 * time.Millisecond})
	if err := r.peer.Notify("first", nil); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- r.peer.Notify("second", map[string]string{"data": strings.Repeat("x", 1<<10)}) }()
	select {
	case err := <-errc:
		var we *rpcpeer.WriteError
		if !errors.As(err, &we) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Notify = %v, want a *WriteError past the deadline", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the write still waits on a side that does not read")
	}
}
