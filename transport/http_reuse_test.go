package transport_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/elicit-dev/elicit/transport"
)

// TestHTTPReusesConnections: requests one after another go over the
// connection the last one used. go-sdk answers each request on an SSE stream
// that it ends right after the response; closing that body before its end
// (as the transport did once the response was in) costs the connection, so
// every request dialled a new one. Ten sequential calls plus the standalone
// GET need two connections when every drain ends before the next request
// starts; on a loaded machine a drain may race the next request now and
// then, each race costing one dial. Without reuse it is one a request.
func TestHTTPReusesConnections(t *testing.T) {
	t.Parallel()
	log := newHTTPLog()
	srv := httptest.NewUnstartedServer(log.wrap(httpSDKServer(t)))
	var dials atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dials.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	conn, err := (&transport.HTTP{URL: srv.URL, Observer: log}).Dial(t.Context())
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	httpInitialize(t, conn, log)
	const calls = 10
	for i := range calls {
		httpWrite(t, conn, httpReq(t, int64(10+i), "tools/list", nil))
		if m := httpRead(t, conn); m.Error != nil {
			t.Fatalf("tools/list %d: %v", i, m.Error)
		}
	}
	// initialize, initialized, GET, ten calls: 13 requests.
	// Half the requests racing their drain is far beyond what load does
	// (seen: 4), and far below no reuse (13).
	if n := dials.Load(); n > calls/2+1 {
		t.Errorf("%d connections for %d sequential requests and the GET stream, want 2 (%d at most)", n, calls+3, calls/2+1)
	}
}
