package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAttachProxySession drives elicit attach in tmux on a proxied
// session: a go-sdk host that declares no elicitation runs elicit proxy
// --session p1 in front of the demo server; its tool call raises the
// question elicit fills in, the attached TUI shows it as a pane, keys
// answer it, and the host gets the tool result built from that answer.
// The pane ends as answered, the traffic view shows the proxied frames
// and the journal the outcome; session list marks the session a proxy
// with its host's name. The host hanging up ends the proxy, and the
// session leaves the hub.
func TestAttachProxySession(t *testing.T) {
	a := newAttachEnv(t)
	cmd := exec.Command(binPath, "proxy", "--session", "p1", "--", binPath, "demo", "--serve", "stdio")
	cmd.Dir, cmd.Env = a.dir, append(os.Environ(), a.env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "tmux-host", Version: "1"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect through the proxy: %v\n%s", err, stderr.String())
	}
	defer func() {
		if t.Failed() {
			t.Logf("proxy stderr:\n%s", stderr.String())
		}
	}()
	done := callTicket(t.Context(), cs)
	a.openQuestion("p1", "#")
	var list []struct {
		Session string `json:"session"`
		Proxy   bool   `json:"proxy"`
		Host    string `json:"host"`
	}
	a.json(&list, "session", "list")
	if len(list) != 1 || !list[0].Proxy || list[0].Host != "tmux-host" {
		t.Fatalf("session list = %+v; want p1, a proxy, its host tmux-host", list)
	}

	tm := a.attach("p1")
	tm.waitText("Priority for ticket 't'?")
	tm.read()
	tm.press("Up", "Up", "Enter") // from the default P3 to P1
	end := <-done
	if end.err != nil || !strings.Contains(hostResultText(end.res), "priority P1") {
		t.Fatalf("the host got %v %v: want the ticket with the priority answered in the TUI (P1)", end.res, end.err)
	}
	tm.waitFor("the pane to end answered", func(s string) bool {
		return strings.Contains(s, "accept (sent accept)") && !strings.Contains(s, "waiting for the server")
	})
	tm.press("F6")
	s := tm.waitText("elicitation/create")
	if !strings.Contains(s, "tools/call") || !strings.Contains(s, "initialize") {
		t.Fatalf("the traffic view does not show the proxied frames:\n%s", s)
	}
	tm.press("F7")
	tm.waitText("accept 1")

	tm.press("C-c")
	if s := tm.waitText("EXIT="); !strings.Contains(s, "EXIT=0") {
		t.Fatalf("ctrl+c did not detach cleanly:\n%s", s)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	for deadline := time.Now().Add(waitAttach); ; {
		if time.Now().After(deadline) {
			t.Fatal("the proxied session outlived its proxy")
		}
		code, out := a.run("session", "list")
		var left []json.RawMessage
		if code == 0 && json.Unmarshal(out, &left) == nil && len(left) == 0 {
			break
		}
		tm.read() // polling the hub's state
	}
}
