package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// deadNoticeBound is how long the TUI may take to show that an HTTP
// server died (the transport notices within about three seconds; the
// rest is a slow, shared machine).
const deadNoticeBound = 12 * time.Second

// demoHTTPServer runs the real binary's demo over Streamable HTTP on addr
// and returns it, so the test can kill it as a crash would (SIGKILL).
func demoHTTPServer(t *testing.T, addr string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binPath, "demo", "--serve", "http", "--addr", addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	waitListening(t, addr)
	return cmd
}

// waitWithin is waitFor with its own bound.
func (tm *tmuxTerm) waitWithin(d time.Duration, what string, cond func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	for {
		s := tm.screen()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("%s not within %v; screen:\n%s", what, d, s)
		}
		time.Sleep(50 * time.Millisecond) // the interval of a poll of the screen
	}
}

// checkWidth fails when a screen line is wider than w.
func checkWidth(t *testing.T, s string, w int) {
	t.Helper()
	for i, l := range strings.Split(s, "\n") {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d wide (> %d): %q", i, n, w, l)
		}
	}
}

// TestTUIServerView drives the real binary against the demo served over
// HTTP by another process: the server view at 80×24 and 160×48 says who
// the server is, what each side declared and how elicit reaches it. Then
// the server is killed while a question is open: the question ends
// disconnected and stays on screen as an ended pane, the status turns
// disconnected within seconds, and the server view says when and why.
// Started again on its address, r in the server view reconnects it.
func TestTUIServerView(t *testing.T) {
	dir := t.TempDir()
	addr := "127.0.0.1:" + freePort(t)
	server := demoHTTPServer(t, addr)
	tm := newTmux(t, dir, "--url", "http://"+addr+"/mcp")
	tm.waitText(addr + " ready 2025-11-25 stateful")

	tm.resize("80", "24")
	tm.press("F12")
	s := tm.waitText("Server " + addr)
	for _, want := range []string{
		"F12 Srv", "F1 help", "s next server · r reconnect", // the label F12 has in every view
		"status     ● ready · 2025-11-25 stateful · since",
		"transport  Streamable HTTP http://" + addr + "/mcp",
		"session    stateful · Mcp-Session-Id ",
		"title         elicit demo server", "tools         listChanged",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("80×24: the server view lacks %q:\n%s", want, s)
		}
	}
	checkWidth(t, s, 80)
	// The instructions are further down the page.
	tm.press("PageDown", "PageDown", "PageDown")
	s = tm.waitText("plain tools without questions")
	if !strings.Contains(s, "status     ● ready") {
		t.Errorf("the top left the screen while paging:\n%s", s)
	}

	tm.resize("160", "48")
	tm.waitText("F4 Questions")
	tm.press("Home")
	s = tm.waitFor("the whole page at 160×48", func(s string) bool {
		return strings.Contains(s, "elicit declared (initialize)") && strings.Contains(s, "plain tools without questions")
	})
	checkWidth(t, s, 160)

	// A question is open when the server dies.
	tm.callTool("deploy")
	tm.waitText("arguments for deploy")
	tm.press("Enter")
	tm.question("Which branch should be deployed")
	if err := server.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = server.Wait()
	s = tm.waitWithin(deadNoticeBound, "the question ended disconnected", func(s string) bool {
		return strings.Contains(s, addr+" disconnected (transport disconnected")
	})
	if !strings.Contains(s, "0 open") {
		t.Errorf("the ended question is not shown as ended:\n%s", s)
	}
	tm.waitWithin(deadNoticeBound, "the status to turn disconnected", func(s string) bool {
		return strings.Contains(s, "⚡ "+addr+" disconnected")
	})
	tm.press("F12")
	s = tm.waitText("⚡ disconnected at")
	for _, want := range []string{"why        ", "the server cannot be reached", "(ended)", "The session ended at"} {
		if !strings.Contains(s, want) {
			t.Errorf("the dead server's view lacks %q:\n%s", want, s)
		}
	}

	// Back on its address: r reconnects, the status says so as it goes.
	demoHTTPServer(t, addr)
	tm.press("r")
	s = tm.waitText("reconnected " + addr)
	if !strings.Contains(s, "status     ● ready") || !strings.Contains(s, "last error ") {
		t.Errorf("after the reconnect:\n%s", s)
	}
}
