package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
)

// proxyOnSession runs a go-sdk host (declaring no elicitation) on elicit
// proxy --session NAME in front of the demo server, with h's hub.
func proxyOnSession(t *testing.T, h *hubEnv, name string, flags ...string) (*mcp.ClientSession, *exec.Cmd, *lockedBuffer) {
	t.Helper()
	args := append([]string{"proxy", "--session", name}, flags...)
	args = append(args, "--", binPath, "demo", "--serve", "stdio")
	cmd := exec.Command(binPath, args...)
	cmd.Env = h.env
	var stderr lockedBuffer // read while the proxy still writes it
	cmd.Stderr = &stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "go-host", Version: "7.1"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect through the proxy: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() {
		_ = cs.Close()
		if t.Failed() {
			t.Logf("proxy stderr:\n%s", stderr.String())
		}
	})
	return cs, cmd, &stderr
}

type callEnd struct {
	res *mcp.CallToolResult
	err error
}

// callTicket calls create_ticket, which asks the priority.
func callTicket(ctx context.Context, cs *mcp.ClientSession) <-chan callEnd {
	done := make(chan callEnd, 1)
	go func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_ticket", Arguments: map[string]any{"title": "t"}})
		done <- callEnd{res, err}
	}()
	return done
}

func sessions(t *testing.T, h *hubEnv) []hub.SessionInfo {
	t.Helper()
	code, out, errs := h.run("session", "list")
	var list []hub.SessionInfo
	if code != 0 || json.Unmarshal(out, &list) != nil {
		t.Fatalf("session list: exit %d\n%s\n%s", code, out, errs)
	}
	return list
}

// TestProxySessionAnswered: a host's tool call through elicit proxy
// --session raises the question elicit fills in; it waits in the hub
// (session list marks the session a proxy, with the host's name;
// elicit questions lists it), an answer failing the schema is refused
// (exit 2), a valid one goes to the server, and the host gets the
// result built from it. A second answer is told it was answered (5).
func TestProxySessionAnswered(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	cs, _, _ := proxyOnSession(t, h, "p1")
	done := callTicket(t.Context(), cs)
	qs := h.questions("p1", func(qs []hub.QuestionInfo) bool { return len(qs) == 1 })
	list := sessions(t, h)
	if len(list) != 1 || !list[0].Proxy || list[0].Host != "go-host" || list[0].Protocol != "proxy" || list[0].Questions != 1 {
		t.Errorf("session list: %+v", list)
	}
	key := qs[0].Key
	if qs[0].Origin != "host" || qs[0].Message != "Priority for ticket 't'?" {
		t.Errorf("the question listed: %+v", qs[0])
	}
	if code, out, errs := h.run("call", "echo", "--session", "p1", "--args", `{"text":"x"}`); code != 2 || !strings.Contains(string(errs)+string(out), "proxied") {
		t.Errorf("a call on a proxied session: exit %d, want 2 (its host runs the calls)\n%s\n%s", code, out, errs)
	}
	if code, out, errs := h.run("answer", key, "--session", "p1", "--accept", `{"priority":"P9"}`); code != 2 {
		t.Errorf("an answer out of the enum: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs := h.run("answer", key, "--session", "p1", "--accept", `{"priority":"P1"}`)
	var ar hub.AnswerResult
	if code != 0 || json.Unmarshal(out, &ar) != nil || ar.Sent != "accept" || ar.Content["priority"] != "P1" {
		t.Fatalf("answer: exit %d\n%s\n%s", code, out, errs)
	}
	end := <-done
	if end.err != nil || !strings.Contains(hostResultText(end.res), "priority P1") {
		t.Fatalf("the host got %v %v: want the result built from the answer (P1)", end.res, end.err)
	}
	if code, _, _ := h.run("answer", key, "--session", "p1", "--decline"); code != 5 {
		t.Errorf("a second answer: exit %d, want 5", code)
	}
}

// TestProxySessionPolicy: an --answer given to the proxy still answers at
// once: nothing waits in the hub.
func TestProxySessionPolicy(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	cs, _, _ := proxyOnSession(t, h, "p1", "--answer", "accept-defaults")
	end := <-callTicket(t.Context(), cs)
	if end.err != nil || !strings.Contains(hostResultText(end.res), "priority P3") {
		t.Fatalf("the host got %v %v: want the default P3 by the policy", end.res, end.err)
	}
}

// TestProxySessionEndings: the host cancelling its call withdraws the
// question (an answer is told so, exit 5); the proxy killed, its
// session and its questions leave the hub (questions: no session, 3).
func TestProxySessionEndings(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	cs, cmd, _ := proxyOnSession(t, h, "p1")
	ctx, cancel := context.WithCancel(t.Context())
	done := callTicket(ctx, cs)
	qs := h.questions("p1", func(qs []hub.QuestionInfo) bool { return len(qs) == 1 })
	cancel()
	<-done
	h.questions("p1", func(qs []hub.QuestionInfo) bool { return len(qs) == 0 })
	code, out, errs := h.run("answer", qs[0].Key, "--session", "p1", "--decline")
	if code != 5 || !strings.Contains(string(errs)+string(out), "withdrawn") {
		t.Errorf("an answer to the withdrawn question: exit %d\n%s\n%s", code, out, errs)
	}

	callTicket(t.Context(), cs)
	h.questions("p1", func(qs []hub.QuestionInfo) bool { return len(qs) == 1 })
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The session list is the state: polled, bounded, no sleep.
	for deadline := time.Now().Add(waitBound); len(sessions(t, h)) != 0; {
		if time.Now().After(deadline) {
			t.Fatalf("the session outlived its proxy: %+v", sessions(t, h))
		}
	}
	if code, _, _ := h.run("questions", "--session", "p1"); code != 3 {
		t.Errorf("questions of a session whose proxy died: exit %d, want 3 (no session)", code)
	}
}

// TestProxySessionStopped: elicit session stop ends the waiting question
// abandoned (the server is answered cancel); the proxy passes frames on,
// and what it fills in from then on is answered cancel at once.
func TestProxySessionStopped(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	cs, _, stderr := proxyOnSession(t, h, "p1")
	done := callTicket(t.Context(), cs)
	h.questions("p1", func(qs []hub.QuestionInfo) bool { return len(qs) == 1 })
	code, out, errs := h.run("session", "stop", "p1")
	var sr hub.StopResult
	if code != 0 || json.Unmarshal(out, &sr) != nil || sr.Abandoned != 1 {
		t.Fatalf("stop: exit %d\n%s\n%s", code, out, errs)
	}
	end := <-done
	if end.err != nil || !strings.Contains(hostResultText(end.res), "dismissed without an answer") {
		t.Errorf("the call whose question was abandoned: %q %v, want the server's cancelled result", hostResultText(end.res), end.err)
	}
	end = <-callTicket(t.Context(), cs)
	if end.err != nil || !strings.Contains(hostResultText(end.res), "dismissed without an answer") {
		t.Errorf("a call after the stop: %q %v, want cancel at once", hostResultText(end.res), end.err)
	}
	if _, err := cs.ListTools(t.Context(), nil); err != nil {
		t.Errorf("the proxy no longer passes frames after the stop: %v", err)
	}
	if !strings.Contains(stderr.String(), "the session was stopped") {
		t.Errorf("the proxy did not say the session stopped:\n%s", stderr)
	}
}

// TestProxySessionSampling: with no --sample policy, the sampling request
// elicit fills in for the host waits in the hub too; a person declines it
// there and the server hears the decline.
func TestProxySessionSampling(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	cs, _, _ := proxyOnSession(t, h, "p1")
	done := make(chan callEnd, 1)
	go func() {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "summarize", Arguments: map[string]any{"text": "a long text"}})
		done <- callEnd{res, err}
	}()
	qs := h.questions("p1", func(qs []hub.QuestionInfo) bool { return len(qs) == 1 })
	if code, out, errs := h.run("answer", qs[0].Key, "--session", "p1", "--decline"); code != 0 {
		t.Fatalf("decline the sampling request: exit %d\n%s\n%s", code, out, errs)
	}
	// The decline goes out as the sampling error (-1, "User rejected
	// sampling request"), which the demo server reports to its caller.
	end := <-done
	if end.err == nil || !strings.Contains(end.err.Error(), "User rejected sampling request") {
		t.Errorf("summarize after the decline: %v %v, want the server to have heard the decline", end.res, end.err)
	}
}

// lockedBuffer is a bytes.Buffer a test may read while a process's output
// is still being copied into it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
