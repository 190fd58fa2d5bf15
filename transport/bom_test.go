package transport_test

import (
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// bom is the UTF-8 byte order mark some tools (PowerShell, .NET writers)
// put before what they print.
const bom = "\xEF\xBB\xBF"

// bomAnswer is the answer to request 1 that each server below sends after
// a BOM.
const bomAnswer = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`

// wantBOMAnswer reads the answer to request 1: a frame skipped for its BOM
// would leave the call waiting for ever, so the wait here is bounded.
func wantBOMAnswer(t *testing.T, what string, c transport.Conn) {
	t.Helper()
	in := httpReadInbound(t, c, 5*time.Second)
	if in.Msg == nil || in.Msg.ID != jsonrpc.IntID(1) || in.Msg.Error != nil {
		t.Fatalf("%s: got %+v (err %v), want the answer to request 1", what, in.Msg, in.Err)
	}
}

// A BOM before the initialize answer on a stdio server's stdout.
func TestStdioLeadingBOM(t *testing.T) {
	t.Parallel()
	c, err := (&transport.Stdio{
		Command:       "sh",
		Args:          []string{"-c", `read -r line; printf '\357\273\277%s\n' "$1"; printf '\357\273\277%s\n' "$2"; cat >/dev/null`, "sh", bomAnswer, `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`},
		ShutdownGrace: 100 * time.Millisecond,
	}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Write(t.Context(), mustRequest(t, 1, "initialize", map[string]any{}), nil); err != nil {
		t.Fatal(err)
	}
	wantBOMAnswer(t, "stdio", c)
	if m := httpRead(t, c); m.Method != "notifications/message" {
		t.Fatalf("second line = %+v, want the notification (a BOM on any line)", m)
	}
}

// A BOM at the start of an SSE data line, and of a JSON reply body, on
// Streamable HTTP.
func TestHTTPLeadingBOM(t *testing.T) {
	t.Parallel()
	httpAnswerBothWays(t, bom+bomAnswer, wantBOMAnswer)
}

// A BOM at the start of a legacy SSE message event's data.
func TestSSELeadingBOM(t *testing.T) {
	t.Parallel()
	s := newLegacyServer("/messages")
	conn, _, _ := sseStart(t, s, "/sse")
	s.events <- "event: message\ndata: " + bom + bomAnswer + "\n\n"
	wantBOMAnswer(t, "legacy SSE", conn)
}
