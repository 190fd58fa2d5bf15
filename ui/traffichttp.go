package ui

import (
	"mime"
	"slices"
	"strconv"
	"strings"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// This file is the HTTP side of the traffic view: what carried each frame
// (method, status, SSE event id, the MCP headers) in the row, the detail
// and the export. Header names and values come from the server too, so
// they reach the screen only sanitized.

// copyHTTP copies a frame's HTTP info, header included: the Bridge keeps
// frames after the transport has moved on.
func copyHTTP(h *client.HTTPInfo) *client.HTTPInfo {
	if h == nil {
		return nil
	}
	c := *h
	c.Header = h.Header.Clone()
	return &c
}

// isSSE reports whether the exchange's response is an event stream.
func isSSE(h *client.HTTPInfo) bool {
	mt, _, err := mime.ParseMediaType(h.Header.Get("Content-Type"))
	return err == nil && mt == "text/event-stream"
}

// httpBadge is the row's compact account of the exchange: "POST",
// "POST 202", "POST 200 SSE ev 12", "GET 200 SSE ev 3".
func httpBadge(st *themes.Styles, h *client.HTTPInfo) string {
	parts := []string{untrusted.Line(h.Method)}
	if h.Status != 0 {
		parts = append(parts, strconv.Itoa(h.Status))
	}
	if isSSE(h) {
		parts = append(parts, "SSE")
	}
	if h.EventID != "" {
		parts = append(parts, "ev "+untrusted.Line(h.EventID))
	}
	s := strings.Join(parts, " ")
	if h.Status >= 400 {
		return st.Error.Render(s)
	}
	return st.Muted.Render(s)
}

// httpDetail describes the exchange of r for the detail view: the URL,
// the status, the event id, and every header sent and received. peer is
// the other half of the exchange (the request of a response, or the
// reply to a request), whose headers went the other way; nil if unknown.
func httpDetail(st *themes.Styles, r, peer *TrafficEntry) string {
	if r.HTTP == nil {
		return ""
	}
	san := untrusted.Line
	// sent and received are the HTTP sides of the exchange: the request
	// carried our headers, the response the server's.
	var sent, received *client.HTTPInfo
	for _, e := range []*TrafficEntry{r, peer} {
		switch {
		case e == nil || e.HTTP == nil:
		case e.In && received == nil:
			received = e.HTTP
		case !e.In && sent == nil:
			sent = e.HTTP
		}
	}
	var b strings.Builder
	b.WriteString(st.Title.Render("HTTP ") + st.Text.Render(san(r.HTTP.Method)) + " " +
		st.Pane.URL.Render(san(r.HTTP.URL)))
	if received != nil && received.Status != 0 {
		status := st.Success
		if received.Status >= 400 {
			status = st.Error
		}
		b.WriteString("  status " + status.Render(strconv.Itoa(received.Status)))
	}
	if r.HTTP.EventID != "" {
		b.WriteString("  event id " + st.Text.Render(san(r.HTTP.EventID)))
	}
	if received != nil && isSSE(received) {
		b.WriteString(st.Muted.Render("  (SSE stream)"))
	}
	b.WriteByte('\n')
	b.WriteString(headerBlock(st, "→ sent", sent))
	b.WriteString(headerBlock(st, "← received", received))
	return b.String()
}

// headerBlock lists h's headers, sorted, one value per line; a side we
// did not see says so.
func headerBlock(st *themes.Styles, label string, h *client.HTTPInfo) string {
	head := "  " + st.Title.Render(label) + "\n"
	if h == nil {
		return head + st.Muted.Render("    (not in the traffic log)") + "\n"
	}
	if len(h.Header) == 0 {
		return head + st.Muted.Render("    (no MCP headers)") + "\n"
	}
	names := make([]string, 0, len(h.Header))
	for k := range h.Header {
		names = append(names, k)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString(head)
	for _, k := range names {
		for _, v := range h.Header[k] {
			b.WriteString("    " + st.Traffic.Method.Render(untrusted.Line(k)+":") + " " +
				st.Text.Render(untrusted.Line(v)) + "\n")
		}
	}
	return b.String()
}

// exportHTTP is a frame's HTTP info in an export line. Header holds the
// headers the transport logged (Authorization already redacted).
type exportHTTP struct {
	Method  string              `json:"method"`
	URL     string              `json:"url"`
	Status  int                 `json:"status,omitempty"`
	Header  map[string][]string `json:"header,omitempty"`
	EventID string              `json:"eventId,omitempty"`
}

func toExportHTTP(h *client.HTTPInfo) *exportHTTP {
	if h == nil {
		return nil
	}
	return &exportHTTP{Method: h.Method, URL: h.URL, Status: h.Status, Header: h.Header, EventID: h.EventID}
}

// serverEra is how a server speaks, for the traffic view: its era
// ("2026-07-28 stateless") and protocol version, "" when not known yet.
func serverEra(c *viewCtx, name string) string {
	for _, s := range c.servers {
		if s.Name != name {
			continue
		}
		switch {
		case s.Era != "" && s.Protocol != "" && !strings.Contains(s.Era, s.Protocol):
			return untrusted.Line(s.Era) + ", protocol " + untrusted.Line(s.Protocol)
		case s.Era != "":
			return untrusted.Line(s.Era)
		case s.Protocol != "":
			return "protocol " + untrusted.Line(s.Protocol)
		}
	}
	return ""
}
