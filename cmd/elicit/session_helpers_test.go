package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
)

// hubServerEnv makes the test binary the scripted MCP server of the
// session tests (runHubTestServer); hubDialEnv makes it a client that
// dials the socket it names and tries one request (runHubDialer).
const (
	hubServerEnv = "ELICIT_TEST_HUB_SERVER"
	hubDialEnv   = "ELICIT_TEST_HUB_DIAL"
	// hubStubbornEnv: the server does not exit when its stdin closes.
	hubStubbornEnv = "ELICIT_TEST_HUB_STUBBORN"
)

// waitBound bounds every wait of these tests for the hub or a process:
// a failure, never a pace.
const waitBound = 20 * time.Second

// runHubTestServer speaks 2025-11-25 over stdio with four tools: ask (an
// elicitation whose message is the "message" argument; the call answers
// with what the client replied), withdraw (asks, and keeps the question
// open until pull), pull (withdraws withdraw's question with
// notifications/cancelled and ends both calls) and log (the request ids
// the client cancelled, comma-separated).
func runHubTestServer() bool {
	if os.Getenv(hubServerEnv) == "" {
		return false
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := json.NewEncoder(os.Stdout)
	text := func(id json.RawMessage, s string) {
		_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{
			"content": []any{map[string]any{"type": "text", "text": s}}}})
	}
	ask := func(eid, message string) {
		_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": eid, "method": "elicitation/create", "params": map[string]any{
			"message": message, "requestedSchema": map[string]any{"type": "object",
				"properties": map[string]any{
					"name":  map[string]any{"type": "string", "minLength": 2},
					"count": map[string]any{"type": "integer", "default": 1},
				}, "required": []string{"name"}}}})
	}
	pending := map[string]json.RawMessage{} // our elicitation's id → the call it asks for
	var cancelled []string
	var withdrawCall json.RawMessage
	n := 0
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch {
		case m.Method == "initialize":
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{
				"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "hubtest", "version": "1"}}})
		case m.Method == "tools/list":
			var tools []any
			for _, name := range []string{"ask", "withdraw", "pull", "log"} {
				tools = append(tools, map[string]any{"name": name, "inputSchema": map[string]any{"type": "object"}})
			}
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"tools": tools}})
		case m.Method == "tools/call":
			var p struct {
				Name      string         `json:"name"`
				Arguments map[string]any `json:"arguments"`
			}
			_ = json.Unmarshal(m.Params, &p)
			switch p.Name {
			case "ask":
				n++
				eid := fmt.Sprintf("ask-%d", n)
				pending[`"`+eid+`"`] = m.ID
				msg, _ := p.Arguments["message"].(string)
				ask(eid, msg)
			case "withdraw":
				pending[`"wd"`], withdrawCall = m.ID, m.ID
				ask("wd", "withdrawn soon")
			case "pull":
				delete(pending, `"wd"`)
				_ = out.Encode(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
					"params": map[string]any{"requestId": "wd", "reason": "pulled"}})
				text(withdrawCall, "withdrawn")
				text(m.ID, "pulled")
			case "log":
				text(m.ID, strings.Join(cancelled, ","))
			}
		case m.Method == "notifications/cancelled":
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			_ = json.Unmarshal(m.Params, &p)
			cancelled = append(cancelled, string(p.RequestID))
		case m.Method == "" && (m.Result != nil || m.Error != nil):
			if call, ok := pending[string(m.ID)]; ok {
				delete(pending, string(m.ID))
				text(call, string(m.Result))
			}
		case m.Method != "" && len(m.ID) > 0:
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "no " + m.Method}})
		}
	}
	if os.Getenv(hubStubbornEnv) != "" {
		select {} // a server that outlives its stdin, until it is killed
	}
	return true
}

// runHubDialer dials the socket hubDialEnv names, sends session/list and
// prints what came back: how a process of another user fares.
func runHubDialer() bool {
	path := os.Getenv(hubDialEnv)
	if path == "" {
		return false
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		fmt.Printf("uid %d dial: %v\n", os.Getuid(), err)
		return true
	}
	defer c.Close()
	fmt.Fprintln(c, `{"jsonrpc":"2.0","id":1,"method":"session/list"}`)
	line, err := bufio.NewReader(c).ReadString('\n')
	fmt.Printf("uid %d read %q (%v)\n", os.Getuid(), line, err)
	return true
}

// hubEnv is one test's own hub: its own XDG_RUNTIME_DIR and HOME, so the
// hubs of parallel tests never meet; its Cleanup stops every session and
// waits for the hub and the servers to be gone.
type hubEnv struct {
	t    *testing.T
	env  []string
	xdg  string
	dir  string // the commands' working folder ("" for ours)
	pids []int  // hubs and servers seen, each must be gone at the end
}

func newHubEnv(t *testing.T) *hubEnv {
	t.Helper()
	root := t.TempDir()
	xdg, home := filepath.Join(root, "run"), filepath.Join(root, "home")
	for _, d := range []string{xdg, home} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_CACHE_HOME=")
	})
	env = append(env, "XDG_RUNTIME_DIR="+xdg, "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, ".cache"))
	h := &hubEnv{t: t, env: env, xdg: xdg}
	t.Cleanup(h.cleanup)
	return h
}

// paths are the hub's files in this test's folder.
func (h *hubEnv) paths() hub.Paths {
	d := filepath.Join(h.xdg, "elicit")
	return hub.Paths{Dir: d, Socket: filepath.Join(d, "hub.sock"), Log: filepath.Join(d, "hub.log")}
}

// command is elicit args with this test's environment.
func (h *hubEnv) command(args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	cmd := exec.Command(binPath, args...)
	cmd.Env, cmd.Dir = h.env, h.dir
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	return cmd, &out, &errs
}

// run runs elicit args to its end.
func (h *hubEnv) run(args ...string) (code int, stdout, stderr []byte) {
	h.t.Helper()
	cmd, out, errs := h.command(args...)
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		h.t.Fatalf("run %v: %v", args, err)
	}
	return code, out.Bytes(), errs.Bytes()
}

// serverArgs are the flags that run the scripted server of these tests.
func serverArgs(t *testing.T) []string {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"--", "env", hubServerEnv + "=1", self}
}

// start starts session name on the scripted server and returns what it
// printed.
func (h *hubEnv) start(name string, extra ...string) hub.StartResult {
	h.t.Helper()
	return h.startOn(name, serverArgs(h.t), extra...)
}

// startOn starts session name with the server flags server.
func (h *hubEnv) startOn(name string, server []string, extra ...string) hub.StartResult {
	h.t.Helper()
	args := append([]string{"session", "start", name}, extra...)
	code, out, errs := h.run(append(args, server...)...)
	if code != 0 {
		h.t.Fatalf("session start: exit %d\n%s\n%s", code, out, errs)
	}
	var r hub.StartResult
	if err := json.Unmarshal(out, &r); err != nil {
		h.t.Fatalf("session start printed %s: %v", out, err)
	}
	h.pids = append(h.pids, r.HubPid)
	if r.Pid != 0 {
		h.pids = append(h.pids, r.Pid)
	}
	return r
}

// questions polls elicit questions until ok says they are what the test
// waits for (the JSON the command prints is the state; no sleep).
func (h *hubEnv) questions(session string, ok func([]hub.QuestionInfo) bool) []hub.QuestionInfo {
	h.t.Helper()
	deadline := time.Now().Add(waitBound)
	for {
		code, out, errs := h.run("questions", "--session", session)
		var qs []hub.QuestionInfo
		if code != 0 || json.Unmarshal(out, &qs) != nil {
			h.t.Fatalf("questions: exit %d\n%s\n%s", code, out, errs)
		}
		if ok(qs) {
			return qs
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("questions never became what the test waits for: %s", out)
		}
	}
}

// cleanup stops what is left and checks that no hub or server outlives
// the test.
func (h *hubEnv) cleanup() {
	code, out, _ := h.run("session", "list")
	var list []hub.SessionInfo
	if code == 0 && json.Unmarshal(out, &list) == nil {
		for _, s := range list {
			h.run("session", "stop", s.Session)
		}
	}
	for _, pid := range h.pids {
		if !pidGone(pid, waitBound) {
			h.t.Errorf("process %d outlived the test", pid)
			_ = unix.Kill(pid, unix.SIGKILL)
		}
	}
}

// pidGone waits (bounded) for process pid to exit: its pidfd becomes
// readable then. A pid already gone is gone.
func pidGone(pid int, bound time.Duration) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return errors.Is(err, unix.ESRCH)
	}
	defer unix.Close(fd)
	deadline := time.Now().Add(bound)
	for {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(time.Until(deadline).Milliseconds()))
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return false
		}
		return n == 1
	}
}

// proc is an elicit command running in the background.
type proc struct {
	cmd       *exec.Cmd
	out, errs *bytes.Buffer
	done      chan struct{}
	code      int
}

// background starts elicit args; the test's end kills it if it still
// runs.
func (h *hubEnv) background(args ...string) *proc {
	h.t.Helper()
	cmd, out, errs := h.command(args...)
	if err := cmd.Start(); err != nil {
		h.t.Fatal(err)
	}
	p := &proc{cmd: cmd, out: out, errs: errs, done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			p.code = ee.ExitCode()
		}
		close(p.done)
	}()
	h.t.Cleanup(func() { _ = cmd.Process.Kill(); <-p.done })
	return p
}

// wait waits (bounded) for p's end and returns its exit code.
func (p *proc) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(waitBound):
		t.Fatalf("%v still runs after %s\n%s\n%s", p.cmd.Args, waitBound, p.out, p.errs)
		return -1
	}
}
