package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestTUIDemoBothEras drives `elicit demo` as a newcomer would, at 80×24:
// two demo servers side by side, one per era, the empty screen saying
// what to try, and the scenes that need an era each played on the server
// of that era: withdrawn and consent (with elicitationId) on
// demo-2025-11-25, an input_required question and URL-mode consent over
// input_required on demo-2026-07-28. The journal (F7) has how each ended,
// per server.
func TestTUIDemoBothEras(t *testing.T) {
	tm := newTmuxSized(t, 80, 24, t.TempDir(), "demo")
	s := tm.waitFor("both demo servers ready", func(s string) bool {
		// At 80 columns the status bar says ready by its glyph alone.
		return strings.Contains(s, "● demo-2025-11-25") && strings.Contains(s, "● demo-2026-07-28")
	})
	if !strings.Contains(s, "Try the deploy tool first:") || !strings.Contains(s, "F5 Tools, s until it shows demo-2025-11-25") {
		t.Errorf("the empty screen does not say what to try first:\n%s", s)
	}

	// 2025-11-25: the server withdraws its own question; consent is a
	// URL-mode elicitation/create.
	tm.pickTool("demo-2025-11-25", "withdrawn")
	tm.press("Enter")
	tm.press("F4")
	tm.waitText("The server will withdraw this question")
	tm.waitText("withdrawn by demo-2025-11-25")
	tm.press("C-l") // an ended pane stays until cleared
	tm.waitFor("the withdrawn pane to clear", func(s string) bool { return !strings.Contains(s, "withdrawn by demo-2025-11-25") })

	tm.pickTool("demo-2025-11-25", "consent")
	tm.press("Enter")
	tm.press("F4")
	tm.waitText("https://example.com/consent?session=")
	tm.read()
	tm.press("Enter")
	tm.pickTool("demo-2025-11-25", "consent")
	tm.waitText("✓ demo-2025-11-25/consent")
	tm.waitText("The user consented to open")

	// 2026-07-28: deploy's question comes in an input_required result;
	// ctrl+x declines it. consent asks for the page the same way; esc
	// cancels.
	tm.pickTool("demo-2026-07-28", "deploy")
	tm.press("Enter")
	tm.waitText("arguments for deploy")
	tm.press("Enter")
	tm.press("F4")
	tm.waitText("Which branch should be deployed to production?")
	tm.read()
	tm.press("C-x")
	tm.waitText("decline (sent decline)")

	tm.pickTool("demo-2026-07-28", "consent")
	tm.press("Enter")
	tm.press("F4")
	tm.waitText("https://example.com/consent?session=")
	tm.read()
	tm.press("Escape")
	tm.waitText("cancel (sent cancel)")
	tm.pickTool("demo-2026-07-28", "consent")
	tm.waitText("Consent cancelled")

	tm.press("F7")
	s = tm.waitFor("the journal's four entries", func(s string) bool {
		return strings.Count(s, " call ") >= 2 && strings.Contains(s, "cancel rate")
	})
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`demo-2025-11-25 +accept 1 decline 0 cancel 0 withdrawn 1`),
		regexp.MustCompile(`demo-2026-07-28 +accept 0 decline 1 cancel 1`),
		regexp.MustCompile(`withdrawn +demo-2025-11-25#`),
		regexp.MustCompile(`accept +demo-2025-11-25#`),
		regexp.MustCompile(`decline +demo-2026-07-28 call \d+/deploy`),
		regexp.MustCompile(`cancel +demo-2026-07-28 call \d+/consent`),
	} {
		if !want.MatchString(s) {
			t.Errorf("the journal lacks %s:\n%s", want, s)
		}
	}
	tm.press("C-c")
}

// pickTool shows server's tools (F5, then s until its list is on show)
// and moves the cursor to tool, which may be below the first screenful.
// Each key waits for the screen to show its effect, so none overshoots.
func (tm *tmuxTerm) pickTool(server, tool string) {
	tm.t.Helper()
	tm.press("F5")
	title := regexp.MustCompile(`Tools of (\S+) `)
	shown := func(s string) string {
		if m := title.FindStringSubmatch(s); m != nil {
			return m[1]
		}
		return ""
	}
	cur := shown(tm.waitText("Tools of "))
	for range 4 {
		if cur == server {
			break
		}
		tm.press("s")
		cur = shown(tm.waitFor("the next server's tools", func(s string) bool { return shown(s) != cur }))
	}
	tm.waitText("Tools of " + server + " ")
	cursor := func(s string) string {
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "› ") {
				return l
			}
		}
		return ""
	}
	// The row is the name, then " — " and its title or "  " and its
	// description, or nothing more.
	at := func(line string) bool {
		rest, ok := strings.CutPrefix(strings.TrimRight(line, " "), "› "+tool)
		return ok && (rest == "" || strings.HasPrefix(rest, " "))
	}
	line := cursor(tm.waitFor("the tool list", func(s string) bool { return cursor(s) != "" }))
	if !at(line) {
		tm.press("Home")
		s := tm.waitFor("the cursor on the first tool", func(s string) bool {
			// The first row under the title, which wraps at 80 columns.
			_, after, _ := strings.Cut(s, "Tools of "+server+" ")
			for _, row := range strings.Split(after, "\n")[1:] {
				if strings.HasPrefix(row, "› ") || strings.HasPrefix(row, "  ") {
					return strings.HasPrefix(row, "› ")
				}
			}
			return false
		})
		line = cursor(s)
	}
	for range 40 {
		if at(line) {
			return
		}
		tm.press("Down")
		prev := line
		line = cursor(tm.waitFor("the cursor to move down", func(s string) bool { return cursor(s) != prev }))
	}
	tm.t.Fatalf("tool %s not found on %s", tool, server)
}
