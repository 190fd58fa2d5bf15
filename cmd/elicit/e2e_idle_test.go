package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// cursorCell finds the field's line ("> " then text) with the virtual
// cursor drawn on it: a cell in reverse video (tmux writes SGR 7 alone)
// after the prompt.
var cursorCell = regexp.MustCompile(`> .*\x1b\[7m`)

// TestTUIIdleStillDraws: an idle TUI runs no cursor blink (forms drops
// them: huh never shows one) and its renderer wakes only at --fps, yet
// nothing is lost on screen. After the blinks would have turned the cursor
// off and on a few times, the cursor is still drawn and a keystroke still
// shows; a question the server withdraws while nobody types is still
// drawn as withdrawn, and its traffic (lane 3, the bridge's one-shot
// timer) still reaches the traffic view.
func TestTUIIdleStillDraws(t *testing.T) {
	dir := t.TempDir()
	tm := newTmux(t, dir, "demo", "--protocol", "2025-11-25")
	tm.waitText("demo-2025-11-25 ready")

	tm.callTool("storm")
	tm.waitText("arguments for storm")
	tm.press("BSpace", "BSpace", "BSpace", "BSpace")
	tm.typeText("1")
	tm.press("Enter")
	tm.question("Storm question 1 of 1")
	// Three blink periods (530 ms): upstream would have blinked the
	// cursor off and on; none of it runs now, and the cursor must still be
	// there, sampled a blink period apart.
	time.Sleep(1600 * time.Millisecond)
	for i := range 2 {
		if s := tm.run("capture-pane", "-e", "-p"); !cursorCell.MatchString(s) {
			t.Fatalf("sample %d: no cursor drawn in the idle form:\n%s", i, s)
		}
		time.Sleep(600 * time.Millisecond)
	}
	tm.typeText("2")
	tm.waitText("> 12")
	tm.press("C-x")
	tm.waitText("decline (sent decline)")

	// Lane 3 while nothing moves: the server withdraws its question 4 s
	// in (notifications/cancelled) while the traffic view is on show and
	// no key is pressed; the frame reaches the screen through the
	// bridge's one-shot 33 ms timer and the renderer's next tick.
	tm.callTool("withdrawn")
	tm.question("The server will withdraw this question")
	tm.press("F6")
	s := tm.waitText("⚑ elicitation/create")
	if strings.Contains(s, "notifications/cancelled") {
		t.Fatalf("the question was withdrawn before the traffic view was shown: the test proves nothing\n%s", s)
	}
	tm.waitText("notifications/cancelled")
	// Lane 2 likewise: back on the questions view, the pane says so.
	tm.press("F4")
	tm.waitText("withdrawn by demo-2025-11-25")
	tm.press("C-c")
}
