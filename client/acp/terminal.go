package acp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
)

// The terminal methods: served only with Options.AllowTerminal.
const (
	MethodTerminalCreate  = "terminal/create"
	MethodTerminalOutput  = "terminal/output"
	MethodTerminalWait    = "terminal/wait_for_exit"
	MethodTerminalKill    = "terminal/kill"
	MethodTerminalRelease = "terminal/release"
)

// MaxTerminalBytes bounds the output a terminal keeps when the agent
// gives no outputByteLimit, or a larger one.
const MaxTerminalBytes = 1 << 20

// MaxTerminals bounds the terminals an agent holds at once (created, not
// yet released): each is a process and a PTY, and a policy that allows
// every command must not let an agent start them without end.
const MaxTerminals = 32

// terminalDrain bounds how long an exited command's last output is
// waited for: a child it left behind may hold the PTY open for ever.
const terminalDrain = time.Second

// ExitStatus is how a terminal's command ended: its exit code, or the
// signal that ended it.
type ExitStatus struct {
	ExitCode *int    `json:"exitCode"`
	Signal   *string `json:"signal"`
}

// terminal is one command run in a PTY for the agent.
type terminal struct {
	id, session string
	seq         int // its place in creation order
	// what is the command line, for the journal and the UI.
	what  string
	cmd   *exec.Cmd
	ptmx  *os.File
	limit int

	mu        sync.Mutex
	out       []byte
	truncated bool
	exit      ExitStatus
	// ended says who ended it ("killed by the person"…); "" if it
	// exited by itself.
	ended string

	// exited is closed once the command exited and its output drained
	// (bounded); readDone when the PTY's reading ended.
	exited   chan struct{}
	readDone chan struct{}
}

// terminalRun is a terminal/create asked of a person, started once
// allowed.
type terminalRun struct {
	session, command string
	args             []string
	env              []string
	dir              string
	limit            int
}

// start runs the command in a new PTY.
func (r *terminalRun) start(id string) (*terminal, error) {
	cmd := exec.Command(r.command, r.args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	ptmx, err := pty.Start(cmd)
	if err != nil {
		return nil, err
	}
	t := &terminal{id: id, session: r.session, what: strings.Join(append([]string{r.command}, r.args...), " "), cmd: cmd, ptmx: ptmx,
		limit: r.limit, exited: make(chan struct{}), readDone: make(chan struct{})}
	go t.read()
	go t.wait()
	return t, nil
}

// read keeps the PTY's output, cut from the beginning (at a character
// boundary) to the limit, as ACP says.
func (t *terminal) read() {
	defer close(t.readDone)
	buf := make([]byte, 32<<10)
	for {
		n, err := t.ptmx.Read(buf)
		if n > 0 {
			t.mu.Lock()
			t.out = append(t.out, buf[:n]...)
			if len(t.out) > t.limit {
				cut := len(t.out) - t.limit
				for cut < len(t.out) && !utf8.RuneStart(t.out[cut]) {
					cut++
				}
				t.out = append(t.out[:0], t.out[cut:]...)
				t.truncated = true
			}
			t.mu.Unlock()
		}
		if err != nil {
			return // EIO once the command and its children closed the PTY
		}
	}
}

// wait reaps the command and notes how it ended.
func (t *terminal) wait() {
	err := t.cmd.Wait()
	drain := time.NewTimer(terminalDrain)
	select {
	case <-t.readDone:
	case <-drain.C:
	}
	drain.Stop()
	var st ExitStatus
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			s := ws.Signal().String()
			if name := signalName(ws.Signal()); name != "" {
				s = name
			}
			st.Signal = &s
		} else {
			code := ee.ExitCode()
			st.ExitCode = &code
		}
	} else if err == nil {
		code := 0
		st.ExitCode = &code
	}
	t.mu.Lock()
	t.exit = st
	t.mu.Unlock()
	close(t.exited)
}

// signalName is a signal's conventional name ("SIGKILL").
func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return ""
}

// done reports whether the command has exited.
func (t *terminal) done() bool {
	select {
	case <-t.exited:
		return true
	default:
		return false
	}
}

// kill ends the command (if it still runs), saying who did; the
// terminal stays until released.
func (t *terminal) kill(who string) bool {
	if t.done() {
		return false
	}
	t.mu.Lock()
	if t.ended == "" {
		t.ended = who
	}
	t.mu.Unlock()
	if p := t.cmd.Process; p != nil {
		// The whole process group (pty.Start made the command a session
		// leader): what it started in the background ends with it.
		if syscall.Kill(-p.Pid, syscall.SIGKILL) != nil {
			_ = p.Kill()
		}
	}
	return true
}

// close kills the command and frees the PTY, waiting (bounded) for it
// to be reaped.
func (t *terminal) close(who string) {
	t.kill(who)
	timer := time.NewTimer(terminalDrain)
	defer timer.Stop()
	select {
	case <-t.exited:
	case <-timer.C:
	}
	t.ptmx.Close()
}

// output is terminal/output's result.
func (t *terminal) output() map[string]any {
	t.mu.Lock()
	defer t.mu.Unlock()
	res := map[string]any{"output": string(t.out), "truncated": t.truncated}
	if t.done() {
		res["exitStatus"] = t.exit
	}
	return res
}

// status is the exit status (after exited) and who ended it.
func (t *terminal) status() (ExitStatus, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.exit, t.ended
}

// endedText words how a terminal ended, for its Action.
func (t *terminal) endedText() string {
	st, who := t.status()
	switch {
	case who != "":
		return who
	case st.Signal != nil:
		return "killed by " + *st.Signal
	case st.ExitCode != nil:
		return fmt.Sprintf("exited %d", *st.ExitCode)
	}
	return "ended"
}

// waitExit waits until the command exits or ctx ends.
func (t *terminal) waitExit(ctx context.Context) error {
	select {
	case <-t.exited:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
