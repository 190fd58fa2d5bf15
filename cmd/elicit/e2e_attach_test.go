package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/internal/testenv"
)

// waitAttach bounds each command and wait of these tests: a failure,
// never a pace.
const waitAttach = 30 * time.Second

// attachEnv is a hub of a test's own: its socket folder and home are
// the test's, so hubs of tests running side by side never meet.
type attachEnv struct {
	t   *testing.T
	dir string
	env []string
}

func newAttachEnv(t *testing.T) *attachEnv {
	t.Helper()
	dir := t.TempDir()
	xdg, home := filepath.Join(dir, "xdg"), filepath.Join(dir, "home")
	for _, d := range []string{xdg, home} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return &attachEnv{t: t, dir: dir, env: []string{"XDG_RUNTIME_DIR=" + xdg, "HOME=" + home, "XDG_STATE_HOME=" + filepath.Join(dir, "state")}}
}

// run runs the binary with the hub's environment: its exit code and
// stdout.
func (a *attachEnv) run(args ...string) (int, []byte) {
	a.t.Helper()
	// Not the test's context: the cleanup's session stop runs after it
	// ended. Bounded all the same.
	ctx, cancel := context.WithTimeout(context.Background(), waitAttach)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, args...)
	cmd.Dir, cmd.Env = a.dir, append(os.Environ(), a.env...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.Bytes()
	} else if err != nil {
		a.t.Fatalf("elicit %v: %v", args, err)
	}
	return 0, out.Bytes()
}

// json runs the binary, wants exit 0 and decodes its JSON into v.
func (a *attachEnv) json(v any, args ...string) {
	a.t.Helper()
	code, out := a.run(args...)
	if code != 0 {
		a.t.Fatalf("elicit %v: exit %d\n%s", args, code, out)
	}
	if err := json.Unmarshal(out, v); err != nil {
		a.t.Fatalf("elicit %v: %v\n%s", args, err, out)
	}
}

// startDemo starts session name on the demo server; the hub is stopped
// when the test ends (its pid is watched until it is gone).
func (a *attachEnv) startDemo(name string) (hubPid int) {
	a.t.Helper()
	var st struct {
		Session string `json:"session"`
		HubPid  int    `json:"hubPid"`
	}
	a.json(&st, "session", "start", name, "--demo")
	if st.Session != name || st.HubPid <= 0 {
		a.t.Fatalf("session start: %+v", st)
	}
	a.t.Cleanup(func() {
		_, _ = a.run("session", "stop", name)
		_ = syscall.Kill(st.HubPid, syscall.SIGTERM)
		waitGone(a.t, st.HubPid, 10*time.Second)
	})
	return st.HubPid
}

// openQuestion waits (bounded) until the session has an open question
// whose key contains part, and returns its key.
func (a *attachEnv) openQuestion(session, part string) string {
	a.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var qs []struct {
			Key string `json:"key"`
		}
		a.json(&qs, "questions", "--session", session)
		for _, q := range qs {
			if strings.Contains(q.Key, part) {
				return q.Key
			}
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("no open question %q in %s: %+v", part, session, qs)
		}
		time.Sleep(50 * time.Millisecond) // polling the hub's state, not waiting for time
	}
}

// attach runs elicit attach NAME in tmux, in a shell that prints its
// exit code and stays, so the screen after it can be read.
func (a *attachEnv) attach(name string) *tmuxTerm {
	a.t.Helper()
	cmd := append([]string{"env", "TERM=xterm-256color"}, a.env...)
	cmd = append(cmd, "sh", "-c", `"$0" attach "$1"; echo "EXIT=$?"; exec sleep 600`, binPath, name)
	tm := newTmuxCommand(a.t, 120, 40, a.dir, cmd...)
	tm.run("set-option", "-s", "escape-time", "10")
	return tm
}

// attachedResult is what the test reads of elicit result's JSON.
type attachedResult struct {
	Tool    string `json:"tool"`
	Prompts []struct {
		Key     string         `json:"key"`
		Outcome string         `json:"outcome"`
		Content map[string]any `json:"content"`
	} `json:"prompts"`
}

// TestAttachSession drives elicit attach in tmux on a session the demo
// server runs in the hub: a call started headless asks, the attached TUI
// shows the question as a pane, keys answer it, and elicit result has
// the answer; ctrl+c detaches and leaves the session and its open
// question; attaching again shows that question and the traffic from the
// session's start; a question elicit answer settles while its pane is
// shown ends there; a hub killed under an attached TUI leaves the
// terminal restored and exits 3, "disconnected".
func TestAttachSession(t *testing.T) {
	a := newAttachEnv(t)
	hubPid := a.startDemo("s1")
	var started struct {
		Call string `json:"call"`
	}
	a.json(&started, "call", "wizard", "--session", "s1", "--no-wait")
	a.openQuestion("s1", "/environment")

	tm := a.attach("s1")
	tm.waitText("What kind of environment?")
	tm.read()
	tm.press("Down", "Enter") // staging
	tm.waitText("Which staging slot?")

	// Detach with the slot's question open: the session and the
	// question stay.
	tm.press("C-c")
	s := tm.waitText("EXIT=")
	if !strings.Contains(s, "EXIT=0") || !strings.Contains(s, "session s1 keeps running") {
		t.Fatalf("ctrl+c did not detach cleanly:\n%s", s)
	}
	if alt := strings.TrimSpace(tm.run("display-message", "-p", "#{alternate_on}")); alt != "0" {
		t.Fatalf("the terminal was left on the alternate screen (%s)", alt)
	}
	var list []struct {
		Session   string `json:"session"`
		Questions int    `json:"questions"`
	}
	a.json(&list, "session", "list")
	if len(list) != 1 || list[0].Session != "s1" || list[0].Questions != 1 {
		t.Fatalf("after the detach, session list = %+v; want s1 with its one open question", list)
	}
	a.openQuestion("s1", "/slot")

	// Attach again: the open question is a pane, and the traffic goes
	// back to the session's start.
	tm = a.attach("s1")
	tm.waitText("Which staging slot?")
	tm.read()
	tm.press("Down", "Enter") // slot-a
	var res attachedResult
	a.json(&res, "result", started.Call, "--session", "s1")
	got := map[string]any{}
	for _, p := range res.Prompts {
		if p.Outcome != "accept" {
			t.Fatalf("%s ended %s, want accept", p.Key, p.Outcome)
		}
		for k, v := range p.Content {
			got[k] = v
		}
	}
	if res.Tool != "wizard" || got["environment"] != "staging" || got["slot"] != "slot-a" {
		t.Fatalf("result = %+v; want the answers given in the two TUIs", res)
	}
	tm.press("F6")
	s = tm.waitText("Traffic: ")
	if !strings.Contains(s, " #1 ") && !strings.Contains(s, " #1\n") {
		t.Fatalf("the traffic view does not go back to the session's first request (#1):\n%s", s)
	}

	// A question settled by elicit answer while its pane is on screen
	// ends there.
	tm.press("F4")
	a.json(&started, "call", "wizard", "--session", "s1", "--no-wait")
	key := a.openQuestion("s1", "/environment")
	tm.waitText("What kind of environment?")
	var ans struct {
		Outcome string `json:"outcome"`
	}
	a.json(&ans, "answer", key, "--session", "s1", "--accept", `{"environment":"production"}`)
	tm.waitText("Type the service name to confirm") // the call went on with it
	s = tm.waitFor("the answered pane to end", func(s string) bool {
		return !strings.Contains(s, "What kind of environment?") && strings.Count(s, "accept (sent accept)") >= 1
	})
	if strings.Contains(s, "> (choose one)") {
		t.Fatalf("the pane answered elsewhere still takes input:\n%s", s)
	}
	a.json(&ans, "answer", a.openQuestion("s1", "/service"), "--session", "s1", "--cancel")

	// The hub dies under the attached TUI: the terminal comes back,
	// exit 3, disconnected.
	if err := syscall.Kill(hubPid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	s = tm.waitText("EXIT=")
	if !strings.Contains(s, "EXIT=3") || !strings.Contains(s, "disconnected") {
		t.Fatalf("after the hub was killed:\n%s", s)
	}
	if alt := strings.TrimSpace(tm.run("display-message", "-p", "#{alternate_on}")); alt != "0" {
		t.Fatalf("the terminal was left on the alternate screen (%s)", alt)
	}
	if code, _ := a.run("questions", "--session", "s1"); code != 3 {
		t.Fatalf("questions on the dead hub's session: exit %d, want 3", code)
	}
}

// TestAttachRefusals: no hub running and no such session are exit 3
// (as for every command on a session), and attach without a terminal is
// a usage error.
func TestAttachRefusals(t *testing.T) {
	a := newAttachEnv(t)
	tm := a.attach("s1")
	s := tm.waitText("EXIT=")
	if !strings.Contains(s, "EXIT=3") || !strings.Contains(s, "no session hub runs") {
		t.Fatalf("attach when no hub runs:\n%s", s)
	}
	a.startDemo("s1")
	tm = a.attach("nope")
	s = tm.waitText("EXIT=")
	if !strings.Contains(s, "EXIT=3") || !strings.Contains(s, `no session "nope"`) {
		t.Fatalf("attach to a session that is not:\n%s", s)
	}
	if code, _ := a.run("attach", "s1"); code != 2 {
		t.Fatalf("attach without a terminal: exit %d, want 2", code)
	}
}

// TestAttachOneAtATimeAndSignals: a second TUI on a session is refused
// (exit 2); SIGTERM to elicit attach detaches (exit 0, the terminal
// given back, the session running); a session stopped under its TUI ends
// it, saying so.
func TestAttachOneAtATimeAndSignals(t *testing.T) {
	a := newAttachEnv(t)
	a.startDemo("s1")
	first := a.attach("s1")
	first.waitText("F4 Questions")
	second := a.attach("s1")
	s := second.waitText("EXIT=")
	if !strings.Contains(s, "EXIT=2") || !strings.Contains(s, "attached already") {
		t.Fatalf("a second attach:\n%s", s)
	}
	pid := attachPid(t, first)
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	s = first.waitText("EXIT=")
	if !strings.Contains(s, "EXIT=0") || !strings.Contains(s, "session s1 keeps running") {
		t.Fatalf("after SIGTERM:\n%s", s)
	}
	if alt := strings.TrimSpace(first.run("display-message", "-p", "#{alternate_on}")); alt != "0" {
		t.Fatalf("SIGTERM left the terminal on the alternate screen (%s)", alt)
	}
	third := a.attach("s1")
	third.waitText("F4 Questions")
	if code, out := a.run("session", "stop", "s1"); code != 0 {
		t.Fatalf("session stop: exit %d\n%s", code, out)
	}
	s = third.waitText("EXIT=")
	if !strings.Contains(s, "EXIT=0") || !strings.Contains(s, "session s1 stopped") {
		t.Fatalf("the session stopped under its TUI:\n%s", s)
	}
	if alt := strings.TrimSpace(third.run("display-message", "-p", "#{alternate_on}")); alt != "0" {
		t.Fatalf("the stopped session's TUI left the terminal on the alternate screen (%s)", alt)
	}
}

// attachPid is the elicit attach process in tm's pane: the child of the
// pane's shell.
func attachPid(t *testing.T, tm *tmuxTerm) int {
	t.Helper()
	shell := strings.TrimSpace(tm.run("display-message", "-p", "#{pane_pid}"))
	b, err := os.ReadFile(filepath.Join("/proc", shell, "task", shell, "children"))
	if err != nil {
		testenv.Missing(t, "the /proc children list (Linux): %v", err)
	}
	f := strings.Fields(string(b))
	if len(f) != 1 {
		t.Fatalf("the pane's shell has children %q, want the one elicit attach", f)
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// TestAttachMasksSecrets: a session over HTTP with a secret in its URL's
// query and in a header shows neither in the attached TUI: not in a
// frame's headers and URL, not in the server view.
func TestAttachMasksSecrets(t *testing.T) {
	srv := httptest.NewServer(demo.HTTPHandler(nil))
	t.Cleanup(srv.Close)
	a := newAttachEnv(t)
	var st struct {
		HubPid int `json:"hubPid"`
	}
	a.json(&st, "session", "start", "web", "--url", srv.URL+"/?token=SEKRIT1", "--header", "Authorization: Bearer SEKRIT2x9y8z7", "--protocol", "2025-11-25")
	t.Cleanup(func() {
		_, _ = a.run("session", "stop", "web")
		_ = syscall.Kill(st.HubPid, syscall.SIGTERM)
		waitGone(t, st.HubPid, 10*time.Second)
	})
	tm := a.attach("web")
	tm.waitText("F6 Traffic")
	tm.press("F6")
	tm.waitText("Traffic: ")
	tm.press("Enter") // the newest frame, with its HTTP exchange
	screens := []string{tm.waitText("Authorization: Bearer [redacted]")}
	tm.press("Escape", "F12")
	screens = append(screens, tm.waitText("transport"))
	for _, s := range screens {
		if strings.Contains(s, "SEKRIT") {
			t.Fatalf("a secret reached the attached TUI:\n%s", s)
		}
	}
}
