package transport_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The tools/call stream sends a priming event (retry 50 ms) and a
// notification, then the server closes the connection. The client must wait
// the retry, GET with Last-Event-ID and the session headers, and deliver the
// response from the resumed stream; it must not treat the drop as a cancel.
func TestHTTPPOSTStreamResumes(t *testing.T) {
	t.Parallel()
	closedAt := make(chan time.Time, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		switch {
		case r.Method == http.MethodPost && m.Method == "initialize":
			w.Header().Set("Mcp-Session-Id", "s-r")
			httpJSON(w, httpEncode(t, httpResp(t, m.ID, map[string]any{})))
		case r.Method == http.MethodPost && m.Method == "tools/call":
			httpSSEStart(w)
			httpSSE(w, "event: prime\nid: e1\nretry: 50\ndata: \n\n")
			httpSSE(w, "id: e2\ndata: "+httpEncode(t, httpNote(t, "notifications/progress", map[string]any{"progress": 1}))+"\n\n")
			closedAt <- time.Now()
		case r.Method == http.MethodGet && r.Header.Get("Last-Event-ID") == "e2":
			httpSSEStart(w)
			httpSSE(w, "id: e3\ndata: "+httpEncode(t, httpResp(t, jsonrpc.IntID(2), map[string]any{"ok": true}))+"\n\n")
		case r.Method == http.MethodGet:
			w.WriteHeader(http.StatusMethodNotAllowed) // no standalone stream
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	})
	hdr := http.Header{"X-Tenant": {"blue"}}
	conn, log, _ := httpStart(t, h, &transport.HTTP{Header: hdr})
	httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{}))
	httpRead(t, conn)
	conn.(transport.VersionSetter).SetProtocolVersion("2025-11-25")

	httpWrite(t, conn, httpReq(t, 2, "tools/call", map[string]any{"name": "slow"}))
	if m := httpRead(t, conn); m.Method != "notifications/progress" {
		t.Fatalf("first = %s %q, want the progress notification", m.Kind(), m.Method)
	}
	var res struct{ OK bool }
	resp := httpRead(t, conn)
	if resp.ID != jsonrpc.IntID(2) {
		t.Fatalf("got id %s, want the response to 2", resp.ID)
	}
	httpResult(t, resp, &res)

	var resume *httpSeen
	for _, g := range log.SeenMethod(http.MethodGet) {
		if g.Header.Get("Last-Event-ID") != "" {
			resume = &g
		}
	}
	if resume == nil {
		t.Fatal("no resuming GET")
	}
	for k, want := range map[string]string{
		"Last-Event-ID": "e2", "Mcp-Session-Id": "s-r", "Mcp-Protocol-Version": "2025-11-25",
		"Accept": "text/event-stream", "X-Tenant": "blue",
	} {
		if got := resume.Header.Get(k); got != want {
			t.Errorf("resume GET %s = %q, want %q", k, got, want)
		}
	}
	if d := resume.At.Sub(<-closedAt); d < 50*time.Millisecond {
		t.Errorf("reconnected %v after the drop, before the 50 ms retry", d)
	}
	for _, p := range log.SeenMethod(http.MethodPost) {
		if p.Msg != nil && p.Msg.Method == "notifications/cancelled" {
			t.Error("the drop was treated as a cancel")
		}
	}
	var last transport.Frame
	for _, f := range log.Frames() {
		if f.Dir == transport.In {
			last = f
		}
	}
	if last.HTTP.Method != http.MethodGet || last.HTTP.EventID != "e3" || last.HTTP.Header.Get("Last-Event-ID") != "e2" {
		t.Errorf("response frame HTTP = %+v, want GET, event e3, resumed from e2", last.HTTP)
	}
}

// When a stream ends before the response and cannot be resumed, the call
// fails (Read ends the request with an error, and the log gets an error frame)
// rather than hanging.
func TestHTTPPOSTStreamLost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		priming  string // sent on the POST stream before it closes
		get      int    // status for GETs
		wantGETs int
		wantErr  string
	}{
		{name: "no event id", priming: "", get: http.StatusOK, wantGETs: 0, wantErr: "no event id"},
		{name: "GET not allowed", priming: "id: a\nretry: 1\n\n", get: http.StatusMethodNotAllowed, wantGETs: 1, wantErr: "405"},
		{name: "GET keeps failing", priming: "id: a\nretry: 1\n\n", get: http.StatusServiceUnavailable, wantGETs: 2, wantErr: "gave up after 2"},
		{name: "resumed stream stays empty", priming: "id: a\nretry: 1\n\n", get: http.StatusOK, wantGETs: 2, wantErr: "without progress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.Method == http.MethodPost:
					httpSSEStart(w)
					httpSSE(w, tt.priming)
				case tt.get == http.StatusOK:
					httpSSEStart(w) // and end at once, with nothing new
				default:
					http.Error(w, "nope", tt.get)
				}
			})
			conn, log, _ := httpStart(t, h, &transport.HTTP{MaxRetries: 2})
			httpWrite(t, conn, httpReq(t, 7, "tools/call", nil))
			in := httpReadInbound(t, conn, 10*time.Second)
			if in.Msg != nil || in.ID != jsonrpc.IntID(7) || in.Err == nil || !strings.Contains(in.Err.Error(), tt.wantErr) {
				t.Fatalf("got %+v, want request 7 ended with an error mentioning %q", in, tt.wantErr)
			}
			if n := len(log.SeenMethod(http.MethodGet)); n != tt.wantGETs {
				t.Errorf("%d GETs, want %d", n, tt.wantGETs)
			}
			errs := httpErrFrames(log.Frames())
			if len(errs) == 0 || !strings.Contains(errs[len(errs)-1].Err.Error(), tt.wantErr) {
				t.Errorf("error frames = %+v, want the last to mention %q", errs, tt.wantErr)
			}
			for _, f := range log.Frames() {
				if f.Dir == transport.In && f.Err == nil {
					t.Errorf("a message frame was logged for the local error: %s", f.Raw)
				}
			}
		})
	}
}

// A 16 MiB message must pass, in an SSE event and in a JSON body. (The
// bodies are built by hand: marshalling 16 MiB repeatedly is slow under
// -race and tests nothing of ours.)
func TestHTTPLargeMessage(t *testing.T) {
	t.Parallel()
	result := `{"blob":"` + strings.Repeat("x", 16<<20) + `"}`
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		body := `{"jsonrpc":"2.0","id":` + m.ID.String() + `,"result":` + result + `}`
		if m.Method == "sse" {
			httpSSEStart(w)
			httpSSE(w, "id: 1\ndata: "+body+"\n\n")
			return
		}
		httpJSON(w, body)
	})
	conn, log, _ := httpStart(t, h, nil)
	for i, method := range []string{"sse", "json"} {
		httpWrite(t, conn, httpReq(t, int64(i+1), method, nil))
		// A liveness bound only: 16 MiB through -race on a busy machine.
		m := httpReadWithin(t, conn, 2*time.Minute)
		if m.ID != jsonrpc.IntID(int64(i+1)) || string(m.Result) != result {
			t.Errorf("%s: got id %s with a %d-byte result, want the %d-byte one", method, m.ID, len(m.Result), len(result))
		}
	}
	if errs := httpErrFrames(log.Frames()); len(errs) != 0 {
		t.Errorf("error frames: %v", errs)
	}
}

// A malformed event is logged with Err and skipped; the stream goes on.
// Events of another type are not MCP messages and are skipped too.
func TestHTTPMalformedEvent(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		switch m.Method {
		case "json":
			httpJSON(w, `{"jsonrpc":"2.0","id":`)
		default:
			httpSSEStart(w)
			httpSSE(w, "id: 1\ndata: {not json\n\n")
			httpSSE(w, "id: 2\ndata: [1,2]\n\n")
			httpSSE(w, "event: other\ndata: "+httpEncode(t, httpNote(t, "hidden", nil))+"\n\n")
			httpSSE(w, "id: 3\ndata: "+httpEncode(t, httpResp(t, m.ID, map[string]any{}))+"\n\n")
		}
	})
	conn, log, _ := httpStart(t, h, nil)
	httpWrite(t, conn, httpReq(t, 1, "sse", nil))
	if m := httpRead(t, conn); m.ID != jsonrpc.IntID(1) || m.Kind() != jsonrpc.KindResponse {
		t.Fatalf("got %s %q, want the response (bad events skipped)", m.Kind(), m.Method)
	}
	errs := httpErrFrames(log.Frames())
	// The batch [1,2] is two bad messages.
	if len(errs) != 3 || string(errs[0].Raw) != "{not json" || errs[0].HTTP.EventID != "1" ||
		errs[1].HTTP.EventID != "2" || string(errs[2].Raw) != "2" || errs[2].HTTP.EventID != "2" {
		t.Fatalf("error frames = %+v, want the bad events' three", errs)
	}
	var de *jsonrpc.DecodeError
	if !errors.As(errs[0].Err, &de) {
		t.Errorf("frame Err = %T %v, want a *jsonrpc.DecodeError", errs[0].Err, errs[0].Err)
	}

	// A malformed JSON body is the request's response all the same: Read
	// ends the request at once, with the DecodeError.
	httpWrite(t, conn, httpReq(t, 2, "json", nil))
	in := httpReadInbound(t, conn, 10*time.Second)
	if in.Msg != nil || in.ID != jsonrpc.IntID(2) || !errors.As(in.Err, &de) {
		t.Errorf("got %+v, want request 2 ended with a DecodeError", in)
	}
	errs = httpErrFrames(log.Frames())
	if len(errs) != 4 || !bytes.Equal(errs[3].Raw, []byte(`{"jsonrpc":"2.0","id":`)) {
		t.Errorf("no error frame for the malformed body: %+v", errs)
	}
}

// Messages from several concurrent POST streams all reach Read, each
// stream's in order.
func TestHTTPConcurrentStreams(t *testing.T) {
	t.Parallel()
	const calls, notes = 8, 20
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		httpSSEStart(w)
		id, _ := m.ID.Int()
		for i := range notes {
			httpSSE(w, "data: "+httpEncode(t, httpNote(t, "n", map[string]int64{"call": id, "seq": int64(i)}))+"\n\n")
		}
		httpSSE(w, "data: "+httpEncode(t, httpResp(t, m.ID, map[string]any{}))+"\n\n")
	})
	conn, _, _ := httpStart(t, h, nil)
	errc := make(chan error, calls)
	for i := range calls {
		go func() { errc <- conn.Write(t.Context(), httpReq(t, int64(i), "x", nil), nil) }()
	}
	for range calls {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	next := map[int64]int64{}
	responses := 0
	for responses < calls {
		m := httpRead(t, conn)
		if m.Kind() == jsonrpc.KindResponse {
			responses++
			id, _ := m.ID.Int()
			if next[id] != notes {
				t.Errorf("response %d before its %d notifications (saw %d)", id, notes, next[id])
			}
			continue
		}
		var p struct{ Call, Seq int64 }
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.Seq != next[p.Call] {
			t.Fatalf("call %d: notification %d arrived when %d was due", p.Call, p.Seq, next[p.Call])
		}
		next[p.Call]++
	}
	if len(next) != calls {
		t.Errorf("notifications from %d calls, want %d", len(next), calls)
	}
}
