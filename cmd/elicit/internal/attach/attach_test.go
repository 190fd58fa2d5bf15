package attach

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/vt"
	"go.uber.org/goleak"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// echoModel is a TUI that shows what was typed and its size, and quits
// on "q": enough to see keys go one way and the screen the other.
type echoModel struct {
	typed string
	w, h  int
}

func (m *echoModel) Init() tea.Cmd { return nil }

func (m *echoModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "q" {
			return m, tea.Quit
		}
		m.typed += msg.Text
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	}
	return m, nil
}

func (m *echoModel) View() tea.View {
	v := tea.NewView(fmt.Sprintf("typed: %s\nsize: %dx%d\nthird line", m.typed, m.w, m.h))
	v.AltScreen = true
	return v
}

// screen is the client's terminal: an x/vt emulator whose replies to
// the program's queries go back as keys, as a real terminal's do, with
// a pipe the test types into.
type screen struct {
	t     *testing.T
	emu   *vt.Emulator
	mu    sync.Mutex
	wrote chan struct{}
	keys  *io.PipeReader
	typer *io.PipeWriter
	stop  atomic.Bool
	done  chan struct{}
}

func newScreen(t *testing.T, w, h int) *screen {
	s := &screen{t: t, emu: vt.NewEmulator(w, h), wrote: make(chan struct{}, 1), done: make(chan struct{})}
	s.keys, s.typer = io.Pipe()
	go func() {
		defer close(s.done)
		buf := make([]byte, 256)
		for {
			n, err := s.emu.Read(buf)
			if err != nil {
				return
			}
			if s.stop.Load() && bytes.HasSuffix(buf[:n], []byte("R")) {
				return
			}
			_, _ = s.typer.Write(buf[:n])
		}
	}()
	return s
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	n, err := s.emu.Write(p)
	s.mu.Unlock()
	select {
	case s.wrote <- struct{}{}:
	default:
	}
	return n, err
}

func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emu.String()
}

// waitFor waits until the screen shows every want.
func (s *screen) waitFor(wants ...string) string {
	s.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		txt := s.text()
		ok := true
		for _, w := range wants {
			ok = ok && strings.Contains(txt, w)
		}
		if ok {
			return txt
		}
		select {
		case <-s.wrote:
		case <-deadline:
			s.t.Fatalf("screen never showed %q:\n%s", wants, txt)
		}
	}
}

func (s *screen) typeText(text string) {
	if _, err := s.typer.Write([]byte(text)); err != nil {
		s.t.Fatal(err)
	}
}

// close ends the emulator's reader (it asks for the cursor's position
// and stops at the reply: vt's Close races a pending Read) and the keys.
func (s *screen) close() {
	s.stop.Store(true)
	s.mu.Lock()
	_, _ = s.emu.Write([]byte("\x1b[6n"))
	s.mu.Unlock()
	<-s.done
	_ = s.emu.Close()
	_ = s.typer.Close()
}

// hub is a stand-in for the hub's side: it accepts one connection on a
// real unix socket, answers the Hello and serves an echoModel.
type hub struct {
	ln      net.Listener
	hello   chan Hello
	served  chan error
	bound   atomic.Int32
	unbound atomic.Int32
	model   *echoModel
	conn    chan net.Conn
	refuse  error
}

func startHub(t *testing.T, exit string, refuse error) *hub {
	t.Helper()
	ln, err := net.Listen("unix", filepath.Join(t.TempDir(), "hub.sock"))
	if err != nil {
		t.Fatal(err)
	}
	h := &hub{ln: ln, hello: make(chan Hello, 1), served: make(chan error, 1), model: &echoModel{}, conn: make(chan net.Conn, 1), refuse: refuse}
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			h.served <- err
			return
		}
		h.conn <- conn
		r := bufio.NewReader(conn)
		id, hello, err := ReadHello(r)
		var refused *jsonrpc.Error
		if err == nil {
			err = h.refuse
		}
		if err != nil {
			refused = jsonrpc.NewError(-32602, err.Error(), map[string]int{"exit": 2})
		}
		if rerr := Reply(conn, id, refused); err != nil || rerr != nil {
			_ = conn.Close()
			h.served <- errors.Join(err, rerr)
			return
		}
		h.hello <- hello
		h.served <- Serve(context.Background(), conn, r, hello, h.model,
			func(*tea.Program) { h.bound.Add(1) }, func() { h.unbound.Add(1) }, ServeOptions{Exit: func() string { return exit }})
	}()
	t.Cleanup(func() { _ = ln.Close() })
	return h
}

// dial is the attaching command's side up to Run: connect, hello, reply.
func dial(t *testing.T, h *hub, hello Hello) (net.Conn, io.Reader, error) {
	t.Helper()
	conn, err := net.Dial("unix", h.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if err := Request(conn, hello); err != nil {
		t.Fatal(err)
	}
	r, err := ReadReply(conn)
	if err != nil {
		_ = conn.Close()
	}
	return conn, r, err
}

// rawCounter stands in for raw mode, counting restores.
type rawCounter struct{ made, restored atomic.Int32 }

func (c *rawCounter) raw() (func(), error) {
	c.made.Add(1)
	return func() { c.restored.Add(1) }, nil
}

func hello80x24() Hello {
	return Hello{Session: "s1", Term: "xterm-256color", ColorTerm: "truecolor", Profile: "TrueColor", Width: 80, Height: 24}
}

// TestAttachRoundTrip: keys typed on the client reach the program in the
// hub, its screen reaches the client's terminal laid out (each line at
// the left edge: "\n" mapped for the raw terminal), a resize reaches
// the program, and quitting the program ends the attach with the hub's
// exit line, the terminal restored.
func TestAttachRoundTrip(t *testing.T) {
	h := startHub(t, "detached from s1", nil)
	scr := newScreen(t, 80, 24)
	defer scr.close()
	conn, r, err := dial(t, h, hello80x24())
	if err != nil {
		t.Fatal(err)
	}
	if got := <-h.hello; got.Term != "xterm-256color" || got.Width != 80 {
		t.Fatalf("hub got hello %+v", got)
	}
	var raw rawCounter
	resized := make(chan struct{}, 1)
	size := atomic.Int64{}
	size.Store(100<<16 | 30)
	type result struct {
		line string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		line, err := Run(context.Background(), conn, r, Terminal{In: scr.keys, Out: scr, Raw: raw.raw,
			Size:    func() (int, int, error) { v := size.Load(); return int(v >> 16), int(v & 0xffff), nil },
			Resized: resized})
		done <- result{line, err}
	}()
	txt := scr.waitFor("typed:", "size: 80x24")
	for i, line := range strings.Split(txt, "\n")[:3] {
		if strings.HasPrefix(line, " ") {
			t.Fatalf("line %d starts at a column > 0 (a raw terminal given a bare \\n):\n%s", i, txt)
		}
	}
	scr.typeText("héllo")
	scr.waitFor("typed: héllo")
	resized <- struct{}{}
	scr.waitFor("size: 100x30")
	scr.typeText("q")
	res := <-done
	if res.err != nil || res.line != "detached from s1" {
		t.Fatalf("Run = %q, %v; want the exit line", res.line, res.err)
	}
	if err := <-h.served; err != nil {
		t.Fatalf("Serve = %v", err)
	}
	if raw.made.Load() != 1 || raw.restored.Load() != 1 {
		t.Fatalf("raw mode made %d, restored %d; want 1 and 1", raw.made.Load(), raw.restored.Load())
	}
	if h.bound.Load() != 1 || h.unbound.Load() != 1 {
		t.Fatalf("bound %d, unbound %d", h.bound.Load(), h.unbound.Load())
	}
	if h.model.typed != "héllo" {
		t.Fatalf("program saw %q", h.model.typed)
	}
}

// TestAttachDetachOnSignal: the attaching command told to stop (its
// context ends: SIGTERM, SIGHUP) detaches: the program in the hub ends,
// Serve returns, and Run returns without error, the terminal restored.
func TestAttachDetachOnSignal(t *testing.T) {
	h := startHub(t, "", nil)
	scr := newScreen(t, 80, 24)
	defer scr.close()
	conn, r, err := dial(t, h, hello80x24())
	if err != nil {
		t.Fatal(err)
	}
	<-h.hello
	ctx, cancel := context.WithCancel(context.Background())
	var raw rawCounter
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, conn, r, Terminal{In: scr.keys, Out: scr, Raw: raw.raw})
		done <- err
	}()
	scr.waitFor("typed:")
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run = %v, want a clean detach", err)
	}
	if err := <-h.served; err != nil {
		t.Fatalf("Serve = %v", err)
	}
	if raw.restored.Load() != 1 || h.unbound.Load() != 1 {
		t.Fatalf("restored %d, unbound %d", raw.restored.Load(), h.unbound.Load())
	}
}

// TestAttachHubDies: the hub's end of the connection goes without an
// exit frame (the hub was killed): Run says disconnected, restores the
// terminal and writes the modes a TUI leaves on back off.
func TestAttachHubDies(t *testing.T) {
	h := startHub(t, "", nil)
	scr := newScreen(t, 80, 24)
	defer scr.close()
	var out bytes.Buffer
	var outMu sync.Mutex
	tee := writerFunc(func(p []byte) (int, error) {
		outMu.Lock()
		out.Write(p)
		outMu.Unlock()
		return scr.Write(p)
	})
	conn, r, err := dial(t, h, hello80x24())
	if err != nil {
		t.Fatal(err)
	}
	<-h.hello
	hubConn := <-h.conn
	var raw rawCounter
	done := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), conn, r, Terminal{In: scr.keys, Out: tee, Raw: raw.raw})
		done <- err
	}()
	scr.waitFor("typed:")
	outMu.Lock()
	before := out.Len()
	outMu.Unlock()
	_ = hubConn.Close() // as the kernel does for a hub killed
	if err := <-done; !errors.Is(err, ErrDisconnected) {
		t.Fatalf("Run = %v, want ErrDisconnected", err)
	}
	outMu.Lock()
	tail := out.String()[before:]
	outMu.Unlock()
	if !strings.Contains(tail, "\x1b[?1049l") || !strings.Contains(tail, "\x1b[?25h") {
		t.Fatalf("after the hub went, wrote %q; want the alternate screen left and the cursor shown", tail)
	}
	if raw.restored.Load() != 1 {
		t.Fatalf("restored %d times, want 1", raw.restored.Load())
	}
	<-h.served
}

// TestAttachClientGoes: the attaching process dies (its connection
// closes): the program in the hub ends and Serve returns without error,
// the Bridge unbound, ready for the next attach.
func TestAttachClientGoes(t *testing.T) {
	h := startHub(t, "", nil)
	conn, r, err := dial(t, h, hello80x24())
	if err != nil {
		t.Fatal(err)
	}
	<-h.hello
	// Read the first frame (the program runs), then go.
	if _, err := readFrame(r); err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	if err := <-h.served; err != nil {
		t.Fatalf("Serve = %v, want nil for a client that went", err)
	}
	if h.unbound.Load() != 1 {
		t.Fatal("the program's end did not unbind it")
	}
}

// TestAttachRefused: a hub that refuses the Hello (no such session)
// says why; the client gets its words as a RefusedError.
func TestAttachRefused(t *testing.T) {
	h := startHub(t, "", errors.New("no session named \"nope\"\x1b[2J"))
	_, _, err := dial(t, h, hello80x24())
	var refused *RefusedError
	if !errors.As(err, &refused) || refused.Error() != `no session named "nope"[2J` {
		t.Fatalf("err = %v, want the hub's refusal without its control characters", err)
	}
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || !strings.Contains(string(rpcErr.Data), `"exit":2`) {
		t.Fatalf("err = %v, want the JSON-RPC error with its data", err)
	}
	<-h.served
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestDrainInputFindsTheReader: drainInput reaches into bubbletea's
// Program by field name; a bubbletea that renames them fails here, not
// as goroutines quietly held in the hub.
func TestDrainInputFindsTheReader(t *testing.T) {
	keys, typer := io.Pipe()
	p := tea.NewProgram(&echoModel{}, tea.WithInput(keys), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(), tea.WithWindowSize(80, 24))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	p.Quit()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	_ = typer.Close()
	if !drainInput(p) {
		t.Fatal("drainInput did not find the Program's msgs and readLoopDone")
	}
}

// TestServeEndsWithKeysAfterQuit: keys that come on behind the one that
// quits the program (typed on, or a terminal's replies) leave nothing of
// the program behind in the hub: its input reader ends with it.
func TestServeEndsWithKeysAfterQuit(t *testing.T) {
	for range 5 {
		client, server := net.Pipe()
		served := make(chan error, 1)
		go func() {
			served <- Serve(context.Background(), server, nil, hello80x24(), &echoModel{},
				func(*tea.Program) {}, func() {}, ServeOptions{})
		}()
		screen := make(chan error, 1)
		go func() {
			for {
				f, err := readFrame(client)
				if err != nil || f.kind == frameExit {
					screen <- err
					return
				}
			}
		}()
		if err := writeFrame(client, frameData, append([]byte("q"), bytes.Repeat([]byte("x"), 4096)...)); err != nil {
			t.Fatal(err)
		}
		if err := <-screen; err != nil {
			t.Fatalf("no exit frame: %v", err)
		}
		if err := <-served; err != nil {
			t.Fatalf("Serve = %v", err)
		}
		client.Close()
	}
	goleak.VerifyNone(t)
}
