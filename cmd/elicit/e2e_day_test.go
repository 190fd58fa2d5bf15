package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 26, a day with elicit at 80 columns: each test drives the real
// binary in tmux at 80×24 and 120×40 and reads the screen.

// daySizes are the terminals a day was spent in.
var daySizes = []struct{ cols, rows int }{{80, 24}, {120, 40}}

func sizeName(cols, rows int) string { return fmt.Sprintf("%dx%d", cols, rows) }

// flat is the screen's lines trimmed and joined by one space, so a
// sentence wrapped over lines of its own reads whole.
func flat(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
}

// statusLine is the screen's last line that is not blank.
func statusLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	return lines[len(lines)-1]
}

// storm asks for n questions at once with the demo's storm tool and
// waits for the tab to count them.
func (tm *tmuxTerm) storm(n int) {
	tm.t.Helper()
	tm.callTool("storm")
	tm.waitText("arguments for storm")
	tm.press("C-u")
	tm.typeText(fmt.Sprint(n))
	tm.press("Enter")
	tm.waitFor(fmt.Sprintf("%d questions", n), func(s string) bool {
		return strings.Contains(s, fmt.Sprintf("Questions (%d)", n)) || strings.Contains(s, fmt.Sprintf("Qs (%d)", n)) ||
			strings.Contains(s, fmt.Sprintf("Qs(%d)", n))
	})
}

// TestTUINoticeIsNeverCut: what elicit says to the person has a line of
// its own, wrapped, never cut to "…" beside the servers' badges: the
// quit warning with questions open (gone with the key that withdraws
// it), "copied … to the clipboard" (y), and at 80 columns ctrl+s's "one
// question at a time".
func TestTUINoticeIsNeverCut(t *testing.T) {
	for _, sz := range daySizes {
		t.Run(sizeName(sz.cols, sz.rows), func(t *testing.T) {
			tm := newTmuxSized(t, sz.cols, sz.rows, t.TempDir(), "demo")
			tm.waitText("demo-2026-07-28")
			bar := statusLine(tm.waitText("● demo-agent")) // every badge settled
			tm.storm(5)
			tm.question("Storm question")

			const warning = "5 questions are open: ctrl+c again quits, and they end abandoned (answered cancel); any other key stays"
			tm.press("C-c")
			s := tm.waitText("5 questions are open")
			if !strings.Contains(flat(s), warning) {
				t.Fatalf("the quit warning is not whole on screen:\n%s", s)
			}
			if got := statusLine(s); got != bar {
				t.Errorf("the status bar changed under the warning: %q, was %q", got, bar)
			}
			tm.press("F4") // any other key: the warning is withdrawn, and goes
			s = tm.waitFor("the warning to go", func(s string) bool { return !strings.Contains(s, "ctrl+c again quits") })
			if !strings.Contains(s, "Storm question") {
				t.Fatalf("F4 after the warning left the questions:\n%s", s)
			}

			if sz.cols < 120 {
				tm.press("C-s")
				s = tm.waitText("one question at a time")
				if !strings.Contains(flat(s), "one question at a time (ctrl+s: tiles)") {
					t.Errorf("ctrl+s's notice is cut:\n%s", s)
				}
			}

			tm.press("F9")
			tm.waitText("demo://readme")
			tm.press("Enter")
			tm.waitText("esc back")
			tm.press("y")
			s = tm.waitText("copied ")
			if f := flat(s); !strings.Contains(f, "to the clipboard through OSC 52") {
				t.Errorf("the copy notice is cut:\n%s", s)
			}
			tm.press("C-c")
			tm.press("C-c")
		})
	}
}

// TestTUITaskEnterShowsDetails: in the tasks view, Enter on a task whose
// question is open shows the task's details, as its hint says, with the
// question listed; Esc goes back to the list and answers nothing; p is
// the explicit step into the questions view, where it is still open.
func TestTUITaskEnterShowsDetails(t *testing.T) {
	for _, sz := range daySizes {
		t.Run(sizeName(sz.cols, sz.rows), func(t *testing.T) {
			tm := newTmuxSized(t, sz.cols, sz.rows, t.TempDir(), "demo", "--protocol", "2026-07-28")
			tm.waitText("demo-2026-07-28 ready")
			tm.callTool("reflow_month")
			tm.waitFor("the task's question", func(s string) bool {
				return strings.Contains(s, "Questions (1)") || strings.Contains(s, "Qs (1)") || strings.Contains(s, "Qs(1)")
			})
			tm.press("F11")
			tm.waitText("input required")
			tm.press("Home")
			s := tm.waitText("› ? input required")
			if !strings.Contains(s, "enter details") {
				t.Fatalf("the list's hint changed:\n%s", s)
			}
			tm.press("Enter")
			s = tm.waitText("Task ")
			if f := flat(s); !strings.Contains(f, "fits nowhere in the fortnight") || strings.Contains(s, "Which option") {
				t.Fatalf("Enter did not show the task's details with its question:\n%s", s)
			}
			tm.press("Escape")
			tm.waitText("› ? input required")
			tm.press("F7")
			s = tm.waitText("Journal")
			if strings.Contains(s, "cancel") {
				t.Fatalf("Enter then Esc in the tasks view answered the question:\n%s", s)
			}
			tm.press("F11")
			tm.waitText("› ? input required")
			tm.press("p")
			tm.waitText("fits nowhere in the fortnight")
			tm.read()
			tm.press("Down", "Down")
			tm.waitText("> Split across two rooms")
			tm.press("Enter")
			tm.press("F11")
			tm.waitText("✓ completed")
			tm.press("C-c")
		})
	}
}

// TestTUIToolFilterRanksNames: against server-filesystem, /allowed puts
// the tool whose name holds it first, with the cursor on it, before the
// tools whose description does.
func TestTUIToolFilterRanksNames(t *testing.T) {
	server := filesystemServer(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range daySizes {
		t.Run(sizeName(sz.cols, sz.rows), func(t *testing.T) {
			tm := newTmuxSized(t, sz.cols, sz.rows, dir, append(append([]string{"--name", "fs", "--"}, server...), dir)...)
			tm.waitText("fs ready")
			tm.press("F5")
			tm.waitText("› ")
			tm.press("/")
			tm.typeText("allowed")
			s := tm.waitText("filter: allowed")
			var rows []string
			for _, l := range strings.Split(s, "\n") {
				if strings.HasPrefix(l, "› ") || strings.HasPrefix(l, "  ") && strings.Contains(l, " — ") {
					rows = append(rows, l)
				}
			}
			if len(rows) < 2 || !strings.HasPrefix(rows[0], "› list_allowed_directories") {
				t.Fatalf("the name match is not first with the cursor on it:\n%s", s)
			}
			tm.press("C-c")
		})
	}
}

// TestTUICompletionTakesTheHighlight: the case: with deploy
// suggested for demo://scene/{tool}, it is highlighted from the start,
// tab (or enter) takes it and closes the list, and the next enter reads
// deploy's scene.
func TestTUICompletionTakesTheHighlight(t *testing.T) {
	for _, sz := range daySizes {
		for _, take := range []string{"Tab", "Enter"} {
			t.Run(sizeName(sz.cols, sz.rows)+"/"+take, func(t *testing.T) {
				tm := newTmuxSized(t, sz.cols, sz.rows, t.TempDir(), "demo", "--protocol", "2025-11-25")
				tm.waitText("demo-2025-11-25 ready")
				tm.press("F9")
				tm.waitText("template scene")
				tm.downTo("template scene")
				tm.press("Enter")
				tm.waitText("variables of scene")
				tm.typeText("d")
				s := tm.waitText("suggestions 1")
				if !strings.Contains(s, "› deploy") {
					t.Fatalf("deploy is not highlighted from the start:\n%s", s)
				}
				tm.press(take)
				tm.waitFor("deploy taken, the list closed", func(s string) bool {
					return strings.Contains(s, "> deploy") && !strings.Contains(s, "suggestions 1")
				})
				tm.press("Enter")
				s = tm.waitText("resources/read demo://scene/")
				if !strings.Contains(s, "demo://scene/deploy") {
					t.Fatalf("%s did not take the highlighted deploy:\n%s", take, s)
				}
			})
		}
	}
}

// TestTUIEndedPanesStay: a withdrawn question and a declined one stay on
// screen, each saying how it ended, well past the five seconds after
// which they used to clear themselves, until ctrl+l clears them.
func TestTUIEndedPanesStay(t *testing.T) {
	for _, sz := range daySizes {
		t.Run(sizeName(sz.cols, sz.rows), func(t *testing.T) {
			tm := newTmuxSized(t, sz.cols, sz.rows, t.TempDir(), "demo", "--protocol", "2025-11-25")
			tm.waitText("demo-2025-11-25 ready")
			tm.callTool("deploy")
			tm.waitText("arguments for deploy")
			tm.press("Enter")
			tm.question("Which branch should be deployed")
			tm.press("C-x")
			tm.waitText("decline (sent decline)")
			tm.callTool("withdrawn")
			tm.question("The server will withdraw this question")
			tm.waitText("withdrawn by demo-2025-11-25")
			time.Sleep(6 * time.Second) // not a synchronisation: a window, longer than the old five seconds, in which nothing may happen
			s := tm.screen()
			if !strings.Contains(s, "withdrawn by demo-2025-11-25") {
				t.Fatalf("the withdrawn pane cleared itself:\n%s", s)
			}
			tm.press("F2") // the declined one, still there
			tm.waitText("decline (sent decline)")
			tm.press("C-l")
			s = tm.waitFor("ctrl+l to clear them", func(s string) bool {
				return !strings.Contains(s, "withdrawn by") && !strings.Contains(s, "decline (sent decline)")
			})
			if !strings.Contains(s, "No questions yet") {
				t.Errorf("after ctrl+l:\n%s", s)
			}
			tm.press("C-c")
		})
	}
}
