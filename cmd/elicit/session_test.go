package main

import (
	"encoding/json"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
)

// TestSessionStartListStop: session start prints the session, server,
// protocol, era and pids once ready; list shows it (questions, calls,
// since) and [] once it stopped; a second start of the name exits 2, a
// server that cannot start exits 3, commands on an unknown session exit
// 3; the folder is 0700 and the socket 0600; the hub is gone after the
// last stop (cleanup waits for it).
func TestSessionStartListStop(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	if code, out, _ := h.run("session", "list"); code != 0 || strings.TrimSpace(string(out)) != "[]" {
		t.Fatalf("session list without a hub: exit %d, %s", code, out)
	}
	r := h.start("one")
	if r.Session != "one" || r.Server == "" || r.Protocol != "2025-11-25" || r.Era == "" || r.Pid == 0 || r.HubPid == 0 {
		t.Fatalf("session start printed %+v", r)
	}
	for path, want := range map[string]os.FileMode{h.paths().Dir: 0o700, h.paths().Socket: 0o600, h.paths().Log: 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s has mode %04o, want %04o", path, got, want)
		}
	}
	if fi, _ := os.Stat(h.paths().Socket); fi.Mode()&os.ModeSocket == 0 {
		t.Errorf("%s is not a socket on the file system", h.paths().Socket)
	}

	code, out, errs := h.run("session", "list")
	var list []hub.SessionInfo
	if code != 0 || json.Unmarshal(out, &list) != nil || len(list) != 1 {
		t.Fatalf("session list: exit %d\n%s\n%s", code, out, errs)
	}
	if s := list[0]; s.Session != "one" || s.Server != r.Server || s.Protocol != r.Protocol || s.Questions != 0 || s.Calls != 0 || s.Since.IsZero() {
		t.Errorf("session list shows %+v", s)
	}
	for _, key := range []string{`"session"`, `"server"`, `"protocol"`, `"questions"`, `"calls"`, `"since"`} {
		if !strings.Contains(string(out), key) {
			t.Errorf("session list lacks %s: %s", key, out)
		}
	}

	if code, out, _ := h.run(append([]string{"session", "start", "one"}, serverArgs(t)...)...); code != exit.Usage || !strings.Contains(string(out), "running already") {
		t.Errorf("a second start of one: exit %d, %s", code, out)
	}
	if code, out, _ := h.run("session", "start", "bad", "--", "/nonexistent/server"); code != exit.Connect {
		t.Errorf("a server that cannot start: exit %d, %s", code, out)
	}
	if code, out, _ := h.run("questions", "--session", "nope"); code != exit.Connect || !strings.Contains(string(out), "no session") {
		t.Errorf("questions on an unknown session: exit %d, %s", code, out)
	}
	if code, out, _ := h.run("tools", "--session", "one", "--demo"); code != exit.Usage {
		t.Errorf("tools --session with a server of its own: exit %d, %s", code, out)
	}

	code, out, errs = h.run("tools", "--session", "one")
	if code != 0 || !strings.Contains(string(out), `"ask"`) {
		t.Fatalf("tools --session: exit %d\n%s\n%s", code, out, errs)
	}

	code, out, errs = h.run("session", "stop", "one")
	var stop hub.StopResult
	if code != 0 || json.Unmarshal(out, &stop) != nil || !stop.Stopped {
		t.Fatalf("session stop: exit %d\n%s\n%s", code, out, errs)
	}
	for _, pid := range []int{r.Pid, r.HubPid} {
		if !pidGone(pid, waitBound) {
			t.Errorf("process %d still runs after the last session stopped", pid)
		}
	}
	if code, out, _ := h.run("session", "list"); code != 0 || strings.TrimSpace(string(out)) != "[]" {
		t.Errorf("session list after the stop: exit %d, %s", code, out)
	}
	if code, _, errs := h.run("session", "stop", "one"); code != exit.Connect {
		t.Errorf("stopping a stopped session: exit %d, %s", code, errs)
	}
}

// TestSessionStartsRace: starts that race on a machine with no hub make
// one hub between them.
func TestSessionStartsRace(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	var starts []*proc
	for _, name := range []string{"a", "b", "c"} {
		starts = append(starts, h.background(append([]string{"session", "start", name}, serverArgs(t)...)...))
	}
	hubs := map[int]bool{}
	for _, p := range starts {
		var r hub.StartResult
		if code := p.wait(t); code != 0 || json.Unmarshal(p.out.Bytes(), &r) != nil {
			t.Fatalf("session start: exit %d\n%s\n%s", code, p.out, p.errs)
		}
		hubs[r.HubPid] = true
		h.pids = append(h.pids, r.HubPid, r.Pid)
	}
	if len(hubs) != 1 {
		t.Errorf("three racing starts made %d hubs", len(hubs))
	}
}

// TestSessionServerGone: a session whose server went away while the hub
// lives says so in the list, and commands on it exit 3 saying
// "disconnected".
func TestSessionServerGone(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	r := h.start("g")
	if err := syscall.Kill(r.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !pidGone(r.Pid, waitBound) {
		t.Fatal("the server outlived SIGKILL")
	}
	// The list is the state: poll it until the session says so.
	deadline := time.Now().Add(waitBound)
	for {
		_, out, _ := h.run("session", "list")
		if strings.Contains(string(out), `"disconnected"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("session list never said disconnected: %s", out)
		}
	}
	code, out, errs := h.run("call", "ask", "--session", "g")
	if code != exit.Connect || !strings.Contains(string(out), "disconnected") {
		t.Errorf("call on a session whose server is gone: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestSessionHeadlessCommands: every headless command runs on a session
// and prints its usual JSON (check its table), naming the session's
// server; a flag error is still the command's own (exit 2).
func TestSessionHeadlessCommands(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	h.startOn("d", []string{"--demo"}, "--protocol", "2025-11-25")
	for _, args := range [][]string{
		{"tools"}, {"resources"}, {"templates"}, {"prompts"}, {"ping"},
		{"read", "demo://readme"}, {"get", "greet", "--args", `{"name":"Ada"}`},
		{"call", "echo", "--args", `{"text":"hi"}`}, {"check"},
	} {
		code, out, errs := h.run(append(args, "--session", "d")...)
		if code != 0 || !strings.Contains(string(out), "demo") {
			t.Errorf("%s --session d: exit %d\n%s\n%s", args[0], code, out, errs)
		}
	}
	if code, out, _ := h.run("tools", "--session", "d", "--nope"); code != exit.Usage || !strings.Contains(string(out), `"usage"`) {
		t.Errorf("a bad flag on a session: exit %d, %s", code, out)
	}
}
