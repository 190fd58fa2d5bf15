package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testenv"
	"github.com/google/go-cmp/cmp"
)

// tmuxTerm drives the real binary in a detached tmux session: keys go in
// with send-keys, the screen comes out with capture-pane. Each test gets
// its own tmux server (-L), so tests never see each other's panes.
type tmuxTerm struct {
	t      *testing.T
	socket string
}

func newTmux(t *testing.T, dir string, args ...string) *tmuxTerm {
	t.Helper()
	return newTmuxSized(t, 120, 40, dir, args...)
}

// newTmuxSized is newTmux on a terminal of cols×rows.
func newTmuxSized(t *testing.T, cols, rows int, dir string, args ...string) *tmuxTerm {
	t.Helper()
	return newTmuxCommand(t, cols, rows, dir, append([]string{"env", "TERM=xterm-256color", "XDG_STATE_HOME=" + filepath.Join(dir, "state"), binPath}, args...)...)
}

// newTmuxCommand runs command (its program first) in tmux on a terminal
// of cols×rows, in dir.
func newTmuxCommand(t *testing.T, cols, rows int, dir string, command ...string) *tmuxTerm {
	t.Helper()
	testenv.LookPath(t, "tmux")
	// A socket path in the test's own directory (not -L NAME under
	// /tmp/tmux-UID), so nothing is left behind when the test is done.
	tm := &tmuxTerm{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	cmd := append([]string{"new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "-c", dir, "--"}, command...)
	tm.run(cmd...)
	tm.run("set-option", "-s", "escape-time", "10")
	pid, _ := strconv.Atoi(strings.TrimSpace(tm.run("display-message", "-p", "#{pane_pid}")))
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-S", tm.socket, "kill-server").Run()
		// The program may still be saving its state under dir after the
		// hang-up; the test's TempDir cleanup must not race it.
		waitGone(t, pid, 10*time.Second)
	})
	return tm
}

// waitGone waits, bounded, until process pid has exited.
func waitGone(t *testing.T, pid int, bound time.Duration) {
	t.Helper()
	if pid <= 0 {
		return
	}
	deadline := time.Now().Add(bound)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Logf("process %d still running %v after the tmux server was killed", pid, bound)
			return
		}
		time.Sleep(20 * time.Millisecond) // the interval of a poll of the process
	}
}

func (tm *tmuxTerm) run(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tm.socket}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (tm *tmuxTerm) screen() string { return tm.run("capture-pane", "-p") }

func (tm *tmuxTerm) press(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		tm.run("send-keys", k)
		time.Sleep(60 * time.Millisecond) // one key per frame, as a person types
	}
}

func (tm *tmuxTerm) typeText(s string) {
	tm.t.Helper()
	tm.run("send-keys", "-l", s)
}

// waitFor polls the screen until cond holds; it never sleeps a fixed time
// for the program to be "ready".
func (tm *tmuxTerm) waitFor(what string, cond func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := tm.screen()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond) // the interval of a poll of the screen
	}
}

func (tm *tmuxTerm) waitText(text string) string {
	tm.t.Helper()
	return tm.waitFor(fmt.Sprintf("%q", text), func(s string) bool { return strings.Contains(s, text) })
}

// callTool opens the tools view, moves the cursor to name, and opens its
// argument form (or calls it at once when it takes none).
func (tm *tmuxTerm) callTool(name string) {
	tm.t.Helper()
	tm.press("F5")
	s := tm.waitText("› ") // the list is loaded
	// A long list shows a window of it: move down until name is in it.
	for i := 0; !strings.Contains(s, " "+name+" — ") && i < 100; i++ {
		tm.press("Down")
		s = tm.screen()
	}
	lines := strings.Split(s, "\n")
	cursor, target := -1, -1
	for i, l := range lines {
		if strings.HasPrefix(l, "› ") && strings.Contains(l, " — ") {
			cursor = i
		}
		if strings.Contains(l, " "+name+" — ") {
			target = i
		}
	}
	if cursor < 0 || target < 0 {
		tm.t.Fatalf("tool %s or the cursor not on screen:\n%s", name, s)
	}
	for ; cursor < target; cursor++ {
		tm.press("Down")
	}
	for ; cursor > target; cursor-- {
		tm.press("Up")
	}
	tm.waitText("› " + name + " — ")
	tm.press("Enter")
}

// question waits for a new question to be announced, switches to it as a
// person does (a new question never takes the screen by itself), and
// gives it the moment a person needs to read it: ui holds back the keys
// that answer a pane for its first 300 ms on screen (Options.ArmDelay).
func (tm *tmuxTerm) question(text string) string {
	tm.t.Helper()
	// The tab says "Questions (n)", or "Qs (n)" where the width is short,
	// "Qs(n)" where other counts are on the bar too.
	tm.waitFor("the question to be announced", func(s string) bool {
		return strings.Contains(s, "Questions (") || strings.Contains(s, "Qs (") || strings.Contains(s, "Qs(")
	})
	tm.press("F4")
	s := tm.waitText(text)
	tm.read()
	return s
}

// read waits as long as a person reading a freshly shown question does:
// a deliberately slow person, since ui drops the keys that answer a pane
// for its first 300 ms on screen (ArmDelay) and shows nothing when they
// start to count.
func (tm *tmuxTerm) read() { time.Sleep(400 * time.Millisecond) }

// TestTUI drives `elicit demo` in tmux, in both eras: two parallel
// create_ticket calls answered in reverse order, Esc and ctrl+x on the wire
// as cancel and decline, and (2025-11-25, where servers can withdraw) a
// withdrawn prompt that stays until cleared.
func TestTUI(t *testing.T) {
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) { testTUI(t, era) })
	}
}

func testTUI(t *testing.T, era string) {
	dir := t.TempDir()
	tm := newTmux(t, dir, "demo", "--protocol", era)
	tm.waitText("demo-" + era + " ready " + era)

	// Two tickets; the second prompt must not steal focus from the first.
	tm.callTool("create_ticket")
	tm.waitText("arguments for create_ticket")
	tm.typeText("first ticket")
	tm.press("Enter")
	tm.waitText("1 open")
	tm.callTool("create_ticket")
	tm.waitText("arguments for create_ticket")
	tm.waitText("> first ticket") // the form opens with the last call's arguments
	tm.press("C-u")
	tm.typeText("second ticket")
	tm.press("Enter")
	tm.waitText("2 open")
	tm.press("F4")
	tm.waitText("Priority for ticket 'first ticket'?")
	// Answer the second first: P1; then the first: P4.
	tm.press("F2")
	tm.waitText("Priority for ticket 'second ticket'?")
	tm.read()
	tm.press("Up", "Up")
	tm.waitText("> P1")
	tm.press("Enter")
	tm.waitText("accept (sent accept)")
	tm.press("F3")
	tm.waitText("Priority for ticket 'first ticket'?")
	tm.press("Down")
	tm.waitText("> P4")
	tm.press("Enter")
	tm.waitFor("both calls done", func(s string) bool { return strings.Contains(s, "0 open") })
	tm.press("F5")
	tm.waitText("Calls (0 running)")

	// deploy twice: Esc on one (cancel), ctrl+x on the other (decline).
	tm.callTool("deploy")
	tm.waitText("arguments for deploy")
	tm.press("Enter")
	tm.question("Which branch should be deployed")
	tm.press("Escape")
	tm.waitText("cancel (sent cancel)")
	tm.callTool("deploy")
	tm.waitText("arguments for deploy")
	tm.press("Enter")
	tm.question("Which branch should be deployed")
	tm.press("C-x")
	tm.waitText("decline (sent decline)")

	if era == "2025-11-25" {
		// The server withdraws its question after 4 s; the pane says so,
		// sends nothing, and stays until ctrl+l clears the ended panes.
		tm.callTool("withdrawn")
		tm.question("The server will withdraw this question")
		tm.waitText("withdrawn by demo-2025-11-25")
		tm.press("C-l")
		tm.waitFor("the withdrawn pane to clear", func(s string) bool { return !strings.Contains(s, "withdrawn by demo-2025-11-25") })
	}
	tm.press("F5")
	tm.waitText("Calls (0 running)")

	// Export the traffic and check the wire.
	tm.press("F6")
	tm.waitText("Traffic:")
	tm.press("e")
	tm.waitText("exported ") // the path may be cut at the width; readExport finds the file
	var tickets map[string]string
	var deploys []string
	if era == "2025-11-25" {
		tickets, deploys = answersByRequest(t, readExport(t, dir))
	} else {
		tickets, deploys = answersByRetry(t, readExport(t, dir))
	}
	want := map[string]string{"first ticket": "accept P4", "second ticket": "accept P1"}
	if !cmp.Equal(tickets, want) {
		t.Errorf("ticket answers on the wire = %v, want %v", tickets, want)
	}
	if len(deploys) != 2 || deploys[0] != "cancel" || deploys[1] != "decline" {
		t.Errorf("deploy answers on the wire = %v, want cancel (Esc) then decline (ctrl+x)", deploys)
	}
	tm.press("C-c")
}

type wireMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

type elicitAnswer struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content"`
}

func (a elicitAnswer) String() string {
	if p, ok := a.Content["priority"]; ok {
		return a.Action + " " + fmt.Sprint(p)
	}
	return a.Action
}

// answersByRequest reads 2025-11-25 traffic: elicitation/create requests
// from the server and our responses to them, matched by the server's id.
// It fails the test if anything answered the withdrawn question.
func answersByRequest(t *testing.T, frames []exportedFrame) (tickets map[string]string, deploys []string) {
	t.Helper()
	tickets = map[string]string{}
	asked := map[string]string{} // server request id -> message
	for _, f := range frames {
		var m wireMsg
		if err := json.Unmarshal(f.Raw, &m); err != nil {
			t.Fatalf("exported frame is not JSON: %v: %s", err, f.Raw)
		}
		switch {
		case f.Dir == "in" && m.Method == "elicitation/create":
			var p struct{ Message string }
			_ = json.Unmarshal(m.Params, &p)
			asked[string(m.ID)] = p.Message
		case f.Dir == "out" && m.Method == "" && asked[string(m.ID)] != "":
			var a elicitAnswer
			if err := json.Unmarshal(m.Result, &a); err != nil || a.Action == "" {
				t.Fatalf("answer to %s is not an ElicitResult: %s", asked[string(m.ID)], f.Raw)
			}
			msg := asked[string(m.ID)]
			switch {
			case strings.HasPrefix(msg, "Priority for ticket '"):
				tickets[strings.TrimSuffix(strings.TrimPrefix(msg, "Priority for ticket '"), "'?")] = a.String()
			case strings.HasPrefix(msg, "Which branch"):
				deploys = append(deploys, a.String())
			case strings.Contains(msg, "withdraw"):
				t.Errorf("an answer went out for the withdrawn question: %s", f.Raw)
			}
		}
	}
	return tickets, deploys
}

// answersByRetry reads 2026-07-28 traffic: each tools/call retry carries
// inputResponses; the call's arguments say which ticket it was.
func answersByRetry(t *testing.T, frames []exportedFrame) (tickets map[string]string, deploys []string) {
	t.Helper()
	tickets = map[string]string{}
	for _, f := range frames {
		var m wireMsg
		if err := json.Unmarshal(f.Raw, &m); err != nil {
			t.Fatalf("exported frame is not JSON: %v: %s", err, f.Raw)
		}
		if f.Dir != "out" || m.Method != "tools/call" {
			continue
		}
		var p struct {
			Name           string                  `json:"name"`
			Arguments      map[string]any          `json:"arguments"`
			InputResponses map[string]elicitAnswer `json:"inputResponses"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatalf("tools/call params: %v: %s", err, f.Raw)
		}
		if len(p.InputResponses) != 1 {
			continue // the first attempt, before any question
		}
		for _, a := range p.InputResponses {
			switch p.Name {
			case "create_ticket":
				tickets[fmt.Sprint(p.Arguments["title"])] = a.String()
			case "deploy":
				deploys = append(deploys, a.String())
			}
		}
	}
	return tickets, deploys
}

type exportedFrame struct {
	Dir string          `json:"dir"`
	Raw json.RawMessage `json:"frame"`
}

func readExport(t *testing.T, dir string) []exportedFrame {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "elicit-traffic-*.jsonl"))
	if len(matches) != 1 {
		t.Fatalf("want one export in %s, got %v", dir, matches)
	}
	f, err := os.Open(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []exportedFrame
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var fr exportedFrame
		if err := json.Unmarshal(sc.Bytes(), &fr); err != nil {
			t.Fatalf("export line: %v: %s", err, sc.Bytes())
		}
		out = append(out, fr)
	}
	return out
}

// TestTUITasks runs reflow_month from the TUI in both task designs: its
// question is answered in a pane and the task completes with that answer;
// run again and cancelled from the task view, it ends as what the server
// says it ended as (cancelled).
func TestTUITasks(t *testing.T) {
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			dir := t.TempDir()
			tm := newTmux(t, dir, "demo", "--protocol", era)
			tm.waitText("demo-" + era + " ready " + era)

			tm.callTool("reflow_month")
			tm.question("fits nowhere in the fortnight")
			tm.press("Down", "Down")
			tm.waitText("> Split across two rooms")
			tm.press("Enter")
			tm.press("F11")
			tm.waitText("✓ completed")
			tm.press("Enter")
			tm.waitText("The Thursday 14:00 workshop: Split across two rooms")
			tm.press("Escape")

			tm.callTool("reflow_month")
			tm.waitText("Questions (1)")
			tm.press("F11")
			tm.waitText("input required")
			tm.press("Home")
			tm.waitText("› ? input required")
			tm.press("x")
			s := tm.waitText("⊘ cancelled")
			if !strings.Contains(s, "cancel requested") {
				t.Errorf("the task view should say a cancel was requested:\n%s", s)
			}
			tm.press("C-c")
		})
	}
}

// TestTUIFocusStaysWithThePerson: a question that arrives while the person
// reads a resource (F9) never takes the screen, and the Esc meant as
// "back" goes back instead of cancelling a question nobody read; the same
// in the traffic view (F6), where its keys stay the view's.
func TestTUIFocusStaysWithThePerson(t *testing.T) {
	dir := t.TempDir()
	tm := newTmux(t, dir, "demo")
	tm.waitFor("both demo servers", func(s string) bool {
		return strings.Contains(s, "demo-2025-11-25 ready") && strings.Contains(s, "demo-2026-07-28 ready")
	})
	tm.callTool("reflow_month") // a task whose question comes a few seconds in
	tm.press("F9")
	tm.waitText("demo://readme")
	tm.press("Enter")
	tm.waitText("esc back")
	s := tm.waitFor("the task's question to be announced", func(s string) bool { return strings.Contains(s, "Questions (1)") })
	if !strings.Contains(s, "esc back") {
		t.Fatalf("the question took the screen from the resource:\n%s", s)
	}
	tm.press("Escape")
	tm.waitFor("the resources list", func(s string) bool { return !strings.Contains(s, "esc back") && strings.Contains(s, "demo://readme") })
	tm.press("F6")
	tm.waitText("Traffic:")
	tm.press("Up", "Up", "Enter", "Escape")
	tm.press("F7")
	s = tm.waitText("Journal")
	if strings.Contains(s, "cancel ") && strings.Contains(s, "task") {
		t.Errorf("a key meant for a view answered the question:\n%s", s)
	}
	s = tm.question("fits nowhere in the fortnight")
	if !strings.Contains(s, "Questions (1)") {
		t.Errorf("the question is not open any more:\n%s", s)
	}
	tm.press("C-c")
}

// downTo moves the list's highlight down until the row "› "+row is shown,
// one Down at a time (bounded): a test that counts rows breaks whenever
// the demo serves one more thing above it.
func (tm *tmuxTerm) downTo(row string) {
	tm.t.Helper()
	for range 20 {
		before := tm.screen()
		if strings.Contains(before, "› "+row) {
			return
		}
		tm.press("Down")
		tm.waitFor("the highlight to move", func(s string) bool { return s != before })
	}
	tm.waitText("› " + row)
}
