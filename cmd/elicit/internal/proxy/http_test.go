package proxy

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// TestHTTPHeadersToUpstreamOnly: the host's headers (Authorization,
// Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID) reach the upstream
// as the host sent them, its SSE events reach the host with their ids
// (the cursor the host resumes from), and a redirect to another origin is
// not followed: the host's Authorization goes nowhere else.
func TestHTTPHeadersToUpstreamOnly(t *testing.T) {
	var otherHit sync.Mutex
	other := 0
	elsewhere := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		otherHit.Lock()
		other++
		otherHit.Unlock()
	}))
	defer elsewhere.Close()
	var mu sync.Mutex
	var seen []http.Header
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		switch r.Method {
		case http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "id: ev-7\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n")
		default:
			http.Redirect(w, r, elsewhere.URL+"/mcp", http.StatusTemporaryRedirect)
		}
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL + "/mcp")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hp := NewHTTP(ctx, HTTPConfig{Upstream: u})
	host := httptest.NewServer(hp)
	defer host.Close()
	defer hp.Wait()

	get, _ := http.NewRequest(http.MethodGet, host.URL+"/mcp", nil)
	get.Header.Set("Authorization", "Bearer s3cret")
	get.Header.Set("Mcp-Session-Id", "sess-1")
	get.Header.Set("MCP-Protocol-Version", "2025-11-25")
	get.Header.Set("Last-Event-ID", "ev-6")
	resp, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	resp.Body.Close()
	if len(lines) < 2 || lines[0] != "id: ev-7" || !strings.Contains(lines[1], "list_changed") {
		t.Errorf("host got %q: want the upstream's event with its id", lines)
	}
	post, _ := http.NewRequest(http.MethodPost, host.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	post.Header.Set("Authorization", "Bearer s3cret")
	post.Header.Set("Content-Type", "application/json")
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = noFollow.Do(post) // the host's own client does not follow either, so what elicit does shows
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect {
		t.Errorf("POST answered %d: want the upstream's redirect passed back, not followed", resp.StatusCode)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 {
		t.Fatalf("upstream saw %d requests", len(seen))
	}
	for k, want := range map[string]string{"Authorization": "Bearer s3cret", "Mcp-Session-Id": "sess-1", "Mcp-Protocol-Version": "2025-11-25", "Last-Event-Id": "ev-6"} {
		if got := seen[0].Get(k); got != want {
			t.Errorf("upstream got %s %q: want %q", k, got, want)
		}
	}
	otherHit.Lock()
	defer otherHit.Unlock()
	if other != 0 {
		t.Errorf("another origin was sent %d requests", other)
	}
}

// TestHTTPOriginRefused: a browser page of another origin cannot use the
// host's endpoint (the spec's Origin check; it binds to a local address).
func TestHTTPOriginRefused(t *testing.T) {
	u, _ := url.Parse("http://127.0.0.1:1/mcp")
	hp := NewHTTP(context.Background(), HTTPConfig{Upstream: u})
	host := httptest.NewServer(hp)
	defer host.Close()
	req, _ := http.NewRequest(http.MethodPost, host.URL+"/mcp", strings.NewReader(`{}`))
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("status %d: want 403", resp.StatusCode)
	}
}
