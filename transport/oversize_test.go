package transport_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// oversizeLimit is the message limit the servers below exceed.
const oversizeLimit = 1024

// oversizeAnswer is an answer to request id too large to take, with its id
// first, as servers write it.
func oversizeAnswer(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"result":{"text":"` + strings.Repeat("x", 4*oversizeLimit) + `"}}`
}

// oversizeNote is a notification too large to take.
func oversizeNote() string {
	return `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("y", 4*oversizeLimit) + `"}}`
}

// wantTooLarge checks in ends request id with a DecodeError that says the
// answer was too large: the server did answer, so the call ends at once.
func wantTooLarge(t *testing.T, in transport.Inbound, id int64) {
	t.Helper()
	var de *jsonrpc.DecodeError
	if in.Msg != nil || in.ID != jsonrpc.IntID(id) || !errors.As(in.Err, &de) || de.ID != in.ID ||
		!strings.Contains(in.Err.Error(), "exceeds the limit") {
		t.Fatalf("got %+v, want request %d ended as too large", in, id)
	}
}

// On stdio, an answer over the line limit ends its call; the lines after
// it are read as usual.
func TestStdioOversizeAnswer(t *testing.T) {
	t.Parallel()
	c, err := (&transport.Stdio{
		Command:       "sh",
		Args:          []string{"-c", `printf '%s\n' "$1" "$2"; cat >/dev/null`, "sh", oversizeAnswer("1"), `{"jsonrpc":"2.0","method":"after"}`},
		LineLimit:     oversizeLimit,
		ShutdownGrace: 100 * time.Millisecond,
	}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	wantTooLarge(t, httpReadInbound(t, c, 5*time.Second), 1)
	if m := httpRead(t, c); m.Method != "after" {
		t.Fatalf("next = %+v, want the line after", m)
	}
}

// On a Streamable HTTP stream, an event over the limit is skipped (the
// stream goes on), and an answer over it ends its call.
func TestHTTPOversizeEvent(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, _ := jsonrpc.Decode(httpReqBody(r))
		if m == nil {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		httpSSEStart(w)
		if m.ID == jsonrpc.IntID(1) {
			httpSSE(w, "data: "+oversizeNote()+"\n\n")
			httpSSE(w, "data: "+httpEncode(t, httpResp(t, m.ID, map[string]any{}))+"\n\n")
			return
		}
		httpSSE(w, "data: "+oversizeAnswer(m.ID.String())+"\n\n")
		<-r.Context().Done()
	})
	conn, log, _ := httpStart(t, h, &transport.HTTP{MessageLimit: oversizeLimit})
	httpWrite(t, conn, httpReq(t, 1, "tools/call", nil))
	if in := httpReadInbound(t, conn, 5*time.Second); in.Msg == nil || in.Msg.ID != jsonrpc.IntID(1) {
		t.Fatalf("got %+v (err %v), want the answer after the oversized event", in.Msg, in.Err)
	}
	httpWrite(t, conn, httpReq(t, 2, "tools/call", nil))
	wantTooLarge(t, httpReadInbound(t, conn, 5*time.Second), 2)
	var shown bool
	for _, f := range httpErrFrames(log.Frames()) {
		shown = shown || strings.Contains(f.Err.Error(), "exceed the limit") && len(f.Raw) <= 4096
	}
	if !shown {
		t.Error("no error frame with the start of the oversized event")
	}
}

// On the legacy transport, an event over the limit no longer loses the
// connection: it is skipped, and an answer over it ends its call.
func TestSSEOversizeEvent(t *testing.T) {
	t.Parallel()
	s := newLegacyServer("/messages")
	log := newHTTPLog()
	conn, err := sseDialLimit(t, s, log, oversizeLimit)
	if err != nil {
		t.Fatal(err)
	}
	s.events <- "data: " + oversizeNote() + "\n\n"
	s.events <- "data: " + oversizeAnswer("5") + "\n\n"
	s.events <- "data: " + httpEncode(t, httpNote(t, "after", nil)) + "\n\n"
	wantTooLarge(t, httpReadInbound(t, conn, 5*time.Second), 5)
	if m := httpRead(t, conn); m.Method != "after" {
		t.Fatalf("next = %+v, want the event after", m)
	}
}

// sseDialLimit serves h and dials a legacy SSE Conn to its /sse with the
// given message limit; both are closed by t.Cleanup.
func sseDialLimit(t *testing.T, h http.Handler, log *httpLog, limit int) (transport.Conn, error) {
	t.Helper()
	srv := httptest.NewServer(log.wrap(h))
	t.Cleanup(srv.Close)
	conn, err := (&transport.SSE{URL: srv.URL + "/sse", Observer: log, MessageLimit: limit}).Dial(t.Context())
	if err == nil {
		t.Cleanup(func() { _ = conn.Close() })
	}
	return conn, err
}
