package transport_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// batchFrame is a JSON-RPC batch (MCP 2025-03-26 allowed them): a
// notification, a server request, and the answer to our request 1.
const batchFrame = `[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}},` +
	` {"jsonrpc":"2.0","id":"s1","method":"ping"},` +
	`{"jsonrpc":"2.0","id":1,"result":{"ok":true}}]`

// wantBatchServed reads the batch's three messages, in order: each element
// is a message of its own, and the answer ends request 1.
func wantBatchServed(t *testing.T, what string, c transport.Conn) {
	t.Helper()
	want := []func(*jsonrpc.Message) bool{
		func(m *jsonrpc.Message) bool { return m.Method == "notifications/message" },
		func(m *jsonrpc.Message) bool { return m.Method == "ping" && m.ID == jsonrpc.StringID("s1") },
		func(m *jsonrpc.Message) bool { return m.Kind() == jsonrpc.KindResponse && m.ID == jsonrpc.IntID(1) },
	}
	for i, ok := range want {
		in := httpReadInbound(t, c, 5*time.Second)
		if in.Msg == nil || !ok(in.Msg) {
			t.Fatalf("%s: message %d = %+v (err %v)", what, i, in.Msg, in.Err)
		}
	}
}

func TestStdioBatch(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c, err := (&transport.Stdio{
		Command:       "sh",
		Args:          []string{"-c", `read -r line; printf '%s\n' "$1"; cat >/dev/null`, "sh", batchFrame},
		ShutdownGrace: 100 * time.Millisecond,
		Observer:      rec,
	}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Write(t.Context(), mustRequest(t, 1, "initialize", map[string]any{}), nil); err != nil {
		t.Fatal(err)
	}
	wantBatchServed(t, "stdio", c)
	// The traffic view shows each message as a frame.
	var in int
	for _, f := range rec.Frames() {
		if f.Dir == transport.In {
			in++
			if f.Err != nil {
				t.Errorf("frame %q: %v", f.Raw, f.Err)
			}
		}
	}
	if in != 3 {
		t.Errorf("%d incoming frames, want 3", in)
	}
}

func TestHTTPBatch(t *testing.T) {
	t.Parallel()
	httpAnswerBothWays(t, batchFrame, wantBatchServed)
}

// httpAnswerBothWays has a Streamable HTTP server answer initialize with
// frame, once as an SSE event and once as a JSON body, and hands each
// connection to check with which way it was ("SSE data", "JSON body").
func httpAnswerBothWays(t *testing.T, frame string, check func(t *testing.T, what string, conn transport.Conn)) {
	t.Helper()
	for _, sse := range []bool{true, false} {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if sse {
				httpSSEStart(w)
				httpSSE(w, "data: "+frame+"\n\n")
				return
			}
			httpJSON(w, frame)
		})
		conn, _, _ := httpStart(t, h, nil)
		httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{}))
		what := "JSON body"
		if sse {
			what = "SSE data"
		}
		check(t, what, conn)
	}
}

func TestSSEBatch(t *testing.T) {
	t.Parallel()
	s := newLegacyServer("/messages")
	conn, _, _ := sseStart(t, s, "/sse")
	s.events <- "event: message\ndata: " + batchFrame + "\n\n"
	wantBatchServed(t, "legacy SSE", conn)
}

// A batch that breaks off still delivers the messages before the fault, and
// an answer cut short there still ends its call.
func TestStdioBatchCutShort(t *testing.T) {
	t.Parallel()
	frame := `[{"jsonrpc":"2.0","method":"notifications/message","params":{}},{"jsonrpc":"2.0","id":1,"result":{"a":[[`
	c, err := (&transport.Stdio{
		Command:       "sh",
		Args:          []string{"-c", `printf '%s\n' "$1"; cat >/dev/null`, "sh", frame},
		ShutdownGrace: 100 * time.Millisecond,
	}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if m := httpRead(t, c); m.Method != "notifications/message" {
		t.Fatalf("first = %+v, want the notification", m)
	}
	wantUndecodable(t, httpReadInbound(t, c, 5*time.Second), 1)
}
