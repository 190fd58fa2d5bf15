package main

import (
	"strings"
	"testing"
)

// TestTUICompleteDemo drives `elicit demo` (which declares completions):
// the scene template's {tool} lists the demo's tools as they are typed,
// the first highlighted; ↓ moves the highlight, tab takes it, and what is
// read is that tool's scene.
// In the greet prompt's form, esc closes the list first and the form on a
// second esc.
func TestTUICompleteDemo(t *testing.T) {
	tm := newTmux(t, t.TempDir(), "demo", "--protocol", "2025-11-25")
	tm.waitText("demo-2025-11-25 ready")
	tm.press("F9")
	tm.waitText("template scene")
	tm.downTo("template scene")
	tm.press("Enter")
	tm.waitText("suggestions as you type")
	tm.typeText("re")
	s := tm.waitText("suggestions 4 ")
	for _, want := range []string{"reflow_month", "reflow_fail", "reflow_iserror", "reflow_stubborn"} {
		if !strings.Contains(s, want) {
			t.Fatalf("suggestions lack %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, "wizard") {
		t.Fatalf("a tool not starting with re is suggested:\n%s", s)
	}
	tm.waitText("› reflow_month") // the first, highlighted from the start
	tm.press("Down")
	tm.waitText("› reflow_fail")
	tm.press("Tab")
	tm.waitFor("reflow_fail taken, the list closed", func(s string) bool {
		return strings.Contains(s, "> reflow_fail") && !strings.Contains(s, "reflow_month")
	})
	tm.press("Enter")
	tm.waitText("resources/read demo://scene/reflow_fail")
	tm.waitText("tasks that fail, end in isError, ignore cancel")

	tm.press("Escape", "F10")
	tm.waitText("› greet")
	tm.press("Enter")
	tm.waitText("arguments for greet")
	tm.typeText("a")
	tm.waitText("Alice")
	tm.press("Escape")
	s = tm.waitFor("the list closed, the form open", func(s string) bool {
		return !strings.Contains(s, "Alice") && strings.Contains(s, "arguments for greet")
	})
	if !strings.Contains(s, "> a") {
		t.Fatalf("esc lost what was typed:\n%s", s)
	}
	tm.press("Escape")
	tm.waitFor("the form closed", func(s string) bool {
		return !strings.Contains(s, "arguments for greet") && strings.Contains(s, "› greet")
	})
}

// TestTUICompleteEverything drives the binary against server-everything's
// completable-prompt: its department completes by prefix, and the names
// offered for the leader follow the department taken (context.arguments).
// tab and enter take the highlighted one; prompts/get says both.
func TestTUICompleteEverything(t *testing.T) {
	cmdline := everythingCommand(t)
	tm := newTmux(t, t.TempDir(), append([]string{"--"}, cmdline...)...)
	tm.waitText("ready")
	tm.press("F10")
	tm.waitText("completable-prompt")
	for i := 0; !strings.Contains(tm.screen(), "› completable-prompt") && i < 10; i++ {
		tm.press("Down")
	}
	tm.press("Enter")
	tm.waitText("arguments for completable-prompt")
	tm.typeText("S")
	s := tm.waitFor("the departments starting with S", func(s string) bool {
		return strings.Contains(s, "suggestions 2 ") && strings.Contains(s, "Sales") && strings.Contains(s, "Support")
	})
	if strings.Contains(s, "Engineering") {
		t.Fatalf("Engineering suggested for S:\n%s", s)
	}
	tm.press("Tab") // Sales, highlighted from the start
	tm.waitText("> Sales")
	tm.press("Enter") // nothing highlighted: on to name
	s = tm.waitFor("the names of Sales", func(s string) bool {
		return strings.Contains(s, "David") && strings.Contains(s, "Eve") && strings.Contains(s, "Frank")
	})
	if strings.Contains(s, "Alice") {
		t.Fatalf("names of Engineering offered for Sales:\n%s", s)
	}
	tm.press("Up") // the last: Frank
	tm.waitText("› Frank")
	tm.press("Enter")
	tm.waitText("> Frank")
	tm.press("Enter")
	tm.waitText("Please promote Frank to the head of the Sales team.")
}
