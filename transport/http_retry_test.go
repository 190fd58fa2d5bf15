package transport_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
)

// retryZeroWindow is how long the servers below are watched.
const retryZeroWindow = 2 * time.Second

// retryZeroMax is how many GETs that window may see: with a floor of 250 ms
// doubled per quiet reconnect, 4 (at 0, 0.25, 0.75 and 1.75 s); a handful
// leaves room for a slow machine, and the unguarded client made ~1,000 a
// second.
const retryZeroMax = 6

// retryZeroServer answers every GET with "retry: 0", a fresh event id (so
// the cursor always moves) and nothing else, and closes it at once; POSTs
// get the same, as the start of a request's stream. It counts the GETs.
func retryZeroServer(gets *atomic.Int64) http.Handler {
	var n atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
		}
		httpSSEStart(w)
		httpSSE(w, fmt.Sprintf("retry: 0\nid: e%d\ndata: \n\n", n.Add(1)))
	})
}

// The standalone GET stream of a server that drops it at once with
// "retry: 0" is reconnected at a bounded rate, however often the cursor
// moves.
func TestHTTPStandaloneRetryZeroBounded(t *testing.T) {
	t.Parallel()
	var gets atomic.Int64
	conn, _, _ := httpStart(t, retryZeroServer(&gets), nil)
	conn.(transport.VersionSetter).SetProtocolVersion("2025-11-25")
	time.Sleep(retryZeroWindow) // the window the GETs are counted in, not a wait
	if n := gets.Load(); n > retryZeroMax || n < 2 {
		t.Errorf("%d GETs in %v, want 2 to %d", n, retryZeroWindow, retryZeroMax)
	}
}

// A request's stream that the server drops the same way is resumed at a
// bounded rate too.
func TestHTTPResumeRetryZeroBounded(t *testing.T) {
	t.Parallel()
	var gets atomic.Int64
	conn, _, _ := httpStart(t, retryZeroServer(&gets), nil)
	httpWrite(t, conn, httpReq(t, 1, "tools/call", nil))
	time.Sleep(retryZeroWindow) // the window the GETs are counted in, not a wait
	if n := gets.Load(); n > retryZeroMax || n < 2 {
		t.Errorf("%d resuming GETs in %v, want 2 to %d", n, retryZeroWindow, retryZeroMax)
	}
}
