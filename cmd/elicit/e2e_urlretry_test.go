package main

import (
	"strings"
	"testing"
)

// TestTUIURLRequiredRetryKey drives the binary against server-everything:
// trigger-url-elicitation with errorPath answers -32042; the person
// accepts its URL elicitation, and the request is sent again only when
// they press r (server-everything never sends
// notifications/elicitation/complete, and the TUI has no timer for it).
// The retry reaches the tool, which asks its own URL elicitation.
func TestTUIURLRequiredRetryKey(t *testing.T) {
	cmdline := everythingCommand(t)
	tm := newTmux(t, t.TempDir(), append([]string{"--"}, cmdline...)...)
	tm.waitText("ready")
	tm.callTool("trigger-url-elicitation")
	tm.waitText("errorPath")
	tm.typeText("https://example.com/x")
	tm.press("Enter", "Enter", "Enter") // url, message, elicitationId
	tm.read()
	tm.press("Left") // errorPath: Yes
	tm.read()
	tm.press("Enter")
	tm.question("https://modelcontextprotocol.io")
	tm.press("Enter")
	s := tm.waitText("r done, send it again")
	if strings.Contains(s, "https://example.com/x") {
		t.Fatalf("the request went again before r:\n%s", s)
	}
	tm.read() // still nothing: no timer sends it
	if s := tm.screen(); strings.Contains(s, "https://example.com/x") || !strings.Contains(s, "r done") {
		t.Fatalf("the pane moved on without r:\n%s", s)
	}
	tm.press("r")
	// The retry got through -32042: the tool's own URL elicitation opens.
	tm.question("https://example.com/x")
}
