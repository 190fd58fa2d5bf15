package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cursorCell finds the field's line ("> " then text) with the virtual
// cursor drawn on it: a cell in reverse video (tmux writes SGR 7 alone)
// after the prompt.
var cursorCell = regexp.MustCompile(`> .*\x1b\[7m`)

// TestTUIIdleStillDraws: an idle TUI runs no cursor blink (forms drops
// them: huh never shows one) and its renderer's ticker is stopped a few
// frames after the last change (governor.go), yet nothing is lost on
// screen. After the blinks would have turned the cursor off and on a few
// times, the cursor is still drawn and a keystroke still shows; a question
// the server withdraws 4 s in, while nobody types and the ticker has long
// stopped, is still drawn as withdrawn, and its traffic (lane 3, the
// bridge's one-shot timer) still reaches the traffic view.
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
	time.Sleep(1600 * time.Millisecond) // a window in which the cursor must stay drawn
	for i := range 2 {
		if s := tm.run("capture-pane", "-e", "-p"); !cursorCell.MatchString(s) {
			t.Fatalf("sample %d: no cursor drawn in the idle form:\n%s", i, s)
		}
		time.Sleep(600 * time.Millisecond) // a blink period apart, as above
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

// TestTUIIdleIsSilent: with nothing moving on screen the real binary does
// not wake at all (upstream bubbletea's renderer ticks at --fps for ever:
// about 100 context switches a second at 20), and the screen still
// answers the next key. Counted as BENCHMARKS.md's "Idle" counts them:
// the context switches of all the process's threads, in the quietest of
// three one-second windows (a forced GC, every two minutes, may fall in
// one).
func TestTUIIdleIsSilent(t *testing.T) {
	dir := t.TempDir()
	tm := newTmux(t, dir, "demo")
	tm.waitText(" ready ")
	pid := strings.TrimSpace(tm.run("display-message", "-p", "#{pane_pid}"))
	// Move about first: views, a filter typed and cleared.
	tm.press("F5")
	tm.waitText("Tools of demo-")
	tm.press("/")
	tm.typeText("ech")
	tm.waitText("filter: ech")
	tm.press("Escape")
	tm.press("F6")
	tm.waitText("tools/list")
	tm.press("F4")
	tm.waitText("No questions yet")
	waitQuiet(t, pid) // what the last key started ends
	least := -1
	for range 3 {
		a := ctxSwitches(t, pid)
		time.Sleep(time.Second) // the window the wake-ups are counted in
		if n := ctxSwitches(t, pid) - a; least < 0 || n < least {
			least = n
		}
	}
	t.Logf("quietest second: %d context switches", least)
	if least > 10 {
		t.Errorf("the idle TUI woke %d times in its quietest second (want at most 10; the ticker at --fps is about 100)", least)
	}
	// The next key is drawn: the questions view has no "Tools of".
	tm.press("F5")
	tm.waitText("Tools of demo-")
}

// waitQuiet waits, within 10 s, until process pid has settled after the
// last key: a tenth of a second in which it woke at most once, the rate
// the idle tests allow (what a key starts, a redraw and the frame
// governor's stop, wakes it more).
func waitQuiet(t *testing.T, pid string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		a := ctxSwitches(t, pid)
		time.Sleep(100 * time.Millisecond) // the window of a poll of the wake-ups
		n := ctxSwitches(t, pid) - a
		if n <= 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the TUI never settled after the last key: %d context switches in the last tenth of a second", n)
		}
	}
}

// ctxSwitches sums voluntary and nonvoluntary context switches over the
// threads of process pid.
func ctxSwitches(t *testing.T, pid string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("/proc", pid, "task", "*", "status"))
	if err != nil || len(files) == 0 {
		t.Skipf("no /proc/%s/task (%v): cannot count wake-ups here", pid, err)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a thread that ended
		}
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.HasSuffix(k, "voluntary_ctxt_switches") {
				c, _ := strconv.Atoi(strings.TrimSpace(v))
				n += c
			}
		}
	}
	return n
}

// TestTUIIdleWithQuestionsOpen: fifty questions open (storm n=50, called
// from the tools view) keep nothing busy. In each view, the tools view
// where the storm call waits on them (it said so with a spinner: about
// 300 context switches a second for as long as they stayed open), the
// questions view (four tiles, each with its waiting time) and the traffic
// view, the process wakes at most 10 times a second, counted as
// TestTUIIdleIsSilent counts: all its threads' context switches, here
// over the quieter of two three-second windows (a waiting time that
// changes every few seconds falls in both).
func TestTUIIdleWithQuestionsOpen(t *testing.T) {
	dir := t.TempDir()
	tm := newTmux(t, dir, "demo", "--protocol", "2025-11-25")
	tm.waitText("demo-2025-11-25 ready")
	pid := strings.TrimSpace(tm.run("display-message", "-p", "#{pane_pid}"))
	tm.callTool("storm")
	tm.waitText("arguments for storm")
	tm.press("BSpace", "BSpace", "BSpace", "BSpace")
	tm.typeText("50")
	tm.press("Enter")
	tm.waitText("50 open")
	s := tm.waitText("Calls (1 running)")
	if !strings.Contains(s, "waiting for your answer — F4") {
		t.Errorf("the storm call does not say it waits on the person:\n%s", s)
	}
	for _, v := range []struct{ name, key, text string }{
		{"tools", "F5", "Calls (1 running)"},
		{"questions", "F4", "Storm question"},
		{"traffic", "F6", "elicitation/create"},
	} {
		tm.press(v.key)
		tm.waitText(v.text)
		waitQuiet(t, pid) // what the key started ends
		const window = 3
		least := -1
		for range 2 {
			a := ctxSwitches(t, pid)
			time.Sleep(window * time.Second) // the window the wake-ups are counted in
			if n := ctxSwitches(t, pid) - a; least < 0 || n < least {
				least = n
			}
		}
		t.Logf("%s view, 50 questions open: %d context switches in %d s", v.name, least, window)
		if least > 10*window {
			t.Errorf("the %s view with 50 questions open woke %d times in %d s (want at most %d a second)", v.name, least, window, 10)
		}
		if s := tm.screen(); !strings.Contains(s, "50 open") {
			t.Fatalf("a question ended while nobody typed:\n%s", s)
		}
	}
	tm.press("C-c")
}
