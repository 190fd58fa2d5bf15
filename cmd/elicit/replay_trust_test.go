package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// A replay runs a command, or connects to a URL, named only inside the
// recording when the person says so: by naming the server, by confirming
// on a terminal, or with --trust-recorded-command (internal/replay/trust.go).

// markedServer is a stdio demo server whose start leaves marker behind:
// whether a replay ran the recorded command is seen on the disk.
func markedServer(marker string) []string {
	return []string{"sh", "-c", `touch "$0"; exec "$1" demo --serve stdio`, marker, binPath}
}

// recordMarked records tools/list of markedServer, then removes the
// marker the recording left.
func recordMarked(t *testing.T, dir string, env ...string) (file, marker string) {
	t.Helper()
	file, marker = filepath.Join(dir, "tools.jsonl"), filepath.Join(dir, "started")
	cmd := append(append([]string{"env"}, env...), markedServer(marker)...)
	code, _, errs := runCLI(t, append([]string{"tools", "--record", file, "--"}, cmd...)...)
	if code != exit.OK {
		t.Fatalf("tools --record: exit %d: %s", code, errs)
	}
	if err := os.Remove(marker); err != nil {
		t.Fatalf("the recorded server did not start: %v", err)
	}
	return file, marker
}

func assertNotStarted(t *testing.T, marker string) {
	t.Helper()
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the command named only in the file ran")
	}
}

// TestReplayRefusesRecordedCommand: without a terminal, a replay of a
// recorded stdio server exits 2 before anything runs, says how to go on
// and shows the command; naming the server or passing the flag runs it.
func TestReplayRefusesRecordedCommand(t *testing.T) {
	dir := t.TempDir()
	f, marker := recordMarked(t, dir, "ELICIT_TRUST_TEST=1")
	code, out, errs := runCLI(t, "replay", f)
	assertNotStarted(t, marker)
	if code != exit.Usage || out != "" {
		t.Fatalf("replay of a recorded command: exit %d (want %d)\n%s%s", code, exit.Usage, out, errs)
	}
	for _, want := range []string{"--trust-recorded-command", "-- CMD ARGS", "--url URL", "--config FILE --server NAME",
		`server "sh" runs: env ELICIT_TRUST_TEST=1 sh -c 'touch "$0"; exec "$1" demo --serve stdio' ` + marker} {
		if !strings.Contains(errs, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, errs)
		}
	}
	// elicit replay -h says how.
	if code, _, usage := runCLI(t, "replay", "-h"); code != exit.OK || !strings.Contains(usage, "-trust-recorded-command") ||
		!strings.Contains(usage, "named only in the file is run when you name the server instead") {
		t.Errorf("replay -h: exit %d:\n%s", code, usage)
	}
	// --json too: nothing on stdout but the failure.
	if code, _, _ := runCLI(t, "replay", "--json", f); code != exit.Usage {
		t.Errorf("replay --json: exit %d", code)
	}
	assertNotStarted(t, marker)

	code, out, errs = runCLI(t, "replay", "--trust-recorded-command", f)
	if code != exit.OK || !strings.Contains(out, "all matched") || !strings.Contains(errs, `server "sh" runs: env`) {
		t.Fatalf("replay --trust-recorded-command: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("--trust-recorded-command did not run the recorded command")
	}
	os.Remove(marker)
	// The person names the server: nothing of the file's runs.
	code, out, errs = runCLI(t, "replay", f, "--", binPath, "demo", "--serve", "stdio")
	if code != exit.OK || !strings.Contains(out, "all matched") {
		t.Fatalf("replay against the server given: exit %d\n%s%s", code, out, errs)
	}
	assertNotStarted(t, marker)
}

// TestReplayRecordedEnvShown: the names of the environment variables a
// recorded command had are taken from this environment: the refusal (and
// the confirmation) says which, values not shown.
func TestReplayRecordedEnvShown(t *testing.T) {
	f, marker := recordMarked(t, t.TempDir())
	editSettings(t, f, func(s map[string]any) {
		srv := s["servers"].([]any)[0].(map[string]any)
		srv["envNames"] = []any{"AWS_SECRET_ACCESS_KEY", "HOME"}
	})
	t.Setenv("AWS_SECRET_ACCESS_KEY", "not-to-be-shown")
	code, _, errs := runCLI(t, "replay", f)
	assertNotStarted(t, marker)
	if code != exit.Usage || !strings.Contains(errs, "in this environment; recorded with AWS_SECRET_ACCESS_KEY, HOME set (values not shown)") ||
		strings.Contains(errs, "not-to-be-shown") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// TestReplayRefusesRecordedURL: a recorded HTTP server is a host the file
// chose: no request reaches it without the person's word.
func TestReplayRefusesRecordedURL(t *testing.T) {
	var hits atomic.Int64
	h := demo.HTTPHandler(nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	f := filepath.Join(t.TempDir(), "http.jsonl")
	if code, _, errs := runCLI(t, "tools", "--url", srv.URL+"/mcp", "--record", f); code != exit.OK {
		t.Fatalf("tools --url --record: exit %d: %s", code, errs)
	}
	hits.Store(0)
	code, _, errs := runCLI(t, "replay", f)
	if code != exit.Usage || hits.Load() != 0 || !strings.Contains(errs, `server "`) || !strings.Contains(errs, "connects to: "+srv.URL+"/mcp") {
		t.Fatalf("replay of a recorded URL: exit %d, %d requests: %s", code, hits.Load(), errs)
	}
	code, out, errs := runCLI(t, "replay", "--trust-recorded-command", f)
	if code != exit.OK || hits.Load() == 0 || !strings.Contains(out, "all matched") {
		t.Fatalf("replay --trust-recorded-command of a URL: exit %d\n%s%s", code, out, errs)
	}
}

// TestReplayRefusesRecordedServers: a recording of several servers
// starts none of those it names, the demo aside; --recorded NAME picks
// one, which is still the file's.
func TestReplayRefusesRecordedServers(t *testing.T) {
	dir := t.TempDir()
	f, marker := recordMarked(t, dir)
	editSettings(t, f, func(s map[string]any) {
		s["servers"] = append(s["servers"].([]any), map[string]any{"name": "demo", "kind": "demo"})
	})
	for _, args := range [][]string{{"replay", f}, {"replay", f, "--recorded", "sh"}} {
		code, _, errs := runCLI(t, args...)
		assertNotStarted(t, marker)
		if code != exit.Usage || !strings.Contains(errs, `server "sh" runs:`) || strings.Contains(errs, `server "demo"`) {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	// Only the demo replayed: nothing of the file's runs, no question.
	if code, out, errs := runCLI(t, "replay", f, "--recorded", "demo"); code != exit.OK {
		t.Errorf("--recorded demo: exit %d\n%s%s", code, out, errs)
	}
	assertNotStarted(t, marker)
}

// TestReplayConfigRunsOnlyTheNamedServer: --config FILE --server NAME
// names the server; the other entries' commands never run.
func TestReplayConfigRunsOnlyTheNamedServer(t *testing.T) {
	dir := t.TempDir()
	f, marker := recordMarked(t, dir)
	other := filepath.Join(dir, "other-started")
	cfgBody, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"a": map[string]any{"command": binPath, "args": []string{"demo", "--serve", "stdio"}},
		"b": map[string]any{"command": "touch", "args": []string{other}},
	}})
	cfg := writeFile(t, dir, "mcp.json", string(cfgBody))
	code, out, errs := runCLI(t, "replay", f, "--config", cfg, "--server", "a")
	if code != exit.OK || !strings.Contains(out, "all matched") {
		t.Fatalf("replay --config --server: exit %d\n%s%s", code, out, errs)
	}
	assertNotStarted(t, marker)
	assertNotStarted(t, other)
}

// TestReplayRefusesRecordedAgent: an ACP recording names the agent's
// command as a recording names a server's: the same rule.
func TestReplayRefusesRecordedAgent(t *testing.T) {
	dir := t.TempDir()
	f, marker := filepath.Join(dir, "acp.jsonl"), filepath.Join(dir, "started")
	agent := []string{"sh", "-c", `touch "$0"; exec "$1" demo --acp`, marker, binPath}
	code, _, errs := runBin(t, append([]string{"acp", "--prompt", "question", "--record", f, "--"}, agent...)...)
	if code != exit.OK {
		t.Fatalf("acp --record: exit %d: %s", code, errs)
	}
	os.Remove(marker)
	code, _, errs = runBin(t, "replay", f)
	assertNotStarted(t, marker)
	if code != exit.Usage || !strings.Contains(errs, `agent "sh" runs: sh -c`) || !strings.Contains(errs, "--trust-recorded-command") {
		t.Fatalf("replay of a recorded agent: exit %d: %s", code, errs)
	}
	code, out, errs := runBin(t, "replay", "--trust-recorded-command", f)
	if code != exit.OK || !strings.Contains(out, "all matched") {
		t.Fatalf("replay --trust-recorded-command: exit %d\n%s%s", code, out, errs)
	}
	os.Remove(marker)
	code, out, errs = runBin(t, "replay", f, "--", binPath, "demo", "--acp")
	if code != exit.OK || !strings.Contains(out, "all matched") {
		t.Fatalf("replay against the agent given: exit %d\n%s%s", code, out, errs)
	}
	assertNotStarted(t, marker)

	// Beside a server (elicit demo's shape): a server given does not
	// vouch for the agent, which the recording still names.
	editSettings(t, f, func(s map[string]any) {
		s["servers"] = []any{map[string]any{"name": "demo", "kind": "demo"}}
	})
	for _, args := range [][]string{{"replay", f}, {"replay", f, "--", binPath, "demo", "--serve", "stdio"}} {
		code, _, errs = runBin(t, args...)
		assertNotStarted(t, marker)
		if code != exit.Usage || !strings.Contains(errs, `agent "sh" runs: sh -c`) {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
}

// editSettings rewrites the settings line of the recording at path.
func editSettings(t *testing.T, path string, fn func(map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var m map[string]any
		if json.Unmarshal(line, &m) == nil && m["type"] == "settings" {
			fn(m)
			line, _ = json.Marshal(m)
		}
		out.Write(append(line, '\n'))
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReplayConfirmOnTerminal drives elicit replay in tmux: on a
// terminal, the command the recording names is shown whole before
// anything runs, and runs only on the person's y.
func TestReplayConfirmOnTerminal(t *testing.T) {
	dir := t.TempDir()
	f, marker := recordMarked(t, dir, "ELICIT_TRUST_TEST=1")
	for _, answer := range []string{"n", "y", "C-c"} {
		t.Run(answer, func(t *testing.T) {
			tm := newTmuxShell(t, 250, 30, dir, nil, "replay", f) // the paths whole on a line
			s := tm.waitText("Run it? [y/N]")
			for _, want := range []string{"tools.jsonl names what to run (the recording's content, not yours: check it):",
				`server "sh" runs: env ELICIT_TRUST_TEST=1 sh -c 'touch "$0"; exec "$1" demo --serve stdio'`} {
				if !strings.Contains(s, want) {
					t.Errorf("the question does not show %q:\n%s", want, s)
				}
			}
			assertNotStarted(t, marker)
			if answer == "C-c" {
				tm.press("C-c")
				s = tm.waitText("elicit exited")
				if !strings.Contains(s, "interrupted before anything ran") || !strings.Contains(s, "elicit exited 1") {
					t.Errorf("after Ctrl+C:\n%s", s)
				}
				assertNotStarted(t, marker)
				return
			}
			tm.typeText(answer)
			tm.press("Enter")
			if answer == "n" {
				s = tm.waitText("elicit exited")
				if !strings.Contains(s, "not confirmed: nothing was run") || !strings.Contains(s, "--trust-recorded-command") ||
					!strings.Contains(s, "elicit exited 2") {
					t.Errorf("after n:\n%s", s)
				}
				assertNotStarted(t, marker)
				return
			}
			s = tm.waitText("elicit exited")
			if !strings.Contains(s, "all matched") || !strings.Contains(s, "elicit exited 0") {
				t.Errorf("after y:\n%s", s)
			}
			if err := os.Remove(marker); err != nil {
				t.Error("y did not run the recorded command")
			}
		})
	}
}

// TestReplayRecordedRoots: the roots a recording offers tell a server
// where it may work (a filesystem server takes them for its allowed
// directories): offered to a server the person named, they widen what
// the person allowed, so they need the person's word as a command does;
// --root given replaces them.
func TestReplayRecordedRoots(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "roots.jsonl")
	if code, _, errs := runCLI(t, "tools", "--root", "/", "--record", f); code != exit.OK {
		t.Fatalf("tools --root --record: exit %d: %s", code, errs)
	}
	editSettings(t, f, func(s map[string]any) {
		s["servers"].([]any)[0].(map[string]any)["kind"] = "stdio" // as if recorded against a command
		s["servers"].([]any)[0].(map[string]any)["command"] = "true"
	})
	server := []string{"--", binPath, "demo", "--serve", "stdio"}
	code, _, errs := runCLI(t, append([]string{"replay", f}, server...)...)
	if code != exit.Usage || !strings.Contains(errs, `server "demo" (the one you named), as the recording says:`) ||
		!strings.Contains(errs, "offered the roots file:/// (--root replaces them)") {
		t.Fatalf("replay with recorded roots: exit %d: %s", code, errs)
	}
	for _, extra := range [][]string{{"--root", dir}, {"--trust-recorded-command"}} {
		code, out, errs := runCLI(t, append(append([]string{"replay", f}, extra...), server...)...)
		if code != exit.OK {
			t.Errorf("%v: exit %d\n%s%s", extra, code, out, errs)
		}
	}
	// The recorded server itself shows its roots beside its command.
	code, _, errs = runCLI(t, "replay", f)
	if code != exit.Usage || !strings.Contains(errs, `server "demo" runs: true`) || !strings.Contains(errs, "offered the roots file:///") {
		t.Errorf("replay of the recorded command: exit %d: %s", code, errs)
	}
}

// TestReplayRecordedAgentCwd: the session cwd a recording gives an agent
// is where the agent works and, with --allow-fs, where elicit writes for
// it: a directory other than this one needs the person's word, for the
// demo agent (which writes notes.txt there) and for an agent named.
func TestReplayRecordedAgentCwd(t *testing.T) {
	work := t.TempDir()
	f := filepath.Join(t.TempDir(), "write.jsonl")
	notes := filepath.Join(work, "notes.txt")
	code, _, errs := runBin(t, "acp", "--prompt", "write", "--allow-fs", "--permission", "allow", "--cwd", work, "--record", f)
	if code != exit.OK {
		t.Fatalf("acp --record: exit %d: %s", code, errs)
	}
	if err := os.Remove(notes); err != nil {
		t.Fatalf("the recorded turn wrote no notes.txt: %v", err)
	}
	for _, tc := range []struct {
		args  []string
		whose string
	}{
		{[]string{"replay", f}, `agent "demo-agent" (elicit's demo agent), as the recording says:`},
		{[]string{"replay", f, "--", binPath, "demo", "--acp"}, `agent "demo-agent" (the one you named), as the recording says:`},
	} {
		code, _, errs := runBin(t, tc.args...)
		if code != exit.Usage || !strings.Contains(errs, tc.whose) || !strings.Contains(errs, "its session in "+work) ||
			!strings.Contains(errs, "allowed to read and write files there") {
			t.Errorf("%v: exit %d: %s", tc.args, code, errs)
		}
		if _, err := os.Stat(notes); err == nil {
			t.Fatalf("%v: the replay wrote in the recording's cwd", tc.args)
		}
	}
	code, out, errs := runBin(t, "replay", "--trust-recorded-command", f)
	if code != exit.OK || !strings.Contains(out, "all matched") {
		t.Fatalf("replay --trust-recorded-command: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(notes); err != nil {
		t.Error("the trusted replay did not write notes.txt in the recorded cwd")
	}
}

// TestReplayNamedAgentRunsHere: an agent the person names runs where they
// run elicit, as a server named does; the recorded agent's directory is
// the recording's, and does not apply to it.
func TestReplayNamedAgentRunsHere(t *testing.T) {
	f := filepath.Join(t.TempDir(), "acp.jsonl")
	if code, _, errs := runBin(t, "acp", "--prompt", "question", "--record", f); code != exit.OK {
		t.Fatalf("acp --record: exit %d: %s", code, errs)
	}
	editSettings(t, f, func(s map[string]any) {
		s["agents"].([]any)[0].(map[string]any)["dir"] = filepath.Join(t.TempDir(), "chosen-by-the-file")
	})
	code, out, errs := runBin(t, "replay", f, "--", binPath, "demo", "--acp")
	if code != exit.OK || !strings.Contains(out, "all matched") {
		t.Errorf("replay against the agent named: exit %d\n%s%s", code, out, errs)
	}
}

// newTmuxShell runs elicit with args (and env) in tmux under a shell that
// says how it exited ("elicit exited N") and stays, so the screen can be
// read after elicit is gone: tmux's own dead-pane notice came late, or
// not at all, under load.
func newTmuxShell(t *testing.T, cols, rows int, dir string, env []string, args ...string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux not installed, under CI=true (.ci/run installs it)")
		}
		t.Skip("tmux not installed (.ci/run installs it)")
	}
	tm := &tmuxTerm{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	// The shell outlives a Ctrl+C sent to elicit (a trap, not an ignored
	// signal, which elicit would inherit).
	script := `trap true INT; "$@"; echo "elicit exited $?"; exec sleep 600`
	cmd := append([]string{"new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "-c", dir, "--",
		"env", "TERM=xterm-256color", "XDG_STATE_HOME=" + filepath.Join(dir, "state")}, env...)
	tm.run(append(append(cmd, "sh", "-c", script, "sh", binPath), args...)...)
	tm.run("set-option", "-s", "escape-time", "10")
	pid, _ := strconv.Atoi(strings.TrimSpace(tm.run("display-message", "-p", "#{pane_pid}")))
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-S", tm.socket, "kill-server").Run()
		waitGone(t, pid, 10*time.Second)
	})
	return tm
}
