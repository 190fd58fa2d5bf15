package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// callbackPath is the redirect URI's path on the loopback listener.
const callbackPath = "/callback"

// callback is the loopback listener that takes the authorization
// response (RFC 8252 §7.3): 127.0.0.1, one port, one answer.
type callback struct {
	ln   net.Listener
	srv  *http.Server
	got  chan callbackResult
	once sync.Once
	wg   sync.WaitGroup
}

// callbackResult is the authorization response's parameters.
type callbackResult struct {
	code, state, iss     string
	hasIss               bool
	err, errDesc, errURI string
}

// listenCallback binds 127.0.0.1:port (0: any free port).
func listenCallback(port int) (*callback, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("callback listener on 127.0.0.1:%d: %w", port, err)
	}
	c := &callback{ln: ln, got: make(chan callbackResult, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc(callbackPath, c.serve)
	c.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		_ = c.srv.Serve(ln)
	}()
	return c, nil
}

// redirectURI is the listener's redirect URI.
func (c *callback) redirectURI() string {
	return "http://" + c.ln.Addr().String() + callbackPath
}

// serve takes the first request to the callback path: whatever it says
// is the answer (state and iss are judged by the flow, which stops on a
// mismatch rather than waiting for a better one: a forged redirect means
// someone is racing the real one).
func (c *callback) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res := callbackResult{
		code: q.Get("code"), state: q.Get("state"),
		err: q.Get("error"), errDesc: q.Get("error_description"), errURI: q.Get("error_uri"),
	}
	res.iss, res.hasIss = q.Get("iss"), q.Has("iss")
	first := false
	c.once.Do(func() {
		first = true
		c.got <- res
	})
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	msg := "elicit got the answer; you can close this tab."
	if !first {
		msg = "elicit already got an answer; you can close this tab."
	} else if res.err != "" {
		msg = "The authorization server said: " + res.err + ". You can close this tab."
	}
	fmt.Fprintf(w, "<!doctype html><title>elicit</title><p>%s</p>\n", html.EscapeString(msg))
}

// close stops the listener and waits for it.
func (c *callback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = c.srv.Close()
	}
	c.wg.Wait()
}
