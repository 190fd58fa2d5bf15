package transport_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/elicit-dev/elicit/transport"
)

// querySecret stands for a token a person put in a server's URL
// (?api_key=…): it goes to that server and nowhere else.
const querySecret = "s3cr3t-query-token"

// TestHTTPQuerySecretOnlyToTheOrigin: the server gets the URL's query as
// given, but no frame (the traffic view, --record, exports) and no error
// text shows its values.
func TestHTTPQuerySecretOnlyToTheOrigin(t *testing.T) {
	t.Parallel()
	var got atomic.Value
	sdk := httpSDKServer(t)
	log := newHTTPLog()
	srv := httptest.NewServer(log.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.URL.Query().Get("api_key"))
		sdk.ServeHTTP(w, r)
	})))
	t.Cleanup(srv.Close)
	conn, err := (&transport.HTTP{URL: srv.URL + "/mcp?api_key=" + querySecret, Observer: log}).Dial(t.Context())
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	httpInitialize(t, conn, log)
	if v, _ := got.Load().(string); v != querySecret {
		t.Fatalf("the server got api_key %q, want the URL's", v)
	}
	frames := log.Frames()
	if len(frames) == 0 {
		t.Fatal("no frames")
	}
	for _, f := range frames {
		if f.HTTP == nil {
			continue
		}
		if strings.Contains(f.HTTP.URL, querySecret) {
			t.Errorf("frame %s %s shows the query secret", f.HTTP.Method, f.HTTP.URL)
		}
		if !strings.Contains(f.HTTP.URL, "/mcp?api_key=") {
			t.Errorf("frame URL %q lost where it went (path and parameter name)", f.HTTP.URL)
		}
		if f.Err != nil && strings.Contains(f.Err.Error(), querySecret) {
			t.Errorf("frame error shows the query secret: %v", f.Err)
		}
	}
}

// TestTransportErrorsHideQuerySecret: net/http's errors quote the whole
// URL ("Post \"http://h/mcp?token=…\": dial tcp …"); what the transports
// return must not.
func TestTransportErrorsHideQuerySecret(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/mcp?token=" + querySecret + "#frag-" + querySecret
	_ = l.Close()

	check := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error from a closed port", what)
		}
		if strings.Contains(err.Error(), querySecret) {
			t.Errorf("%s: error shows the query secret: %v", what, err)
		}
	}
	t.Run("http", func(t *testing.T) {
		log := newHTTPLog()
		conn, err := (&transport.HTTP{URL: dead, Observer: log}).Dial(t.Context())
		if err != nil {
			check("HTTP Dial", err)
			return
		}
		defer conn.Close()
		check("HTTP Write", conn.Write(t.Context(), httpReq(t, 1, "initialize", map[string]any{}), nil))
		for _, f := range log.Frames() {
			if f.Err != nil {
				check("HTTP frame", f.Err)
			}
			if f.HTTP != nil && strings.Contains(f.HTTP.URL, querySecret) {
				t.Errorf("frame URL shows the query secret: %s", f.HTTP.URL)
			}
		}
	})
	t.Run("legacy-sse", func(t *testing.T) {
		_, err := (&transport.SSE{URL: dead}).Dial(t.Context())
		check("SSE Dial", err)
	})
}
