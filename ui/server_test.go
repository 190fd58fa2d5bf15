package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
)

var (
	keyF12  = tea.KeyPressMsg{Code: tea.KeyF12}
	keyAltS = tea.KeyPressMsg{Code: 's', Mod: tea.ModAlt}
	keyPgDn = tea.KeyPressMsg{Code: tea.KeyPgDown}
)

// demoDetail is a full description of the fake's "demo" server, over
// Streamable HTTP, with server text that tries terminal tricks.
func demoDetail(now time.Time) ServerDetail {
	return ServerDetail{
		ServerStatus: ServerStatus{Name: "demo", State: client.StateReady, Protocol: "2025-11-25", Era: "2025-11-25 stateful"},
		Session: client.SessionDetails{
			Protocol: "2025-11-25", Era: "2025-11-25 stateful",
			ServerInfo: wire.Implementation{Name: "acme-mcp", Title: "Acme \x1b]0;pwned\x07Tools", Version: "3.2.1",
				Description: "Tickets and deploys.", WebsiteURL: "https://acme.example/mcp",
				Icons: json.RawMessage(`[{"src":"https://acme.example/icon.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"},` +
					`{"src":"data:image/svg+xml;base64,` + strings.Repeat("A", 5000) + `"}]`)},
			Instructions: "Use deploy for production.\nAsk before \x1b[31mdeleting\x1b[0m anything.",
			Caps: client.ServerCapabilities{Raw: json.RawMessage(`{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":false},` +
				`"logging":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}},` +
				`"extensions":{"io.modelcontextprotocol/tasks":{}},"experimental":{"acme/\u001b[2Jwipe":{"level":3}}}`)},
			ClientCaps: json.RawMessage(`{"elicitation":{"form":{},"url":{}},"tasks":{"cancel":{},"list":{}}}`),
			Conn:       client.ConnInfo{Kind: "Streamable HTTP", SessionID: "sess-42", GETStream: true},
			Ready:      now.Add(-time.Hour),
		},
		Transport: TransportDetail{Kind: "Streamable HTTP", URL: "https://acme.example/mcp?key=…", HeaderNames: []string{"Authorization"}},
		LastErr:   errors.New("demo: transport disconnected: the server cannot be reached"),
		LastErrAt: now.Add(-2 * time.Hour),
	}
}

func withDetails(ds ...ServerDetail) func(*fakeEngine) {
	return func(e *fakeEngine) {
		e.details = map[string]ServerDetail{}
		for _, d := range ds {
			e.details[d.Name] = d
		}
	}
}

// TestServerViewSaysWhoIsAsking: F12 shows who the server says it is,
// what both sides declared (every capability with its flags), how it is
// reached, its session, its last failure and its stderr; server text that
// tries terminal tricks is shown defused.
func TestServerViewSaysWhoIsAsking(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// Midday: an hour or two before is the same day, shown as a time
		// of day (the bubble's clock starts at midnight).
		now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
		d := newDriver(t, Options{Now: func() time.Time { return now }}, withDetails(demoDetail(now)))
		d.send(tea.WindowSizeMsg{Width: 160, Height: 60})
		d.m.streams.pushLog(LogEntry{Time: now, Server: "demo", Level: "stderr", Text: "listening on :8080"})
		d.keys(keyF12)
		if got := d.m.viewName(); got != "Server" {
			t.Fatalf("F12 shows %s", got)
		}
		s := d.screen()
		for _, want := range []string{
			"Server demo — Acme ␛]0;pwned␇Tools", "s next server · r reconnect",
			"status     ● ready · 2025-11-25 stateful · since " + now.Add(-time.Hour).Format(time.TimeOnly),
			"transport  Streamable HTTP https://acme.example/mcp?key=…",
			"session    stateful · Mcp-Session-Id sess-42 · GET stream",
			"headers    Authorization (values not shown)",
			"last error " + now.Add(-2*time.Hour).Format(time.TimeOnly) + " demo: transport disconnected: the server cannot be reached",
			"stderr     last 1 of 1 lines", "  listening on :8080",
			"name          acme-mcp", "version       3.2.1", "website       https://acme.example/mcp (not opened)",
			"description   Tickets and deploys.",
			"  icons", "    1. https://acme.example/icon.png  mimeType image/png  theme dark  sizes 48x48",
			"    2. data:image/svg+xml;base64,… (4.9 KiB)",
			"protocol      2025-11-25",
			"tools         listChanged", "resources     listChanged=false, subscribe", "logging",
			"tasks         cancel, list, requests.tools.call",
			"extensions    io.modelcontextprotocol/tasks",
			"experimental  acme/␛[2Jwipe.level=3",
			"elicit declared (initialize)", "elicitation   form, url", "tasks         cancel, list",
			"instructions", "Use deploy for production.", "Ask before ␛[31mdeleting␛[0m anything.",
		} {
			if !strings.Contains(s, want) {
				t.Errorf("the server view lacks %q:\n%s", want, s)
			}
		}
		raw := d.m.View().Content
		if strings.Contains(raw, "\x1b]0;pwned") || strings.Contains(raw, "\x1b[2J") {
			t.Error("server text reached the terminal raw")
		}
		assertInert(t, "server view", raw)
		// alt+s shows it too (some terminals keep F12).
		d.keys(keyF5, keyAltS)
		if got := d.m.viewName(); got != "Server" {
			t.Errorf("alt+s shows %s", got)
		}
	})
}

// TestServerViewCyclesAndReconnects: s shows the next server; r
// reconnects the one shown, says so at once, shows it reconnecting until
// the engine is done, then says how it went.
func TestServerViewCyclesAndReconnects(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan error)
		d := newDriver(t, Options{}, twoServers, func(e *fakeEngine) {
			e.reconnectFn = func(ctx context.Context, _ string) error {
				select {
				case err := <-release:
					return err
				case <-ctx.Done():
					return ctx.Err()
				}
			}
		})
		d.keys(keyF12)
		if !strings.Contains(d.screen(), "Server demo") {
			t.Fatalf("first server not shown:\n%s", d.screen())
		}
		d.keys(key1('s'))
		s := d.screen()
		if !strings.Contains(s, "Server two") || !strings.Contains(s, "No session yet") {
			t.Fatalf("s did not show the next server:\n%s", s)
		}
		d.keys(key1('r'))
		if s := d.screen(); !strings.Contains(s, "◌ reconnecting…") || !strings.Contains(s, "reconnecting two…") {
			t.Errorf("no progress while reconnecting:\n%s", s)
		}
		d.keys(key1('r')) // a second r while one runs starts nothing
		release <- errors.New("connection refused")
		d.awaitLate(func(msg tea.Msg) bool { _, ok := msg.(serverReconnectedMsg); return ok })
		if got := d.eng.reconnectCalls(); fmt.Sprint(got) != "[two]" {
			t.Errorf("Reconnect calls %v, want one for two", got)
		}
		if s := d.screen(); strings.Contains(s, "reconnecting…") || !strings.Contains(s, "reconnect two failed: connection refused") {
			t.Errorf("after a failed reconnect:\n%s", s)
		}
		d.keys(key1('s'))
		if !strings.Contains(d.screen(), "Server demo") {
			t.Errorf("s did not wrap around:\n%s", d.screen())
		}
	})
}

// TestServerViewFollowsTheServer: a state event for the shown server
// reloads its description: a server that died says when and why, and its
// last session's declarations stay on the page.
func TestServerViewFollowsTheServer(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		d := newDriver(t, Options{}, withDetails(demoDetail(now)))
		d.keys(keyF12)
		dead := demoDetail(now)
		dead.State, dead.Err = client.StateDisconnected, errors.New("demo: transport disconnected: the server cannot be reached (POST tools/call: could not connect)")
		dead.Session.Ended = now
		d.eng.mu.Lock()
		d.eng.details["demo"] = dead
		d.eng.mu.Unlock()
		d.send(eventMsg{e: client.ServerStateChanged{Server: "demo", State: client.StateDisconnected, Err: dead.Err}})
		s := d.screen()
		for _, want := range []string{
			"⚡ disconnected at " + now.Format(time.TimeOnly), "why        demo: transport disconnected: the server cannot be reached",
			"session    stateful · Mcp-Session-Id sess-42 (ended)", "The session ended at " + now.Format(time.TimeOnly), "title         Acme",
		} {
			if !strings.Contains(s, want) {
				t.Errorf("lacks %q:\n%s", want, s)
			}
		}
	})
}

// TestServerViewAt80x24: the view fits a small terminal exactly, keeps
// every F-key on the tab bar, and pages through long instructions.
func TestServerViewAt80x24(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		det := demoDetail(now)
		var lines []string
		for i := range 60 {
			lines = append(lines, fmt.Sprintf("instruction line %02d", i+1))
		}
		det.Session.Instructions = strings.Join(lines, "\n")
		d := newDriver(t, Options{}, withDetails(det))
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		d.keys(keyF12)
		check := func() string {
			t.Helper()
			content := d.m.View().Content
			rows := strings.Split(content, "\n")
			if len(rows) != 24 {
				t.Errorf("%d lines, want 24", len(rows))
			}
			for i, r := range rows {
				if w := ansi.StringWidth(r); w > 80 {
					t.Errorf("line %d is %d wide: %q", i, w, ansi.Strip(r))
				}
			}
			return ansi.Strip(content)
		}
		s := check()
		bar := strings.SplitN(s, "\n", 2)[0]
		for _, k := range []string{"F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12 Srv", "F1 help"} { // the same label as in every view
			if !strings.Contains(bar, k) {
				t.Errorf("the tab bar lacks %s: %q", k, bar)
			}
		}
		if !strings.Contains(s, "lines 1–") || strings.Contains(s, "instruction line 60") {
			t.Fatalf("the page should start at the top, with a scroll hint:\n%s", s)
		}
		for range 10 {
			d.keys(keyPgDn)
		}
		if s := check(); !strings.Contains(s, "instruction line 60") || !strings.Contains(s, "status     ● ready") {
			t.Errorf("pgdn did not reach the end of the page, with the top kept:\n%s", s)
		}
	})
}

// reconnectCalls returns the servers Reconnect was called for.
func (f *fakeEngine) reconnectCalls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.reconnects...)
}
