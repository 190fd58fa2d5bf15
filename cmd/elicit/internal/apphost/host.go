package apphost

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/client/wire"
)

// Config is what a host needs: the tool whose app it opens, the server's
// tools (who the app may call), and the session's calls.
type Config struct {
	Tool  wire.Tool
	Tools []wire.Tool
	Args  map[string]any
	// Call is tools/call on the session; its result as sent.
	Call func(ctx context.Context, name string, args map[string]any) (json.RawMessage, error)
	// Read is resources/read on the session.
	Read func(ctx context.Context, uri string) ([]wire.ResourceContents, error)
	// OnFrame hears every message between the app and the host, as
	// relayed (in: app → host); the caller records it (redacted).
	OnFrame func(in bool, raw []byte)
	// OnNotice tells the person what the app asked that only they may
	// do (open a link) or said (its log lines): server text, untrusted.
	OnNotice func(string)
	// Version is elicit's, sent as hostInfo.
	Version string
}

// Host is one app's host page, listening on 127.0.0.1 until Serve ends.
type Host struct {
	cfg   Config
	ln    net.Listener
	token string
	uri   string // the app's ui:// resource
	html  string
	csp   CSP
}

// tokenBytes makes a token of 32 URL-safe characters.
const tokenBytes = 24

// New reads the tool's app (its ui:// resource) and listens on a random
// port of 127.0.0.1. The tool must name an app.
func New(ctx context.Context, cfg Config) (*Host, error) {
	app, ok := cfg.Tool.App()
	if !ok || app.ResourceURI == "" {
		return nil, fmt.Errorf("tool %q names no app (_meta.ui.resourceUri)", cfg.Tool.Name)
	}
	if !strings.HasPrefix(app.ResourceURI, "ui://") {
		return nil, fmt.Errorf("tool %q: its app %q is not a ui:// resource", cfg.Tool.Name, app.ResourceURI)
	}
	contents, err := cfg.Read(ctx, app.ResourceURI)
	if err != nil {
		return nil, fmt.Errorf("read the app %s: %w", app.ResourceURI, err)
	}
	h := &Host{cfg: cfg, uri: app.ResourceURI}
	found := false
	for _, c := range contents {
		if c.Text != "" && (c.MimeType == wire.AppMimeType || !found) {
			h.html, h.csp, found = c.Text, cspOf(c.Meta), true
		}
	}
	if !found {
		return nil, fmt.Errorf("the app %s has no HTML text", app.ResourceURI)
	}
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	h.token = base64.RawURLEncoding.EncodeToString(b)
	h.ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on 127.0.0.1: %w", err)
	}
	return h, nil
}

// URL is the host page's address, token included.
func (h *Host) URL() string { return "http://" + h.ln.Addr().String() + "/" + h.token + "/" }

// Serve serves the page until ctx ends, then shuts down (in-flight
// requests get a bounded grace).
func (h *Host) Serve(ctx context.Context) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(h.ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("app host: %w", err)
	case <-ctx.Done():
	}
	// A bounded grace for requests in flight; then the rest is cut (a
	// browser's idle preconnection would else hold Shutdown 5 seconds).
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("app host: %w", err)
	}
	return nil
}

// maxBody bounds what the page may post (one relayed message).
const maxBody = 8 << 20

// ServeHTTP refuses whatever lacks the token (403, a fixed body), and a
// Host other than the listener's (DNS rebinding); then the page, the
// app's document, its boot facts and the relay.
func (h *Host) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := h.authorized(r)
	if !ok {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	switch {
	case rest == "" && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", pageCSP)
		_, _ = io.WriteString(w, hostPage)
	case rest == "host.js" && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = io.WriteString(w, hostScript)
	case rest == "app" && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", h.csp.Header())
		_, _ = io.WriteString(w, h.html)
	case rest == "rpc" && r.Method == http.MethodPost:
		h.relay(w, r)
	default:
		http.Error(w, "not found", http.StatusNotFound)
	}
}

// authorized checks the Host and the token (in constant time), and
// returns the path after it.
func (h *Host) authorized(r *http.Request) (string, bool) {
	if r.Host != h.ln.Addr().String() {
		return "", false
	}
	p := strings.TrimPrefix(r.URL.Path, "/")
	tok, rest, _ := strings.Cut(p, "/")
	if subtle.ConstantTimeCompare([]byte(tok), []byte(h.token)) != 1 {
		return "", false
	}
	if rest == "" && !strings.HasSuffix(r.URL.Path, "/") {
		return "", false // the page's relative paths need the slash
	}
	return rest, true
}

// relay answers one message the page relays: from the app (a request or
// notification the host answers or forwards), or the host's own
// (recorded; the opener's tools/call is run).
func (h *Host) relay(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	var in struct {
		From    string          `json:"from"`
		Message json.RawMessage `json:"message"`
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody || json.Unmarshal(body, &in) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	out := h.handle(r.Context(), in.From, in.Message)
	w.Header().Set("Content-Type", "application/json")
	if out == nil {
		_, _ = io.WriteString(w, "{}")
		return
	}
	_ = json.NewEncoder(w).Encode(out)
}
