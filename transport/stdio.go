package transport

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultShutdownGrace is how long Close waits at each step of stopping a
// stdio server (after closing stdin, after SIGTERM) before the next.
const DefaultShutdownGrace = 2 * time.Second

// Limits on what is kept of a server's stderr.
const (
	stderrLineLimit = 4 << 10 // longer lines are cut here
	stderrTail      = 8       // lines kept for the error that reports a server's exit
)

// Stdio runs an MCP server as a subprocess and speaks newline-delimited
// JSON-RPC on its stdin and stdout. Its stderr goes, line by line, to
// Observer.Stderr.
//
// The server runs in its own process group so that stopping it also stops
// whatever it started (npx, for one, runs the real server as a child).
// Being outside the terminal's foreground group also keeps a Ctrl-C meant
// for elicit from reaching the server behind our back.
type Stdio struct {
	Command string
	Args    []string
	// Env is added to os.Environ(); later entries win.
	Env []string
	// Dir is the working directory; empty means ours.
	Dir      string
	Observer Observer
	// ShutdownGrace is the wait at each step of Close: close stdin, wait,
	// SIGTERM, wait, SIGKILL. Zero means DefaultShutdownGrace.
	ShutdownGrace time.Duration
	// LineLimit bounds one incoming message; zero means DefaultLineLimit.
	LineLimit int
	// DieWithParent has the kernel kill the server (SIGKILL) when this
	// process dies without stopping it, where the system can (Linux's
	// parent-death signal): a long-lived process that holds servers for
	// others (the session hub) leaves none behind when it is killed. What
	// the server started sees its stdin close, as on any exit of ours.
	DieWithParent bool
}

var _ Transport = (*Stdio)(nil)

// Dial starts the server. ctx bounds only the start: the process lives
// until the Conn is closed or it exits by itself.
func (s *Stdio) Dial(ctx context.Context) (Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start %q: %w", s.Command, err)
	}
	if s.Command == "" {
		return nil, errors.New("start: no command given")
	}
	cmd := exec.Command(s.Command, s.Args...)
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.Dir = s.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if s.DieWithParent {
		dieWithParent(cmd.SysProcAttr)
	}

	// Our own pipes rather than cmd.StdoutPipe: exec closes those as soon as
	// the process exits, losing whatever it wrote last, and we want its
	// dying words.
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, fmt.Errorf("start %q: %w", s.Command, err)
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("start %q: %w", s.Command, err)
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("start %q: %w", s.Command, err)
	}
	growPipe(inW)  // our answers
	growPipe(outR) // the server's requests
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, fmt.Errorf("start %q: %w", s.Command, err)
	}
	// The child has its copies; ours of its ends would keep EOF from ever
	// arriving.
	inR.Close()
	outW.Close()
	errW.Close()

	grace := s.ShutdownGrace
	if grace <= 0 {
		grace = DefaultShutdownGrace
	}
	obs := s.Observer
	if obs == nil {
		obs = ObserverFuncs{}
	}
	p := &process{
		cmd:        cmd,
		grace:      grace,
		stdin:      inW,
		stdout:     outR,
		stderr:     errR,
		exited:     make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	go p.wait()
	go p.readStderr(obs)
	c := &stdioConn{proc: p}
	c.stream = newStream(outR, inW, p, obs, streamOptions{lineLimit: s.LineLimit, onEOF: p.eofError})
	return c, nil
}

// stdioConn is the Conn of a stdio server.
type stdioConn struct {
	*stream
	proc *process
}

// Pid returns the server's process id, which is also its process group id.
func (c *stdioConn) Pid() int { return c.proc.cmd.Process.Pid }

// Process returns the server process.
func (c *stdioConn) Process() *os.Process { return c.proc.cmd.Process }

// ExitError is the error Read returns when a stdio server's stdout ends. It
// wraps io.EOF (the server went away) and tells how the process ended and
// what it last said on stderr, so the person sees why it died.
type ExitError struct {
	// State is the process's exit state; nil if it was still running when
	// Read stopped waiting for it (it closed stdout but lived on).
	State *os.ProcessState
	// Stderr holds the last few stderr lines, oldest first, as written.
	Stderr []string
}

func (e *ExitError) Error() string {
	var b strings.Builder
	b.WriteString("transport: server closed the connection")
	if e.State != nil {
		fmt.Fprintf(&b, " (%s)", e.State) // "exit status 3", "signal: killed"
	} else {
		b.WriteString(" (process still running)")
	}
	if len(e.Stderr) > 0 {
		b.WriteString("; last stderr: ")
		b.WriteString(strings.Join(e.Stderr, " | "))
	}
	return b.String()
}

// Unwrap makes errors.Is(err, io.EOF) true.
func (e *ExitError) Unwrap() error { return io.EOF }

// process owns a running server: its pipes, its reaping, its stderr.
type process struct {
	cmd   *exec.Cmd
	grace time.Duration

	stdin, stdout, stderr *os.File

	exited chan struct{} // closed once the process is reaped
	state  *os.ProcessState

	stderrDone chan struct{}
	mu         sync.Mutex
	tail       []string // last stderrTail lines
}

// wait reaps the process as soon as it exits, so it never lingers as a
// zombie whoever else is waiting.
func (p *process) wait() {
	_ = p.cmd.Wait() // the state says everything the error would
	p.state = p.cmd.ProcessState
	close(p.exited)
}

// readStderr passes stderr on line by line and keeps the last few lines.
// Bytes are passed as written: making them safe to show is the UI's job.
func (p *process) readStderr(obs Observer) {
	defer close(p.stderrDone)
	br := bufio.NewReader(p.stderr)
	for {
		line, size, err := readLine(br, stderrLineLimit)
		if len(line) > 0 || err == nil {
			line = bytes.TrimSuffix(line, []byte{'\r'})
			s := string(line)
			if size > stderrLineLimit {
				s += fmt.Sprintf(" … [%d bytes cut]", size-len(line))
			}
			p.mu.Lock()
			if len(p.tail) == stderrTail {
				p.tail = append(p.tail[:0], p.tail[1:]...)
			}
			p.tail = append(p.tail, s)
			p.mu.Unlock()
			obs.Stderr(s)
		}
		if err != nil {
			return
		}
	}
}

// lastStderr returns a copy of the last stderr lines.
func (p *process) lastStderr() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.tail...)
}

// eofError builds Read's error once stdout ends. Stdout ending almost always
// means the process is exiting, so it waits a little for the exit status and
// the last stderr lines.
func (p *process) eofError(done <-chan struct{}) error {
	t := time.NewTimer(p.grace)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		return &ExitError{Stderr: p.lastStderr()}
	case <-done:
		return errClosed("read")
	}
	// Stderr ends with the process unless a child of it holds it open.
	select {
	case <-p.stderrDone:
	case <-t.C:
	case <-done:
		return errClosed("read")
	}
	return &ExitError{State: p.state, Stderr: p.lastStderr()}
}

// Close stops the server: close stdin and wait, then SIGTERM the group and
// wait, then SIGKILL it. It returns once the process is reaped and no member
// of its group is left (as far as can be told; see reapGroup).
func (p *process) Close() error {
	p.stdin.Close() // a well-behaved server exits on EOF
	if !p.waitExit(p.grace) {
		p.signalGroup(syscall.SIGTERM)
		if !p.waitExit(p.grace) {
			p.signalGroup(syscall.SIGKILL)
			<-p.exited
		}
	}
	p.reapGroup()
	// What the server wrote last may still be in the stderr pipe: let the
	// reader get to its end (the server's exit closed its write end) before
	// closing ours, which would drop it. Children that escaped the group
	// could still hold the pipe open, so the wait is bounded, and closing
	// our ends ends the readers regardless.
	t := time.NewTimer(p.grace)
	select {
	case <-p.stderrDone:
	case <-t.C:
	}
	t.Stop()
	p.stdout.Close()
	p.stderr.Close()
	<-p.stderrDone
	return nil
}

// waitExit reports whether the process exited within d.
func (p *process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// signalGroup signals every process in the server's group. ESRCH (nobody
// left) is the good case and not an error.
func (p *process) signalGroup(sig syscall.Signal) {
	_ = syscall.Kill(-p.cmd.Process.Pid, sig)
}

// groupAlive reports whether any process of the group still runs. A member
// that was killed and orphaned stays a zombie until init reaps it, and some
// inits (containers) never do; kill(-pgid, 0) counts those, so on Linux
// /proc is asked to tell zombies apart.
func (p *process) groupAlive() bool {
	pgid := p.cmd.Process.Pid
	if syscall.Kill(-pgid, 0) == syscall.ESRCH {
		return false
	}
	live, ok := procGroupLive(pgid)
	return live || !ok
}

// procGroupLive scans /proc for a member of group pgid that is not a zombie.
// ok is false when /proc cannot be read (not Linux).
func procGroupLive(pgid int) (live, ok bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false, false
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// "pid (comm) state ppid pgrp ..."; comm may hold anything, so
		// split after its closing parenthesis.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		if f[0] != "Z" && f[0] != "X" {
			return true, true
		}
	}
	return false, true
}

// reapGroup stops what the server left behind in its group after the
// server itself is gone: SIGTERM, a grace period, SIGKILL. Killed members
// are reparented and reaped by init, so it waits only a bounded time for
// them to disappear.
func (p *process) reapGroup() {
	if !p.groupAlive() {
		return
	}
	p.signalGroup(syscall.SIGTERM)
	if p.pollGroupGone(p.grace) {
		return
	}
	p.signalGroup(syscall.SIGKILL)
	p.pollGroupGone(p.grace)
}

// pollGroupGone polls until the group is empty or d has passed. There is no
// way to wait for processes that are not our children.
func (p *process) pollGroupGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if !p.groupAlive() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return !p.groupAlive()
}
