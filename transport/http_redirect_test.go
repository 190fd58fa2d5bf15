package transport_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// redirectSecrets are the configured headers a redirect must not carry to
// another origin: Go itself drops Authorization across hosts, but not an
// API-key header, and not across ports of one host.
func redirectSecrets() http.Header {
	h := http.Header{}
	h.Set("Authorization", "Bearer s3cret-token")
	h.Set("X-Api-Key", "k3y-value")
	return h
}

// redirectTarget starts a server that records everything it receives: the
// other origin (another port of the same host).
func redirectTarget(t *testing.T) (*httptest.Server, *httpLog) {
	t.Helper()
	log := newHTTPLog()
	to := httptest.NewServer(log.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	})))
	t.Cleanup(to.Close)
	return to, log
}

// redirectPair starts a redirectTarget and a server that answers every
// request with a 307 to the same path there.
func redirectPair(t *testing.T) (from, to *httptest.Server, toLog *httpLog) {
	t.Helper()
	to, toLog = redirectTarget(t)
	from = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	t.Cleanup(from.Close)
	return from, to, toLog
}

// wantOriginRefused checks the error names both origins and no secret.
func wantOriginRefused(t *testing.T, what string, err error, from, to *httptest.Server) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: succeeded across origins", what)
	}
	msg := err.Error()
	for _, origin := range []string{from.URL, to.URL} {
		if !strings.Contains(msg, origin) {
			t.Errorf("%s: error %q does not name %s", what, msg, origin)
		}
	}
	if !strings.Contains(msg, "another origin") {
		t.Errorf("%s: error %q does not say why", what, msg)
	}
	for _, secret := range []string{"s3cret", "k3y"} {
		if strings.Contains(msg, secret) {
			t.Errorf("%s: error %q shows a header value", what, msg)
		}
	}
}

// A 307 to another origin is not followed, on Streamable HTTP (POST) or the
// legacy transport (its GET): the other origin receives nothing at all,
// and the error names both origins.
func TestRedirectToOtherOriginRefused(t *testing.T) {
	t.Parallel()
	from, to, toLog := redirectPair(t)

	conn, err := (&transport.HTTP{URL: from.URL + "/mcp", Header: redirectSecrets()}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	err = conn.Write(t.Context(), httpReq(t, 1, "initialize", map[string]any{}), nil)
	wantOriginRefused(t, "Streamable HTTP POST", err, from, to)

	_, err = (&transport.SSE{URL: from.URL + "/sse", Header: redirectSecrets()}).Dial(t.Context())
	wantOriginRefused(t, "legacy SSE GET", err, from, to)

	// A client of the caller's own is guarded the same way.
	own := &http.Client{}
	conn2, err := (&transport.HTTP{URL: from.URL + "/mcp", Header: redirectSecrets(), Client: own}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn2.Close() })
	err = conn2.Write(t.Context(), httpReq(t, 1, "initialize", map[string]any{}), nil)
	wantOriginRefused(t, "caller's http.Client", err, from, to)
	if own.CheckRedirect != nil {
		t.Error("the caller's http.Client was modified")
	}

	if seen := toLog.Seen(); len(seen) != 0 {
		t.Errorf("the other origin received %d requests, first with headers %v", len(seen), seen[0].Header)
	}
}

// A redirect within the origin is followed, with the configured headers,
// the body (307 replays it), and no Referer giving away the first URL.
func TestRedirectSameOriginFollowed(t *testing.T) {
	t.Parallel()
	log := newHTTPLog()
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/mcp?moved=1", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		m, err := jsonrpc.Decode(httpReqBody(r))
		if err != nil {
			http.Error(w, "no body", http.StatusBadRequest)
			return
		}
		httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{"ok": true})))
	})
	srv := httptest.NewServer(log.wrap(mux))
	t.Cleanup(srv.Close)
	conn, err := (&transport.HTTP{URL: srv.URL + "/old", Header: redirectSecrets()}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{}))
	if m := httpRead(t, conn); m.ID != jsonrpc.IntID(1) || m.Error != nil {
		t.Fatalf("got %+v, want the response", m)
	}
	seen := log.Seen()
	if len(seen) != 2 {
		t.Fatalf("%d requests, want 2 (the redirect and its target)", len(seen))
	}
	final := seen[1]
	if final.Msg == nil || final.Header.Get("Authorization") != "Bearer s3cret-token" || final.Header.Get("X-Api-Key") != "k3y-value" {
		t.Errorf("the redirected POST lost its body or headers: %v", final.Header)
	}
	if ref := final.Header.Get("Referer"); ref != "" {
		t.Errorf("Referer %q sent", ref)
	}
}

// A redirect chain that goes elsewhere at any hop is refused at that hop,
// whatever the hops before it.
func TestRedirectChainLeavingOrigin(t *testing.T) {
	t.Parallel()
	to, toLog := redirectTarget(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/b", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/b", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to.URL+"/b", http.StatusTemporaryRedirect)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	conn, err := (&transport.HTTP{URL: srv.URL + "/a", Header: redirectSecrets()}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	err = conn.Write(t.Context(), httpReq(t, 1, "initialize", map[string]any{}), nil)
	wantOriginRefused(t, "chain", err, srv, to)
	if n := len(toLog.Seen()); n != 0 {
		t.Errorf("the other origin received %d requests", n)
	}
}
