package transport_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// testServer returns the server function the re-executed test binary runs
// for name.
func testServer(name string) (func(), bool) {
	servers := map[string]func(){
		"echo":        func() { echo() },
		"stderr":      serveStderr,
		"stderr-exit": serveStderrThenExit,
		"garbage":     serveGarbage,
		"exit3":       serveExit3,
		"ignore-eof":  serveIgnoreEOF,
		"ignore-term": serveIgnoreTerm,
		"grandchild":  serveGrandchild,
		"sleeper":     serveSleeper,
		"ids":         serveIDs,
	}
	f, ok := servers[name]
	return f, ok
}

// echo writes every stdin line back to stdout unchanged, until EOF.
func echo() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			out.Write(line)
			out.Flush()
		}
		if err != nil {
			return
		}
	}
}

func serveStderr() {
	fmt.Fprintln(os.Stderr, "starting up")
	os.Stderr.WriteString("bad \xff\xfe bytes\n")
	os.Stderr.WriteString(strings.Repeat("z", 10000) + "\n")
	os.Stderr.WriteString("crlf line\r\n")
	os.Stderr.WriteString("no newline at the end")
	fmt.Println(`{"jsonrpc":"2.0","method":"ready"}`)
	echo()
}

// serveStderrThenExit writes stderr lines, says ready and exits at EOF:
// its last lines are still in the pipe when it is gone.
func serveStderrThenExit() {
	for i := range stderrExitLines {
		fmt.Fprintf(os.Stderr, "line %d %s\n", i, strings.Repeat("s", 500))
	}
	fmt.Println(`{"jsonrpc":"2.0","method":"ready"}`)
	echo()
}

// More than a pipe holds, so some are in it when the server exits.
const stderrExitLines = 300

// serveGarbage prints a banner on stdout before speaking JSON-RPC, as some
// servers wrongly do.
func serveGarbage() {
	fmt.Println("Starting server on stdio...")
	fmt.Println("{not json")
	fmt.Println(`{"jsonrpc":"2.0","method":"ready"}`)
	echo()
}

func serveExit3() {
	for i := range 20 {
		fmt.Fprintf(os.Stderr, "log line %d\n", i)
	}
	fmt.Fprintln(os.Stderr, "fatal: cannot bind port 1234")
	os.Exit(3)
}

// serveIgnoreEOF keeps running after stdin ends; SIGTERM stops it.
func serveIgnoreEOF() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	echo()
	fmt.Fprintln(os.Stderr, "stdin closed, staying up")
	<-sig
	fmt.Fprintln(os.Stderr, "got SIGTERM, exiting")
	os.Exit(0)
}

// serveIgnoreTerm ignores stdin EOF and SIGTERM; only SIGKILL stops it.
func serveIgnoreTerm() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	echo()
	<-sig
	fmt.Fprintln(os.Stderr, "got SIGTERM, ignoring it")
	time.Sleep(time.Hour) // a deliberate peer: only SIGKILL ends it
}

// serveGrandchild starts a child that ignores SIGTERM (it holds our stderr
// too), announces its pid, and exits on stdin EOF without waiting for it:
// the npx pattern gone wrong.
func serveGrandchild() {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	child := exec.Command(exe)
	child.Env = append(os.Environ(), serverEnvFor("sleeper")...)
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		panic(err)
	}
	fmt.Printf(`{"jsonrpc":"2.0","method":"child","params":{"pid":%d}}`+"\n", child.Process.Pid)
	echo()
}

func serveSleeper() {
	signal.Ignore(syscall.SIGTERM)
	fmt.Fprintln(os.Stderr, "sleeper up")
	time.Sleep(time.Hour) // a deliberate peer: only SIGKILL ends it
}

// stdioConn is what a stdio Conn offers tests beyond Conn.
type stdioConn interface {
	transport.Conn
	Pid() int
	Process() *os.Process
}

// serverEnvFor is the environment that makes the test binary run the
// named server.
func serverEnvFor(name string) []string {
	// The race detector sleeps a second at exit by default, which would
	// make every server look slow to stop.
	return []string{serverEnv + "=" + name, "GORACE=atexit_sleep_ms=0"}
}

// dial starts the named test server from this test binary.
func dial(t *testing.T, name string, obs transport.Observer, grace time.Duration) stdioConn {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := &transport.Stdio{
		Command:       exe,
		Env:           serverEnvFor(name),
		Observer:      obs,
		ShutdownGrace: grace,
	}
	c, err := s.Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := c.(stdioConn)
	if !ok {
		t.Fatalf("stdio Conn %T has no Pid/Process", c)
	}
	return sc
}

// gone reports whether pid no longer runs: no such process, or a zombie
// left for an init that has not reaped it yet (it runs no code).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}

func TestStdioEcho(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c := dial(t, "echo", rec, time.Second)
	defer c.Close()
	ctx := t.Context()
	req := mustRequest(t, 1, "ping", map[string]string{"x": "y\nz"})
	if err := c.Write(ctx, req, nil); err != nil {
		t.Fatal(err)
	}
	m, err := msgOf(c.Read(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != req.ID || m.Method != "ping" || string(m.Params) != string(req.Params) {
		t.Errorf("echo returned %+v", m)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if !gone(c.Pid()) {
		t.Errorf("process %d still there after Close", c.Pid())
	}
	// Our out frame and the echoed in frame carry the same bytes.
	frames := rec.Frames()
	if len(frames) != 2 || frames[0].Dir != transport.Out || frames[1].Dir != transport.In ||
		string(frames[0].Raw) != string(frames[1].Raw) {
		t.Errorf("frames = %+v", frames)
	}
}

func TestStdioLargeMessages(t *testing.T) {
	t.Parallel()
	c := dial(t, "echo", nil, time.Second)
	defer c.Close()
	big := strings.Repeat("abcdefghijklmnop", 1<<20) // 16 MiB
	errc := make(chan error, 1)
	go func() { errc <- c.Write(t.Context(), mustRequest(t, 1, "big", map[string]string{"data": big}), nil) }()
	m, err := msgOf(c.Read(t.Context()))
	if err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	var p struct{ Data string }
	if err := json.Unmarshal(m.Params, &p); err != nil || p.Data != big {
		t.Fatalf("echoed %d bytes (err %v), want %d", len(p.Data), err, len(big))
	}
}

func TestStdioConcurrentWrites(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c := dial(t, "echo", rec, time.Second)
	defer c.Close()
	const writers, each = 16, 10
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				id := int64(w*each + i)
				pad := strings.Repeat("q", int(id*7919)%(100<<10)) // past PIPE_BUF, so writes are not atomic
				if err := c.Write(t.Context(), mustRequest(t, id, "m", map[string]string{"pad": pad}), nil); err != nil {
					t.Errorf("Write %d: %v", id, err)
				}
			}
		})
	}
	seen := map[int64]bool{}
	for range writers * each {
		m, err := msgOf(c.Read(t.Context()))
		if err != nil {
			t.Fatalf("after %d messages: %v", len(seen), err)
		}
		n, _ := m.ID.Int()
		seen[n] = true
	}
	wg.Wait()
	if len(seen) != writers*each {
		t.Errorf("got %d distinct ids, want %d", len(seen), writers*each)
	}
	for _, f := range rec.Frames() {
		if f.Err != nil {
			t.Errorf("bad frame (interleaved write?): %v", f.Err)
		}
	}
}

// TestStdioGarbageBeforeReady: lines that are not JSON-RPC are logged as
// bad frames and skipped; the real messages after them still arrive.
func TestStdioGarbageBeforeReady(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c := dial(t, "garbage", rec, time.Second)
	defer c.Close()
	m, err := msgOf(c.Read(t.Context()))
	if err != nil {
		t.Fatal(err)
	}
	if m.Method != "ready" {
		t.Fatalf("first message = %+v, want the ready notification", m)
	}
	if err := c.Write(t.Context(), mustRequest(t, 4, "ping", nil), nil); err != nil {
		t.Fatal(err)
	}
	if m, err := msgOf(c.Read(t.Context())); err != nil || m.ID != jsonrpc.IntID(4) {
		t.Fatalf("Read after garbage = %+v, %v", m, err)
	}
	var bad []string
	for _, f := range rec.Frames() {
		if f.Err != nil {
			bad = append(bad, string(f.Raw))
		}
	}
	if want := []string{"Starting server on stdio...", "{not json"}; !slices.Equal(bad, want) {
		t.Errorf("bad frames = %q, want %q", bad, want)
	}
}

func TestStdioStderr(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c := dial(t, "stderr", rec, time.Second)
	if m, err := msgOf(c.Read(t.Context())); err != nil || m.Method != "ready" {
		t.Fatalf("Read = %+v, %v", m, err)
	}
	// Close waits for stderr to be read to the end.
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	got := rec.StderrLines()
	want := []string{
		"starting up",
		"bad \xff\xfe bytes", // kept as is
		strings.Repeat("z", 4096) + " … [5904 bytes cut]",
		"crlf line",
		"no newline at the end",
	}
	if !slices.Equal(got, want) {
		t.Errorf("stderr lines:\n got %q\nwant %q", got, want)
	}
}

// slowStderr is an Observer that takes a while over each stderr line, as
// a loaded machine does.
type slowStderr struct{ recorder }

func (s *slowStderr) Stderr(line string) {
	time.Sleep(time.Millisecond) // a deliberately slow observer
	s.recorder.Stderr(line)
}

// TestStdioCloseKeepsStderrInThePipe: a server that has exited may leave
// lines in the stderr pipe that the reader has not reached; Close lets it
// read them before closing our end (it closed the pipe under the reader,
// and the last lines were lost whenever the reader was behind).
func TestStdioCloseKeepsStderrInThePipe(t *testing.T) {
	t.Parallel()
	rec := &slowStderr{}
	c := dial(t, "stderr-exit", rec, 2*time.Second)
	if m, err := msgOf(c.Read(t.Context())); err != nil || m.Method != "ready" {
		t.Fatalf("Read = %+v, %v", m, err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	got := rec.StderrLines()
	if len(got) != stderrExitLines || !strings.HasPrefix(got[len(got)-1], fmt.Sprintf("line %d ", stderrExitLines-1)) {
		t.Errorf("%d stderr lines after Close , want all %d", len(got), stderrExitLines)
	}
}

func TestStdioExitReportsStatusAndStderr(t *testing.T) {
	t.Parallel()
	c := dial(t, "exit3", nil, 5*time.Second)
	defer c.Close()
	_, err := c.Read(t.Context())
	if !errors.Is(err, io.EOF) || errors.Is(err, transport.ErrClosed) {
		t.Fatalf("Read = %v, want io.EOF (peer gone), not ErrClosed", err)
	}
	var ee *transport.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("Read error %T is not an *ExitError", err)
	}
	if ee.State == nil || ee.State.ExitCode() != 3 {
		t.Errorf("exit state = %v, want exit status 3", ee.State)
	}
	msg := err.Error()
	for _, s := range []string{"exit status 3", "fatal: cannot bind port 1234", "log line 19"} {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q does not mention %q", msg, s)
		}
	}
	if strings.Contains(msg, "log line 0 ") || strings.Contains(msg, "log line 0|") {
		t.Errorf("error %q carries the whole stderr, want only the tail", msg)
	}
	// Later Reads say the same.
	if _, err2 := c.Read(t.Context()); err2 == nil || err2.Error() != msg {
		t.Errorf("second Read = %v, want %q", err2, msg)
	}
}

func TestStdioShutdown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		server     string
		grace      time.Duration
		wantStderr string // proves which step stopped it
	}{
		// A grace far longer than the test may take: Close returning at
		// all proves stdin EOF alone stopped the server.
		{"stdin EOF is enough", "echo", time.Hour, ""},
		// 5 s: a loaded machine has taken over 2 s to run a test server's
		// SIGTERM handler, which then met the SIGKILL.
		{"ignores stdin EOF, gets SIGTERM", "ignore-eof", 5 * time.Second, "got SIGTERM, exiting"},
		{"ignores SIGTERM, gets SIGKILL", "ignore-term", time.Second, "got SIGTERM, ignoring it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			c := dial(t, tt.server, rec, tt.grace)
			// Make sure the server is up and its signal handler installed.
			if err := c.Write(t.Context(), mustRequest(t, 1, "ping", nil), nil); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Read(t.Context()); err != nil {
				t.Fatal(err)
			}
			pid := c.Pid()
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
				t.Errorf("kill(%d, 0) after Close = %v, want ESRCH (process reaped)", pid, err)
			}
			if tt.wantStderr != "" && !slices.Contains(rec.StderrLines(), tt.wantStderr) {
				t.Errorf("stderr %q lacks %q", rec.StderrLines(), tt.wantStderr)
			}
			if _, err := c.Read(t.Context()); !errors.Is(err, transport.ErrClosed) {
				t.Errorf("Read after Close = %v, want ErrClosed", err)
			}
		})
	}
}

// TestStdioGrandchild: a child the server left behind (ignoring SIGTERM and
// holding stderr open) is killed with the group.
func TestStdioGrandchild(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c := dial(t, "grandchild", rec, 300*time.Millisecond)
	m, err := msgOf(c.Read(t.Context()))
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ Pid int }
	if err := json.Unmarshal(m.Params, &p); err != nil || p.Pid == 0 {
		t.Fatalf("child announcement %s: %v", m.Params, err)
	}
	defer syscall.Kill(p.Pid, syscall.SIGKILL) // in case the test fails
	// Wait until the grandchild runs (it says so on the shared stderr), so
	// that it has ignored SIGTERM by then.
	for !slices.Contains(rec.StderrLines(), "sleeper up") {
		select {
		case <-t.Context().Done():
			t.Fatal("grandchild never came up")
		case <-time.After(10 * time.Millisecond):
		}
	}
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Close hung on a grandchild holding stderr")
	}
	if !gone(c.Pid()) {
		t.Errorf("server %d still running", c.Pid())
	}
	if !gone(p.Pid) {
		t.Errorf("grandchild %d still running after Close", p.Pid)
	}
	t.Logf("kill(grandchild, 0) after Close: %v (a zombie left to init counts as gone)", syscall.Kill(p.Pid, 0))
}

func TestStdioCloseUnblocksRead(t *testing.T) {
	t.Parallel()
	c := dial(t, "echo", nil, time.Second)
	errc := make(chan error, 1)
	go func() {
		_, err := c.Read(context.Background())
		errc <- err
	}()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, transport.ErrClosed) {
			t.Errorf("Read = %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read still blocked after Close")
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

func TestStdioDialErrors(t *testing.T) {
	t.Parallel()
	const name = "elicit-no-such-command-7f3a"
	_, err := (&transport.Stdio{Command: name}).Dial(t.Context())
	want := `start "` + name + `": exec: "` + name + `": executable file not found in $PATH`
	if err == nil || err.Error() != want || !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("Dial = %v, want %q wrapping exec.ErrNotFound", err, want)
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	exe, _ := os.Executable()
	if _, err := (&transport.Stdio{Command: exe, Env: serverEnvFor("echo")}).Dial(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Dial with cancelled ctx = %v", err)
	}
	if _, err := (&transport.Stdio{}).Dial(t.Context()); err == nil {
		t.Error("Dial with no command succeeded")
	}
}

// TestStdioDialContextBoundsOnlyStart: the process outlives the ctx that
// started it.
func TestStdioDialContextBoundsOnlyStart(t *testing.T) {
	t.Parallel()
	exe, _ := os.Executable()
	ctx, cancel := context.WithCancel(t.Context())
	c, err := (&transport.Stdio{Command: exe, Env: serverEnvFor("echo")}).Dial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cancel()
	if err := c.Write(t.Context(), mustRequest(t, 1, "ping", nil), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(t.Context()); err != nil {
		t.Fatalf("Read after dial ctx cancelled: %v", err)
	}
}

// TestStdioLineLimit: a message past Stdio.LineLimit is logged and
// skipped; the connection goes on.
func TestStdioLineLimit(t *testing.T) {
	t.Parallel()
	exe, _ := os.Executable()
	rec := &recorder{}
	c, err := (&transport.Stdio{Command: exe, Env: serverEnvFor("echo"), Observer: rec, LineLimit: 1000}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Write(t.Context(), mustRequest(t, 1, "big", map[string]string{"pad": strings.Repeat("p", 2000)}), nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Write(t.Context(), mustRequest(t, 2, "small", nil), nil); err != nil {
		t.Fatal(err)
	}
	m, err := msgOf(c.Read(t.Context()))
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != jsonrpc.IntID(2) {
		t.Fatalf("read %+v, want the small message (id 2)", m)
	}
	var bad int
	for _, f := range rec.Frames() {
		if f.Dir == transport.In && f.Err != nil {
			bad++
		}
	}
	if bad != 1 {
		t.Errorf("%d error frames, want 1 for the oversized echo", bad)
	}
}
