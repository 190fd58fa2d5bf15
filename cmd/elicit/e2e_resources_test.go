package main

import (
	"strings"
	"testing"
)

// TestTUIResourceTemplateAndSubscription drives the binary against
// server-everything: its dynamic text template is listed after the
// resources; Enter asks for resourceId and reads what the template expands
// to. u subscribes to a resource, and with the server's simulated updates
// on (toggle-subscriber-updates) its row is marked updated.
func TestTUIResourceTemplateAndSubscription(t *testing.T) {
	cmdline := everythingCommand(t)
	tm := newTmux(t, t.TempDir(), append([]string{"--"}, cmdline...)...)
	tm.waitText("ready")
	tm.press("F9")
	s := tm.waitText("template Dynamic Text Resource")
	if strings.Index(s, "structure.md") > strings.Index(s, "template Dynamic Text Resource") {
		t.Fatalf("templates are not after the resources:\n%s", s)
	}
	for i := 0; !strings.Contains(tm.screen(), "› template Dynamic Text Resource") && i < 20; i++ {
		tm.press("Down")
	}
	tm.press("Enter")
	tm.waitText("variables of Dynamic Text Resource")
	tm.typeText("42")
	tm.press("Enter")
	tm.waitText("resources/read demo://resource/dynamic/text/42")
	tm.waitText("Resource 42: This is a plaintext resource")

	tm.press("Escape", "Home", "u")
	tm.waitText("subscribed to demo://resource/static/document/architecture.md")
	tm.callTool("toggle-subscriber-updates")
	tm.press("F9")
	tm.waitText("subscribed  ● updated") // every 5 s for each subscribed URI
}
