package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testenv"
)

// cdp is a small client of the Chrome DevTools Protocol over
// --remote-debugging-pipe: chromium reads commands on its fd 3 and writes
// answers and events on its fd 4, each a JSON object ended by a NUL byte.
// Flat sessions (sessionId on each message) reach frames in other
// targets.
type cdp struct {
	w      *os.File
	mu     sync.Mutex
	next   int
	wait   map[int]chan cdpMsg
	events chan cdpMsg
	done   chan struct{} // closed when chromium's pipe ends
}

type cdpMsg struct {
	ID        int                       `json:"id,omitempty"`
	Method    string                    `json:"method,omitempty"`
	Params    json.RawMessage           `json:"params,omitempty"`
	Result    json.RawMessage           `json:"result,omitempty"`
	Error     *struct{ Message string } `json:"error,omitempty"`
	SessionID string                    `json:"sessionId,omitempty"`
}

// startChromium runs headless chromium on a fresh profile, driven over
// the pipe; it ends with the test. Missing chromium skips (fails under
// CI=true).
func startChromium(t *testing.T) *cdp {
	t.Helper()
	bin := testenv.LookPath(t, "chromium")
	toChrome, ourEnd, err := os.Pipe() // chromium reads fd 3
	if err != nil {
		t.Fatal(err)
	}
	ourRead, fromChrome, err := os.Pipe() // chromium writes fd 4
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--headless", "--remote-debugging-pipe", "--disable-gpu", "--no-first-run",
		"--no-default-browser-check", "--user-data-dir=" + t.TempDir(), "about:blank"}
	if os.Geteuid() == 0 {
		args = append([]string{"--no-sandbox"}, args...) // chromium refuses root otherwise
	}
	cmd := exec.Command(bin, args...)
	cmd.ExtraFiles = []*os.File{toChrome, fromChrome}
	// Its own process group: its helpers (renderers, zygote) end with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	toChrome.Close()
	fromChrome.Close()
	c := &cdp{w: ourEnd, wait: map[int]chan cdpMsg{}, events: make(chan cdpMsg, 4096), done: make(chan struct{})}
	go c.read(ourRead)
	t.Cleanup(func() {
		// Browser.close ends chromium and its helpers, which would else
		// still write its profile while the test removes it; the group is
		// killed if it does not answer in time.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = c.call(ctx, "", "Browser.close", map[string]any{})
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case <-exited:
		case <-ctx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // any helper left
		_ = ourEnd.Close()
		<-c.done
		ourRead.Close()
	})
	return c
}

func (c *cdp) read(r *os.File) {
	defer close(c.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		b, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m cdpMsg
		if json.Unmarshal(b[:len(b)-1], &m) != nil {
			continue
		}
		if m.ID != 0 {
			c.mu.Lock()
			ch := c.wait[m.ID]
			delete(c.wait, m.ID)
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		select {
		case c.events <- m:
		default: // a test that reads no more events does not stall the reader
		}
	}
}

// call sends method to session ("" for the browser) and waits for its
// answer, bounded by ctx.
func (c *cdp) call(ctx context.Context, session, method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan cdpMsg, 1)
	c.wait[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return nil, err
	}
	if _, err := c.w.Write(append(b, 0)); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		return m.Result, nil
	case <-c.done:
		return nil, fmt.Errorf("%s: chromium ended", method)
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// eval evaluates expr (a promise is awaited) in a context of session and
// returns its value as JSON.
func (c *cdp) eval(ctx context.Context, session string, contextID int, expr string) (json.RawMessage, error) {
	res, err := c.call(ctx, session, "Runtime.evaluate", map[string]any{
		"expression": expr, "contextId": contextID, "awaitPromise": true, "returnByValue": true})
	if err != nil {
		return nil, err
	}
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return nil, err
	}
	if r.Exception != nil {
		return nil, fmt.Errorf("evaluate: %s", r.Exception.Text)
	}
	return r.Result.Value, nil
}
