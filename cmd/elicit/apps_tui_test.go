package main

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestTUIOpensTheApp: in the TUI, o on a tool naming an MCP App hosts it
// over the TUI's session (the same host as elicit app): the notice gives
// the page's URL, the app rendered in headless chromium calls through
// elicit, and the traffic view shows the app's messages as the server's
// "(app)".
func TestTUIOpensTheApp(t *testing.T) {
	t.Parallel()
	tm := newTmuxSized(t, 160, 40, t.TempDir(), append([]string{"--"}, appsServer(t)...)...)
	tm.waitText("apps-server ready")
	tm.press("F5")
	tm.waitText("counter [app]")
	tm.press("o")
	page := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/[A-Za-z0-9_-]{16,}/`)
	s := tm.waitFor("the app's URL", func(s string) bool { return page.MatchString(s) })
	u, err := url.Parse(page.FindString(s))
	if err != nil {
		t.Fatal(err)
	}
	driveCounterApp(t, u)
	tm.press("F6")
	s = tm.waitFor("the app's frames in the traffic view", func(s string) bool {
		return strings.Contains(s, "apps-server (app)") && strings.Contains(s, "ui/initialize")
	})
	if !strings.Contains(s, "→ apps-server (app)") || !strings.Contains(s, "← apps-server (app)") {
		t.Errorf("the traffic view lacks the app's frames both ways:\n%s", s)
	}
}
