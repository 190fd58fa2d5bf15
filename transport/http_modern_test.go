package transport_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// modernStart dials a Conn in the 2026-07-28 era to h.
func modernStart(t *testing.T, h http.Handler, opts *transport.HTTP) (transport.Conn, *httpLog) {
	t.Helper()
	conn, log, _ := httpStart(t, h, opts)
	conn.(transport.VersionSetter).SetProtocolVersion(modernVersion)
	return conn, log
}

// modernEcho answers every request with an empty result as JSON.
func modernEcho(t *testing.T) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, err := jsonrpc.Decode(httpReqBody(r))
		if err != nil || m.Kind() != jsonrpc.KindRequest {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Mcp-Session-Id", "must-be-ignored")
		httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{})))
	})
}

// unb64 decodes a =?base64?...?= header value, or returns it as is.
func unb64(t *testing.T, v string) string {
	t.Helper()
	inner, ok := strings.CutPrefix(v, "=?base64?")
	if !ok {
		return v
	}
	inner, ok = strings.CutSuffix(inner, "?=")
	if !ok {
		t.Fatalf("%q: sentinel prefix without suffix", v)
	}
	b, err := base64.StdEncoding.DecodeString(inner)
	if err != nil {
		t.Fatalf("%q: %v", v, err)
	}
	return string(b)
}

// Mcp-Method and Mcp-Name (from the right param per method), encoded by the
// spec's rules; Message.Headers sent (encoded too) under the transport's
// own headers and the configured ones; all of it in the traffic log.
func TestHTTPModernHeaders(t *testing.T) {
	t.Parallel()
	conn, log := modernStart(t, modernEcho(t), &transport.HTTP{Header: http.Header{"X-Tenant": {"blue"}}})
	cases := []struct {
		method   string
		params   map[string]any
		wantName string // decoded; "" = no Mcp-Name
		encoded  bool
	}{
		{"tools/call", map[string]any{"name": "get_weather"}, "get_weather", false},
		{"tools/call", map[string]any{"name": "café ☕"}, "café ☕", true},
		{"prompts/get", map[string]any{"name": "=?base64?literal?="}, "=?base64?literal?=", true},
		{"resources/read", map[string]any{"uri": "file:///projects/app/config.json"}, "file:///projects/app/config.json", false},
		{"resources/read", map[string]any{"uri": "file:///a\nb"}, "file:///a\nb", true},
		{"tasks/get", map[string]any{"taskId": "task-7"}, "task-7", false},
		{"tasks/update", map[string]any{"taskId": " t "}, " t ", true},
		{"tasks/cancel", map[string]any{"taskId": "task-9"}, "task-9", false},
		{"tools/list", map[string]any{"name": "not-a-name-here"}, "", false},
		{"server/discover", nil, "", false},
	}
	for i, c := range cases {
		modernCall(t, conn, httpReq(t, int64(i+1), c.method, modernParams(c.params)))
	}
	m := httpReq(t, 100, "tools/call", modernParams(map[string]any{"name": "execute_sql"}))
	headers := map[string]string{
		"Mcp-Param-Region":   "us-west1",
		"Mcp-Param-Greeting": "Hello, 世界",
		"Mcp-Param-Text":     " padded ",
		"Mcp-Param-Val":      "=?base64?literal?=",
		"Mcp-Method":         "evil/method", // the transport's own header wins
		"X-Tenant":           "red",         // so does the configured one
	}
	modernCallWith(t, conn, m, &transport.WriteOptions{Headers: headers})

	seen := log.SeenMethod(http.MethodPost)
	if len(seen) != len(cases)+1 {
		t.Fatalf("saw %d POSTs, want %d", len(seen), len(cases)+1)
	}
	for i, c := range cases {
		h := seen[i].Header
		if got := h.Get("Mcp-Method"); got != c.method {
			t.Errorf("%s: Mcp-Method = %q", c.method, got)
		}
		raw := h.Get("Mcp-Name")
		if got := unb64(t, raw); got != c.wantName {
			t.Errorf("%s %v: Mcp-Name = %q (decoded %q), want %q", c.method, c.params, raw, got, c.wantName)
		}
		if strings.HasPrefix(raw, "=?base64?") != c.encoded {
			t.Errorf("%s %v: Mcp-Name %q: encoded = %v, want %v", c.method, c.params, raw, !c.encoded, c.encoded)
		}
		if h.Get("Mcp-Session-Id") != "" {
			t.Errorf("%s sent a session id", c.method)
		}
	}
	// The spec's own encoding examples.
	h := seen[len(cases)].Header
	for k, want := range map[string]string{
		"Mcp-Param-Region":   "us-west1",
		"Mcp-Param-Greeting": "=?base64?SGVsbG8sIOS4lueVjA==?=",
		"Mcp-Param-Text":     "=?base64?IHBhZGRlZCA=?=",
		"Mcp-Param-Val":      "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
		"Mcp-Method":         "tools/call",
		"Mcp-Name":           "execute_sql",
		"X-Tenant":           "blue",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	var frame *transport.Frame
	for _, f := range log.Frames() {
		if f.Dir == transport.Out && strings.Contains(string(f.Raw), "execute_sql") {
			frame = &f
		}
	}
	if frame == nil || frame.HTTP.Header.Get("Mcp-Param-Greeting") == "" || frame.HTTP.Header.Get("Mcp-Name") != "execute_sql" ||
		frame.HTTP.Header.Get("Mcp-Method") != "tools/call" || frame.HTTP.Header.Get("Mcp-Protocol-Version") != modernVersion {
		t.Errorf("the traffic log lacks the MCP headers: %+v", frame)
	}

	// A header name that is not an HTTP token fails the Write, unsent.
	bad := httpReq(t, 101, "tools/call", modernParams(map[string]any{"name": "x"}))
	badName := &transport.WriteOptions{Headers: map[string]string{"Mcp-Param-Bad\r\nX-Injected": "1"}}
	if err := conn.Write(t.Context(), bad, badName); err == nil {
		t.Error("Write with a bad header name succeeded")
	}
	if n := len(log.SeenMethod(http.MethodPost)); n != len(cases)+1 {
		t.Errorf("the bad message reached the server (%d POSTs)", n)
	}
}

// No session (even if the server offers one), no GET stream, no DELETE,
// and no responses from the client in the stateless era.
func TestHTTPModernStateless(t *testing.T) {
	t.Parallel()
	conn, log := modernStart(t, modernEcho(t), nil)
	for i := range 3 {
		modernCall(t, conn, httpReq(t, int64(i+1), "tools/list", modernParams(nil)))
	}
	if err := conn.Write(t.Context(), httpResp(t, jsonrpc.IntID(9), map[string]any{}), nil); err == nil {
		t.Error("Write of a response succeeded in the stateless era")
	}
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	for _, s := range log.Seen() {
		if s.Method != http.MethodPost || s.Header.Get("Mcp-Session-Id") != "" || s.Msg.Kind() != jsonrpc.KindRequest {
			t.Errorf("saw %s %s with session %q", s.Method, httpWhat(s), s.Header.Get("Mcp-Session-Id"))
		}
	}
	if n := len(log.Seen()); n != 3 {
		t.Errorf("saw %d requests, want 3", n)
	}
}

// A request-scoped stream with keep-alive comments between a notification
// and the response: the comments are not messages and not errors.
func TestHTTPModernKeepAlive(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		w.Header().Set("X-Accel-Buffering", "no")
		httpSSEStart(w)
		httpSSE(w, ":\r\n\r\n")
		httpSSE(w, "data: "+httpEncode(t, httpNote(t, "notifications/progress", map[string]any{"progress": 1}))+"\n\n")
		for range 3 {
			time.Sleep(10 * time.Millisecond) // a deliberately slow server: keep-alives spaced out
			httpSSE(w, ": keep-alive\n\n")
		}
		httpSSE(w, ":\n")
		httpSSE(w, "data: "+httpEncode(t, httpResp(t, m.ID, map[string]any{"ok": true}))+"\n\n")
	})
	conn, log := modernStart(t, h, nil)
	httpWrite(t, conn, httpReq(t, 1, "tools/call", modernParams(map[string]any{"name": "slow"})))
	if in := httpReadInbound(t, conn, 10*time.Second); in.Msg == nil || in.Msg.Method != "notifications/progress" || in.RelatedID != jsonrpc.IntID(1) || in.Received.IsZero() {
		t.Fatalf("first = %+v (related %s), want the progress of request 1", in.Msg, in.RelatedID)
	}
	if m := httpRead(t, conn); m.Kind() != jsonrpc.KindResponse || m.ID != jsonrpc.IntID(1) || m.Error != nil {
		t.Fatalf("second = %+v, want the response", m)
	}
	var in int
	for _, f := range log.Frames() {
		if f.Dir == transport.In {
			in++
		}
	}
	if in != 2 {
		t.Errorf("%d incoming frames, want 2 (comments are not frames)", in)
	}
	if errs := httpErrFrames(log.Frames()); len(errs) != 0 {
		t.Errorf("error frames: %+v", errs)
	}
}

// A modern stream that breaks before its response is not resumed (even
// with event ids on it): the request is lost, and Read ends it with an
// error that says so, matchable with errors.Is.
func TestHTTPModernLost(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		httpSSEStart(w)
		httpSSE(w, "id: e1\nretry: 10\ndata: "+httpEncode(t, httpNote(t, "notifications/progress", map[string]any{"progress": 1}))+"\n\n")
	})
	conn, log := modernStart(t, h, nil)
	httpWrite(t, conn, httpReq(t, 7, "tools/call", modernParams(map[string]any{"name": "x"})))
	if m := httpRead(t, conn); m.Method != "notifications/progress" {
		t.Fatalf("first = %+v", m)
	}
	in := httpReadInbound(t, conn, 10*time.Second)
	if in.Msg != nil || in.ID != jsonrpc.IntID(7) || !errors.Is(in.Err, transport.ErrRequestLost) {
		t.Fatalf("got %+v, want request 7 ended with ErrRequestLost", in)
	}
	if !strings.Contains(in.Err.Error(), "re-issued") {
		t.Errorf("error %q does not say the request may be re-issued", in.Err)
	}
	time.Sleep(50 * time.Millisecond) // a window past the server's retry (10 ms) in which no GET must come
	if gets := log.SeenMethod(http.MethodGet); len(gets) != 0 {
		t.Errorf("the stream was resumed with GET: %d", len(gets))
	}
	if n := len(httpErrFrames(log.Frames())); n != 1 {
		t.Errorf("%d error frames, want 1", n)
	}
}

// CancelRequest on an open modern stream closes it: the server sees the
// request's context end, nothing is sent (no notifications/cancelled), and
// nothing is delivered for it. Unknown ids still return true in this era;
// a stateful Conn returns false.
func TestHTTPModernCancelClosesStream(t *testing.T) {
	t.Parallel()
	gone := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		switch {
		case m == nil: // the stateful Conn's standalone GET
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		case m.Method != "tools/call":
			httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{})))
			return
		}
		httpSSEStart(w)
		httpSSE(w, "data: "+httpEncode(t, httpNote(t, "notifications/progress", map[string]any{"progress": 1}))+"\n\n")
		<-r.Context().Done()
		close(gone)
	})
	conn, log := modernStart(t, h, nil)
	httpWrite(t, conn, httpReq(t, 1, "tools/call", modernParams(map[string]any{"name": "long"})))
	httpRead(t, conn) // the stream is open
	rc := conn.(transport.RequestCanceler)
	if !rc.CancelRequest(jsonrpc.IntID(1)) {
		t.Fatal("CancelRequest = false")
	}
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not see the stream close")
	}
	if !rc.CancelRequest(jsonrpc.IntID(1)) || !rc.CancelRequest(jsonrpc.IntID(42)) {
		t.Error("CancelRequest of a settled or unknown id = false in the stateless era")
	}
	// The next message is the next request's answer.
	modernCall(t, conn, httpReq(t, 2, "tools/list", modernParams(nil)))
	if n := len(log.SeenMethod(http.MethodPost)); n != 2 {
		t.Errorf("%d POSTs, want 2 (no cancel notification)", n)
	}

	stateful, _, _ := httpStart(t, h, nil)
	stateful.(transport.VersionSetter).SetProtocolVersion("2025-11-25")
	if stateful.(transport.RequestCanceler).CancelRequest(jsonrpc.IntID(1)) {
		t.Error("CancelRequest = true in the stateful era")
	}
}

// 400 and 404 bodies that are JSON-RPC errors for the request are its
// response (with data); other failures stay *StatusError, with status,
// content type and body for the era probe.
func TestHTTPErrorBodies(t *testing.T) {
	t.Parallel()
	bodies := map[string]struct {
		status int
		ctype  string
		body   string
	}{
		"mismatch":  {400, "application/json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch"}}`},
		"caps":      {400, "application/json", `{"jsonrpc":"2.0","id":2,"error":{"code":-32021,"message":"missing","data":{"requiredCapabilities":{"elicitation":{}}}}}`},
		"version":   {400, "application/json", `{"jsonrpc":"2.0","error":{"code":-32022,"message":"unsupported","data":{"supported":["2025-11-25"],"requested":"2026-07-28"}},"id":null}`},
		"nomethod":  {404, "application/json", `{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found"}}`},
		"text":      {400, "text/plain; charset=utf-8", "Bad Request: no\n"},
		"otherid":   {400, "application/json", `{"jsonrpc":"2.0","id":99,"error":{"code":-32020,"message":"not yours"}}`},
		"notrpc":    {404, "text/html", "<h1>Cannot POST /mcp</h1>"},
		"forbidden": {403, "application/json", `{"jsonrpc":"2.0","error":{"code":-32000,"message":"bad origin"},"id":null}`},
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		var p struct{ Name string }
		_ = json.Unmarshal(m.Params, &p)
		b := bodies[p.Name]
		w.Header().Set("Content-Type", b.ctype)
		w.WriteHeader(b.status)
		_, _ = w.Write([]byte(b.body))
	})
	conn, log := modernStart(t, h, nil)
	wantErr := map[string]int64{"mismatch": -32020, "caps": -32021, "version": -32022, "nomethod": -32601}
	for i, name := range []string{"mismatch", "caps", "version", "nomethod"} {
		resp := modernCall(t, conn, httpReq(t, int64(i+1), "tools/call", modernParams(map[string]any{"name": name})))
		if resp.Error == nil || resp.Error.Code != wantErr[name] {
			t.Errorf("%s: got %+v, want error %d", name, resp, wantErr[name])
		}
	}
	var data struct {
		RequiredCapabilities map[string]any `json:"requiredCapabilities"`
		Supported            []string       `json:"supported"`
	}
	resp := modernCall(t, conn, httpReq(t, 2, "tools/call", modernParams(map[string]any{"name": "caps"})))
	if json.Unmarshal(resp.Error.Data, &data) != nil || data.RequiredCapabilities["elicitation"] == nil {
		t.Errorf("-32021 data = %s", resp.Error.Data)
	}
	resp = modernCall(t, conn, httpReq(t, 3, "tools/call", modernParams(map[string]any{"name": "version"})))
	if json.Unmarshal(resp.Error.Data, &data) != nil || len(data.Supported) != 1 {
		t.Errorf("-32022 data = %s", resp.Error.Data)
	}

	for i, c := range []struct {
		name   string
		status int
		ctype  string
	}{{"text", 400, "text/plain"}, {"otherid", 400, "application/json"}, {"notrpc", 404, "text/html"}, {"forbidden", 403, "application/json"}} {
		err := conn.Write(t.Context(), httpReq(t, int64(10+i), "tools/call", modernParams(map[string]any{"name": c.name})), nil)
		var se *transport.StatusError
		if !errors.As(err, &se) || se.StatusCode != c.status || se.ContentType != c.ctype || string(se.Body) != bodies[c.name].body {
			t.Errorf("%s: Write = %v (%+v), want a %d StatusError with its %s body", c.name, err, se, c.status, c.ctype)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if m, err := msgOf(conn.Read(ctx)); err == nil {
		t.Errorf("Read returned %+v after the StatusErrors; nothing should be queued", m)
	}
	for _, f := range log.Frames() {
		if f.Dir == transport.In && f.HTTP.Status == http.StatusBadRequest && strings.Contains(string(f.Raw), "Header mismatch") && f.Err != nil {
			t.Errorf("the delivered error body is an error frame: %v", f.Err)
		}
	}
}
