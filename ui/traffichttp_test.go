package ui

import (
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/elicit-dev/elicit/client"
)

const mcpURL = "http://127.0.0.1:8080/mcp"

// httpTraffic records one Streamable HTTP exchange (a POST answered with
// an SSE stream), an event of the GET stream, a 2026-07-28 cancel (an
// outgoing frame without a message) and a failed POST. The response's
// session id is hostile: header values come from the server.
func httpTraffic(br *Bridge) http.Header {
	sent := http.Header{
		"Accept":               {"application/json, text/event-stream"},
		"Content-Type":         {"application/json"},
		"Mcp-Method":           {"tools/call"},
		"Mcp-Name":             {"echo"},
		"Mcp-Param-Region":     {"eu"},
		"Mcp-Protocol-Version": {"2026-07-28"},
		"Authorization":        {"Bearer [redacted]"},
	}
	received := http.Header{"Content-Type": {"text/event-stream"}, "Mcp-Session-Id": {hostile}}
	frames := []client.Frame{
		{Dir: client.Out, Raw: []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}`),
			HTTP: &client.HTTPInfo{Method: "POST", URL: mcpURL, Header: sent}},
		{Dir: client.In, Raw: []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`),
			HTTP: &client.HTTPInfo{Method: "POST", URL: mcpURL, Status: 200, Header: received, EventID: "12"}},
		{Dir: client.In, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`),
			HTTP: &client.HTTPInfo{Method: "GET", URL: mcpURL, Status: 200, Header: received, EventID: "3"}},
		{Dir: client.Out, Err: errors.New("transport: request 8 cancelled: closed its response stream (the 2026-07-28 cancel)"),
			HTTP: &client.HTTPInfo{Method: "POST", URL: mcpURL}},
		{Dir: client.In, Err: errors.New("transport: POST tools/call: 500 Internal Server Error"),
			HTTP: &client.HTTPInfo{Method: "POST", URL: mcpURL, Status: 500}},
	}
	for i, f := range frames {
		f.Time = t0.Add(time.Duration(i) * time.Millisecond)
		br.Frame("demo", f)
	}
	return received
}

func httpDriver(t *testing.T) (*driver, string, http.Header) {
	t.Helper()
	dir := t.TempDir()
	d := newDriver(t, Options{ExportDir: dir, Now: func() time.Time { return t0 }})
	received := httpTraffic(d.m.bridge)
	d.waitInbox()
	d.keys(keyF6)
	return d, dir, received
}

func TestTrafficHTTPRows(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d, _, received := httpDriver(t)
		// The Bridge keeps its own copy: the transport may reuse its maps.
		received.Set("Content-Type", "application/json")

		rows := strings.Split(d.screen(), "\n")
		want := []string{
			"→ demo tools/call #7  POST",
			"← demo response #7  POST 200 SSE ev 12",
			"← demo notifications/message  GET 200 SSE ev 3",
			"→ demo ⊘ cancel  POST  transport: request 8 cancelled",
			"← demo transport  POST 500  transport: POST tools/call: 500",
		}
		for i, w := range want {
			row := rows[tabsRow+3+i] // tabs, strip, the traffic header
			if !strings.Contains(row, w) {
				t.Errorf("row %d = %q, want it to contain %q", i, row, w)
			}
		}
		st := d.m.st
		if st.Error.Render("POST 500") == st.Muted.Render("POST 500") {
			t.Fatal("error and muted styles are the same; the check below would prove nothing")
		}
		d.keys(keyUp) // the selected row is drawn plain
		if !strings.Contains(d.m.View().Content, st.Error.Render("POST 500")) {
			t.Error("a 500 is not in the error style")
		}
	})
}

func TestTrafficHTTPDetail(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d, _, _ := httpDriver(t)
		d.keys(keyUp, keyUp, keyUp, keyEnter) // the response of request 7
		mustShow(t, d,
			"server demo speaks 2025-11-25 stateful",
			"HTTP POST "+mcpURL+"  status 200  event id 12  (SSE stream)",
			// What we sent, from the request's frame, sorted.
			"→ sent",
			"Accept: application/json, text/event-stream",
			"Authorization: Bearer [redacted]",
			"Mcp-Method: tools/call",
			"Mcp-Name: echo",
			"Mcp-Param-Region: eu",
			"Mcp-Protocol-Version: 2026-07-28",
			// What the server sent, sanitized.
			"← received",
			"Content-Type: text/event-stream",
			"Mcp-Session-Id: pay",
			`"result": {`,
		)
		s := d.screen()
		if strings.Index(s, "Accept:") > strings.Index(s, "Mcp-Method:") {
			t.Error("headers are not sorted")
		}
		assertNoHostile(t, d.m.View().Content)

		// The request's detail finds the status in its reply.
		d.keys(keyEsc, keyUp, keyEnter)
		mustShow(t, d, "HTTP POST "+mcpURL+"  status 200", "→ sent", "Mcp-Name: echo", "← received", "Mcp-Session-Id: pay")

		// The cancel has no message: it says what happened and what carried it.
		d.keys(keyEsc, keyDown, keyDown, keyDown, keyEnter)
		mustShow(t, d, "cancelled: transport: request 8 cancelled", "HTTP POST "+mcpURL, "(not in the traffic log)")
		if strings.Contains(d.screen(), "undecodable") {
			t.Error("a cancel is shown as an undecodable frame")
		}
	})
}

func TestTrafficHTTPExport(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d, dir, _ := httpDriver(t)
		d.keys(key1('e'))
		lines := readExport(t, filepath.Join(dir, "elicit-traffic-20260102-150405.jsonl"))
		if len(lines) != 5 {
			t.Fatalf("%d lines, want 5", len(lines))
		}
		req, resp, cancel := lines[0].HTTP, lines[1].HTTP, lines[3]
		if req == nil || req.Method != "POST" || req.URL != mcpURL || req.Status != 0 ||
			req.Header["Mcp-Method"][0] != "tools/call" || req.Header["Authorization"][0] != "Bearer [redacted]" {
			t.Errorf("request's http = %+v", req)
		}
		if resp == nil || resp.Status != 200 || resp.EventID != "12" || resp.Header["Mcp-Session-Id"][0] != hostile {
			t.Errorf("response's http = %+v", resp)
		}
		if cancel.Frame != nil || cancel.Raw != "" || !strings.Contains(cancel.Err, "cancelled") || cancel.HTTP == nil {
			t.Errorf("cancel exported as %+v", cancel)
		}
	})
}
