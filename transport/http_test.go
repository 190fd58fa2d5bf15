package transport_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// A request may be answered with a JSON body or an event stream; on the
// stream, server messages come before the response, in order.
func TestHTTPJSONAndSSEBodies(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		m, _ := jsonrpc.Decode(httpReqBody(r))
		switch m.Method {
		case "json":
			httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{"via": "json"})))
		case "sse":
			httpSSEStart(w)
			httpSSE(w, ": keep-alive\n\n")
			httpSSE(w, "data: "+httpEncode(t, httpNote(t, "notifications/progress", map[string]any{"progress": 1}))+"\n\n")
			httpSSE(w, "data: "+httpEncode(t, httpReq(t, 77, "ping", nil))+"\r\n\r\n")
			httpSSE(w, "data: "+httpEncode(t, httpResp(t, m.ID, map[string]any{"via": "sse"}))+"\n\n")
		default: // notifications and responses
			w.WriteHeader(http.StatusAccepted)
		}
	})
	conn, log, _ := httpStart(t, h, nil)

	httpWrite(t, conn, httpReq(t, 1, "json", nil))
	var got struct{ Via string }
	httpResult(t, httpRead(t, conn), &got)
	if got.Via != "json" {
		t.Fatalf("via = %q", got.Via)
	}

	httpWrite(t, conn, httpReq(t, 2, "sse", nil))
	if m := httpRead(t, conn); m.Method != "notifications/progress" {
		t.Fatalf("first message = %s %q, want the progress notification", m.Kind(), m.Method)
	}
	ping := httpRead(t, conn)
	if ping.Method != "ping" || ping.ID != jsonrpc.IntID(77) {
		t.Fatalf("second message = %s %q, want ping 77", ping.Kind(), ping.Method)
	}
	httpWrite(t, conn, httpResp(t, ping.ID, nil)) // answered 202
	httpResult(t, httpRead(t, conn), &got)
	if got.Via != "sse" {
		t.Fatalf("via = %q", got.Via)
	}
	httpWrite(t, conn, httpNote(t, "notifications/initialized", nil))

	var in, out int
	for _, f := range log.Frames() {
		if f.Err != nil {
			t.Errorf("error frame: %v", f.Err)
		}
		if f.Dir == transport.Out {
			out++
			if f.HTTP.Method != http.MethodPost || f.HTTP.Status != 0 || f.HTTP.Header.Get("Content-Type") != "application/json" {
				t.Errorf("out frame HTTP = %+v", f.HTTP)
			}
			continue
		}
		in++
		if f.HTTP.Status != http.StatusOK || f.HTTP.URL == "" {
			t.Errorf("in frame HTTP = %+v", f.HTTP)
		}
	}
	if in != 4 || out != 4 {
		t.Errorf("saw %d in and %d out frames, want 4 and 4", in, out)
	}
}

// 404 for our session: Write fails with ErrSessionExpired and the id is
// dropped, so the next initialize goes out bare and adopts the new one.
func TestHTTPSessionExpired(t *testing.T) {
	t.Parallel()
	sessions := make(chan string, 2)
	sessions <- "s-1"
	sessions <- "s-2"
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		switch {
		case r.Method != http.MethodPost:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case m.Method == "initialize":
			w.Header().Set("Mcp-Session-Id", <-sessions)
			httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{"protocolVersion": "2025-06-18"})))
		case r.Header.Get("Mcp-Session-Id") == "s-1":
			http.Error(w, "session not found", http.StatusNotFound)
		default:
			httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{})))
		}
	})
	conn, log, _ := httpStart(t, h, nil)

	httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{}))
	httpRead(t, conn)
	err := conn.Write(t.Context(), httpReq(t, 2, "tools/list", nil), nil)
	if !errors.Is(err, transport.ErrSessionExpired) {
		t.Fatalf("Write = %v, want ErrSessionExpired", err)
	}
	var se *transport.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusNotFound || !strings.Contains(string(se.Body), "session not found") {
		t.Fatalf("Write error %v is not a 404 StatusError with the body", err)
	}
	// Without an id, a plain 404 is not a session expiry.
	httpWrite(t, conn, httpReq(t, 3, "initialize", map[string]any{}))
	httpRead(t, conn)
	httpWrite(t, conn, httpReq(t, 4, "tools/list", nil))
	httpRead(t, conn)

	posts := log.SeenMethod(http.MethodPost)
	wantSID := []string{"", "s-1", "", "s-2"}
	for i, p := range posts {
		if got := p.Header.Get("Mcp-Session-Id"); i < len(wantSID) && got != wantSID[i] {
			t.Errorf("POST %d (%s): Mcp-Session-Id = %q, want %q", i, p.Msg.Method, got, wantSID[i])
		}
	}
	errs := httpErrFrames(log.Frames())
	if len(errs) != 1 || errs[0].HTTP.Status != http.StatusNotFound {
		t.Errorf("error frames = %+v, want one for the 404", errs)
	}
}

// The session id must be visible ASCII; anything else is ignored.
func TestHTTPInvalidSessionIDIgnored(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		if m == nil || r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		if m.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "bad id") // a space is not visible ASCII
		}
		httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{})))
	})
	conn, log, _ := httpStart(t, h, nil)
	httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{}))
	httpRead(t, conn)
	httpWrite(t, conn, httpReq(t, 2, "tools/list", nil))
	httpRead(t, conn)
	if got := log.SeenMethod(http.MethodPost)[1].Header.Values("Mcp-Session-Id"); len(got) != 0 {
		t.Errorf("sent Mcp-Session-Id %q", got)
	}
	if len(httpErrFrames(log.Frames())) != 1 {
		t.Errorf("want one error frame for the bad id, got %+v", httpErrFrames(log.Frames()))
	}
}

// Other statuses fail the Write with the status and a body excerpt, and put
// nothing fake on the wire or in Read.
func TestHTTPErrorStatus(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			http.Error(w, "upstream exploded", http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusMethodNotAllowed)
	})
	conn, log, _ := httpStart(t, h, nil)
	err := conn.Write(t.Context(), httpReq(t, 1, "tools/list", nil), nil)
	var se *transport.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusBadGateway || errors.Is(err, transport.ErrSessionExpired) {
		t.Fatalf("Write = %v, want a 502 StatusError", err)
	}
	if !strings.Contains(err.Error(), "502") || !strings.Contains(err.Error(), "upstream exploded") {
		t.Errorf("error %q lacks the status or the body excerpt", err)
	}
	if err := conn.Write(t.Context(), httpNote(t, "notifications/initialized", nil), nil); err == nil {
		t.Error("a 502 for a notification did not fail the Write")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if m, err := msgOf(conn.Read(ctx)); err == nil {
		t.Errorf("Read returned %+v; nothing should have been delivered", m)
	}
	if n := len(httpErrFrames(log.Frames())); n != 2 {
		t.Errorf("%d error frames, want 2", n)
	}
}

// A request answered 202 gets no response: Write must say so.
func TestHTTPRequestAcceptedWithoutResponse(t *testing.T) {
	t.Parallel()
	conn, _, _ := httpStart(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
	}), nil)
	if err := conn.Write(t.Context(), httpReq(t, 1, "tools/list", nil), nil); err == nil {
		t.Fatal("Write succeeded for a request answered 202 with no body")
	}
}

// The standalone GET: 405 is silent; another failure is an error frame and,
// since the stream never opened, no retry.
func TestHTTPStandaloneGETRefused(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusMethodNotAllowed, http.StatusInternalServerError} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet {
					http.Error(w, "no", status)
					return
				}
				w.WriteHeader(http.StatusAccepted)
			})
			conn, log, _ := httpStart(t, h, nil)
			conn.(transport.VersionSetter).SetProtocolVersion("2025-06-18")
			log.WaitFor(t, "the GET", func(s []httpSeen) bool { return len(s) > 0 })
			httpWrite(t, conn, httpNote(t, "notifications/initialized", nil))
			if err := conn.Close(); err != nil { // waits for the GET goroutine
				t.Fatal(err)
			}
			errs := httpErrFrames(log.Frames())
			switch {
			case status == http.StatusMethodNotAllowed && len(errs) != 0:
				t.Errorf("405 produced error frames: %+v", errs)
			case status != http.StatusMethodNotAllowed && (len(errs) != 1 || errs[0].HTTP.Method != http.MethodGet || errs[0].HTTP.Status != status):
				t.Errorf("error frames = %+v, want one for the GET", errs)
			}
			if n := len(log.SeenMethod(http.MethodGet)); n != 1 {
				t.Errorf("%d GETs, want 1 (no retry for a stream that never opened)", n)
			}
		})
	}
}

// An open standalone stream that drops is resumed with Last-Event-ID after
// the server's retry delay, and keeps delivering.
func TestHTTPStandaloneGETResumes(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		httpSSEStart(w)
		switch r.Header.Get("Last-Event-ID") {
		case "":
			httpSSE(w, "retry: 20\nid: g1\ndata: "+httpEncode(t, httpNote(t, "notifications/tools/list_changed", nil))+"\n\n")
		case "g1":
			httpSSE(w, "id: g2\ndata: "+httpEncode(t, httpReq(t, 5, "ping", nil))+"\n\n")
			<-r.Context().Done() // stay open until the client goes
		default:
			<-r.Context().Done()
		}
	})
	conn, log, _ := httpStart(t, h, nil)
	conn.(transport.VersionSetter).SetProtocolVersion("2025-11-25")
	if m := httpRead(t, conn); m.Method != "notifications/tools/list_changed" {
		t.Fatalf("first = %q", m.Method)
	}
	if m := httpRead(t, conn); m.Method != "ping" {
		t.Fatalf("second = %q", m.Method)
	}
	gets := log.SeenMethod(http.MethodGet)
	if len(gets) != 2 || gets[1].Header.Get("Last-Event-ID") != "g1" {
		t.Fatalf("GETs = %d, second Last-Event-ID %q; want a resume from g1", len(gets), gets[len(gets)-1].Header.Get("Last-Event-ID"))
	}
	if d := gets[1].At.Sub(gets[0].At); d < 20*time.Millisecond {
		t.Errorf("resumed after %v, before the 20 ms retry", d)
	}
}

// Close: DELETE with the session id (405 is fine), Read and Write fail with
// ErrClosed, a pending Read is unblocked, and Close is idempotent.
func TestHTTPClose(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			w.Header().Set("Mcp-Session-Id", "s-9")
			m, _ := jsonrpc.Decode(httpReqBody(r))
			httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{})))
		default:
			w.WriteHeader(http.StatusMethodNotAllowed)
		}
	})
	conn, log, _ := httpStart(t, h, nil)
	httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{}))
	httpRead(t, conn)

	readErr := make(chan error, 1)
	go func() {
		_, err := conn.Read(context.Background())
		readErr <- err
	}()
	if err := conn.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case err := <-readErr:
		if !httpIsClosed(err) {
			t.Errorf("pending Read = %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not unblock Read")
	}
	if err := conn.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := conn.Read(t.Context()); !httpIsClosed(err) {
		t.Errorf("Read after Close = %v", err)
	}
	if err := conn.Write(t.Context(), httpNote(t, "x", nil), nil); !httpIsClosed(err) {
		t.Errorf("Write after Close = %v", err)
	}
	dels := log.SeenMethod(http.MethodDelete)
	if len(dels) != 1 || dels[0].Header.Get("Mcp-Session-Id") != "s-9" {
		t.Errorf("DELETEs = %+v, want one with the session id", dels)
	}
	if errs := httpErrFrames(log.Frames()); len(errs) != 0 {
		t.Errorf("error frames (405 on DELETE should be silent): %+v", errs)
	}
}

// Custom headers go on every request (POST, GET, DELETE); the frame log
// shows only the MCP-relevant ones, with Authorization redacted.
func TestHTTPCustomHeaders(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			m, _ := jsonrpc.Decode(httpReqBody(r))
			if m.Kind() != jsonrpc.KindRequest {
				w.WriteHeader(http.StatusAccepted)
				return
			}
			w.Header().Set("Mcp-Session-Id", "s-1")
			httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{})))
		case http.MethodGet:
			httpSSEStart(w)
			<-r.Context().Done()
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	hdr := http.Header{}
	hdr.Set("Authorization", "Bearer sekrit")
	hdr.Set("X-Tenant", "blue")
	conn, log, _ := httpStart(t, h, &transport.HTTP{Header: hdr})
	httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{}))
	httpRead(t, conn)
	conn.(transport.VersionSetter).SetProtocolVersion("2025-11-25")
	httpWrite(t, conn, httpNote(t, "notifications/initialized", nil))
	log.WaitFor(t, "the GET", func(s []httpSeen) bool { return len(s) == 3 })
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}

	seen := log.Seen()
	methods := map[string]bool{}
	for _, s := range seen {
		methods[s.Method] = true
		if s.Header.Get("Authorization") != "Bearer sekrit" || s.Header.Get("X-Tenant") != "blue" {
			t.Errorf("%s lacks the custom headers: %v", s.Method, s.Header)
		}
	}
	if !methods[http.MethodPost] || !methods[http.MethodGet] || !methods[http.MethodDelete] {
		t.Errorf("methods seen = %v, want POST, GET and DELETE", methods)
	}
	for _, f := range log.Frames() {
		if f.Dir != transport.Out {
			continue
		}
		if got := f.HTTP.Header.Get("Authorization"); got != "Bearer [redacted]" {
			t.Errorf("frame Authorization = %q, want it redacted", got)
		}
		if f.HTTP.Header.Get("X-Tenant") != "" || f.HTTP.Header.Get("User-Agent") != "" {
			t.Errorf("frame shows unrelated headers: %v", f.HTTP.Header)
		}
	}
}

func TestHTTPDialRejectsBadURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"", "ftp://x/", "http://", "::"} {
		if c, err := (&transport.HTTP{URL: u}).Dial(t.Context()); err == nil {
			_ = c.Close()
			t.Errorf("Dial(%q) succeeded", u)
		}
	}
}

// ParseHTTPURL is the one URL check of HTTP, SSE and the command line.
func TestParseHTTPURL(t *testing.T) {
	t.Parallel()
	for raw, ok := range map[string]bool{
		"http://localhost:3000/mcp": true, "https://h.example:8443/": true, "http://[::1]:3001/sse": true,
		"": false, "::": false, "/mcp": false, "localhost:3000": false, "ftp://x/": false, "http://": false,
		"http:///mcp": false, "mailto:a@b": false,
	} {
		if _, err := transport.ParseHTTPURL(raw); (err == nil) != ok {
			t.Errorf("ParseHTTPURL(%q) = %v, want ok %v", raw, err, ok)
		}
	}
}

// Legacy is the HTTP+SSE transport for the same server, configured alike.
func TestHTTPLegacy(t *testing.T) {
	t.Parallel()
	h := &transport.HTTP{URL: "http://example.test/mcp", Header: http.Header{"Authorization": {"Bearer x"}},
		Client: &http.Client{}, Observer: &recorder{}}
	sse, ok := h.Legacy().(*transport.SSE)
	if !ok {
		t.Fatalf("Legacy() = %T, want *transport.SSE", h.Legacy())
	}
	if sse.URL != h.URL || sse.Header.Get("Authorization") != "Bearer x" || sse.Client != h.Client || sse.Observer != h.Observer {
		t.Errorf("Legacy() = %+v, want the HTTP transport's URL, headers, client and observer", sse)
	}
}

// Only Streamable HTTP sends message headers; the others say nothing of
// them (they ignore WriteOptions.Headers).
func TestHeaderSender(t *testing.T) {
	t.Parallel()
	conn, _, _ := httpStart(t, http.NotFoundHandler(), nil)
	if hs, ok := conn.(transport.HeaderSender); !ok || !hs.SendsHeaders() {
		t.Error("the HTTP Conn does not send message headers")
	}
	pipe, server := transport.Pipe(nil)
	defer pipe.Close()
	defer server.Close()
	if _, ok := pipe.(transport.HeaderSender); ok {
		t.Error("a stream Conn claims to send message headers")
	}
}
