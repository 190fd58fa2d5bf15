package transport_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// goneBound is how long the tests below wait for a Conn to notice, or
// keep it from noticing wrongly, what its dialer did.
const goneBound = 10 * time.Second

// refusingClient dials anew for every request and refuses the next
// refuse.Load() dials as a dead server's port does.
func refusingClient(refuse *atomic.Int64) *http.Client {
	var d net.Dialer
	return &http.Client{Transport: &http.Transport{
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if refuse.Add(-1) >= 0 {
				return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
			}
			refuse.Store(0)
			return d.DialContext(ctx, network, addr)
		},
	}}
}

// breakingClient is refusingClient whose next POST, while breakPOST is
// set, fails with io.EOF as one on a kept-alive connection of a server
// that just died does; heads counts the HEAD requests.
func breakingClient(refuse *atomic.Int64, breakPOST *atomic.Bool, heads *atomic.Int64) *http.Client {
	inner := refusingClient(refuse).Transport
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.Method == http.MethodHead {
			heads.Add(1)
		}
		if r.Method == http.MethodPost && breakPOST.CompareAndSwap(true, false) {
			return nil, io.EOF
		}
		return inner.RoundTrip(r)
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// goneServer answers initialize with a session, every notification with
// 202, tools/list with a JSON result, and the standalone GET with an event
// stream (DELETE with 204): the first one primes (retry 50 ms) and ends at once, as a
// dropped stream does, after dropped runs; later ones send a log message
// and stay open until the request ends.
func goneServer(t *testing.T, dropped func()) http.Handler {
	var gets atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			httpSSEStart(w)
			if gets.Add(1) == 1 {
				httpSSE(w, "id: g1\nretry: 50\ndata: \n\n")
				dropped()
				return
			}
			httpSSE(w, "id: g2\ndata: "+httpEncode(t, httpNote(t, "notifications/message", map[string]any{"level": "info", "data": "back"}))+"\n\n")
			<-r.Context().Done()
			return
		}
		m, err := jsonrpc.Decode(httpReqBody(r))
		switch {
		case err != nil: // DELETE
			w.WriteHeader(http.StatusNoContent)
		case m.Method == "initialize":
			w.Header().Set("Mcp-Session-Id", "s-gone")
			httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{})))
		case m.Kind() == jsonrpc.KindRequest:
			httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{"tools": []any{}})))
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	})
}

// goneStart dials goneServer through a refusing client and initializes.
func goneStart(t *testing.T, refuse *atomic.Int64, dropped func()) transport.Conn {
	t.Helper()
	conn, _, _ := httpStart(t, goneServer(t, dropped), &transport.HTTP{Client: refusingClient(refuse)})
	httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{}))
	httpRead(t, conn)
	return conn
}

// A standalone stream that drops, then finds the port refusing once, is
// resumed at the next try: a server restarting in place is not dead.
func TestHTTPStreamRefusedOnceResumes(t *testing.T) {
	t.Parallel()
	var refuse atomic.Int64
	conn := goneStart(t, &refuse, func() { refuse.Store(1) })
	conn.(transport.VersionSetter).SetProtocolVersion("2025-11-25")
	if m := httpReadWithin(t, conn, goneBound); m.Method != "notifications/message" {
		t.Fatalf("got %s %q, want the resumed stream's log message", m.Kind(), m.Method)
	}
}

// Twice refused in a row, the stream's server is gone: Read ends, saying
// so, long before MaxRetries reconnects would have.
func TestHTTPStreamRefusedTwiceEnds(t *testing.T) {
	t.Parallel()
	var refuse atomic.Int64
	conn := goneStart(t, &refuse, func() { refuse.Store(2) })
	conn.(transport.VersionSetter).SetProtocolVersion("2025-11-25")
	ctx, cancel := context.WithTimeout(t.Context(), goneBound)
	defer cancel()
	_, err := conn.Read(ctx)
	if err == nil || !strings.Contains(err.Error(), "cannot be reached") || ctx.Err() != nil {
		t.Fatalf("Read: %v; want the end, the server cannot be reached", err)
	}
}

// A POST that cannot connect, once the server has answered before, ends
// the Conn at once; Write fails with the dial's error.
func TestHTTPPOSTRefusedEnds(t *testing.T) {
	t.Parallel()
	var refuse atomic.Int64
	conn := goneStart(t, &refuse, func() {})
	refuse.Store(1)
	if err := conn.Write(t.Context(), httpReq(t, 2, "tools/list", nil), nil); err == nil {
		t.Fatal("Write to a refusing server succeeded")
	}
	ctx, cancel := context.WithTimeout(t.Context(), goneBound)
	defer cancel()
	if _, err := conn.Read(ctx); err == nil || !strings.Contains(err.Error(), "cannot be reached") || ctx.Err() != nil {
		t.Fatalf("Read: %v; want the end, the server cannot be reached", err)
	}
}

// Before the server ever answered, a POST that cannot connect is only a
// failed Write (the session reports a failed connect); the Conn lives on.
func TestHTTPPOSTRefusedBeforeContact(t *testing.T) {
	t.Parallel()
	var refuse atomic.Int64
	refuse.Store(1)
	conn, _, _ := httpStart(t, goneServer(t, func() {}), &transport.HTTP{Client: refusingClient(&refuse)})
	if err := conn.Write(t.Context(), httpReq(t, 1, "initialize", map[string]any{}), nil); err == nil {
		t.Fatal("Write to a refusing server succeeded")
	}
	httpWrite(t, conn, httpReq(t, 2, "initialize", map[string]any{}))
	if m := httpRead(t, conn); m.ID != jsonrpc.IntID(2) {
		t.Fatalf("got %s %s, want the response to 2", m.Kind(), m.ID)
	}
}

// A POST whose connection breaks without an answer is followed by a HEAD:
// when that cannot connect, the server is gone and Read ends; when it is
// answered, the server is there and the Conn goes on.
func TestHTTPPOSTBrokenProbes(t *testing.T) {
	t.Parallel()
	for _, dead := range []bool{true, false} {
		t.Run(map[bool]string{true: "dead", false: "alive"}[dead], func(t *testing.T) {
			t.Parallel()
			var refuse, heads atomic.Int64
			var breakPOST atomic.Bool
			conn, _, _ := httpStart(t, goneServer(t, func() {}), &transport.HTTP{Client: breakingClient(&refuse, &breakPOST, &heads)})
			httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{}))
			httpRead(t, conn)
			breakPOST.Store(true)
			if dead {
				refuse.Store(1)
			}
			if err := conn.Write(t.Context(), httpReq(t, 2, "tools/list", nil), nil); err == nil {
				t.Fatal("a broken POST succeeded")
			}
			if n := heads.Load(); n != 1 {
				t.Errorf("%d HEAD probes, want 1", n)
			}
			if dead {
				ctx, cancel := context.WithTimeout(t.Context(), goneBound)
				defer cancel()
				if _, err := conn.Read(ctx); err == nil || !strings.Contains(err.Error(), "cannot be reached") || ctx.Err() != nil {
					t.Fatalf("Read: %v; want the end, the server cannot be reached", err)
				}
				return
			}
			httpWrite(t, conn, httpReq(t, 3, "tools/list", nil))
			if m := httpRead(t, conn); m.ID != jsonrpc.IntID(3) {
				t.Fatalf("got %s %s, want the response to 3", m.Kind(), m.ID)
			}
		})
	}
}
