package main

import (
	"strings"
	"testing"
)

// TestTUIChromeFits drives `elicit demo` at 80×24 and 120×40: the tab bar
// names every view's key with a name (no bare F-keys), the status bar
// holds both demo servers, one per MCP era, and the agent with its key,
// and the help, scrolled to its end, lists the agent's keys, alt+w and
// the findings view's enter.
func TestTUIChromeFits(t *testing.T) {
	tm := newTmuxSized(t, 80, 24, t.TempDir(), "demo")
	status := "● demo-2025-11-25 stateful │ ● demo-2026-07-28 stateless │ ● demo-agent alt+a"
	s := tm.waitText(status)
	checkWidth(t, s, 80)
	bar := strings.SplitN(s, "\n", 2)[0]
	if want := "F4 Questions F5 Tls F6 Trf F7 Jnl F8 Log F9 Res F10 Prm F11 Tsk F12 Srv F1 help"; strings.TrimSpace(bar) != want {
		t.Errorf("80×24: the tab bar is\n%q, want\n%q", bar, want)
	}

	tm.press("?")
	s = tm.waitText("Everywhere")
	seen := s
	for i := 0; !strings.Contains(s, "lines") || !strings.Contains(s, "of ") || !strings.Contains(s, "Findings (alt+i)"); i++ {
		if i > 10 {
			t.Fatalf("paging never reached the help's end:\n%s", s)
		}
		tm.press("PageDown")
		tm.read()
		s = tm.screen()
		seen += s
	}
	checkWidth(t, s, 80)
	for _, want := range []string{
		"alt+w           sampling: save its images, audio",
		"Agent (alt+a)", "esc             stop the turn", "ctrl+r          start it again (a new session)",
		"Findings (alt+i)", "enter           its frame in traffic (paused)",
		"F2 / ctrl+o, F3 next, previous prompt",
	} {
		if !strings.Contains(seen, want) {
			t.Errorf("80×24: the help never shows %q", want)
		}
	}
	tm.press("x")

	tm.press("M-a")
	s = tm.waitText("alt+a Agent")
	checkWidth(t, s, 80)
	if bar := strings.SplitN(s, "\n", 2)[0]; !strings.Contains(bar, "F5 Tls") || !strings.Contains(bar, "F12 Srv") {
		t.Errorf("80×24 on the agent view: the tab bar %q lost the F-keys' names", bar)
	}

	tm.resize("120", "40")
	tm.press("F4")
	s = tm.waitText("● demo-2025-11-25 ready 2025-11-25 stateful │ ● demo-2026-07-28 ready 2026-07-28 stateless │ ● demo-agent agent (alt+a)")
	checkWidth(t, s, 120)
	if want := "F4 Questions F5 Tools F6 Traffic F7 Journal F8 Logs F9 Resources F10 Prompts F11 Tasks F12 Server alt+a Agent F1 help"; !strings.Contains(s, want) {
		t.Errorf("120×40: the tab bar is not %q:\n%s", want, s)
	}
}

// TestTUIPaneKeepsTheServersName: a question's pane names the server as
// it names itself (serverInfo), and still does once the server died and
// the question ended disconnected.
func TestTUIPaneKeepsTheServersName(t *testing.T) {
	addr := "127.0.0.1:" + freePort(t)
	server := demoHTTPServer(t, addr)
	tm := newTmuxSized(t, 80, 24, t.TempDir(), "--url", "http://"+addr+"/mcp")
	tm.waitText(addr + " ready 2025-11-25 stateful")
	tm.callTool("deploy")
	tm.waitText("arguments for deploy")
	tm.press("Enter")
	s := tm.question("Which branch should be deployed")
	head := addr + " (elicit demo server)  " + addr + "#"
	if !strings.Contains(s, head) {
		t.Fatalf("the pane header lacks %q:\n%s", head, s)
	}
	if err := server.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = server.Wait()
	tm.waitWithin(deadNoticeBound, "the question ended disconnected", func(s string) bool {
		return strings.Contains(s, addr+" disconnected (transport disconnected")
	})
	tm.waitWithin(deadNoticeBound, "the status to turn disconnected", func(s string) bool {
		return strings.Contains(s, "⚡ "+addr)
	})
	if s = tm.screen(); !strings.Contains(s, head) {
		t.Errorf("after the disconnect the pane header lacks %q:\n%s", head, s)
	}
	checkWidth(t, s, 80)
}
