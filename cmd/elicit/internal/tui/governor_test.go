package tui

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/vt"
)

// governorCheckedOn are the bubbletea releases whose renderer the
// governor was read against (startRenderer, stopRenderer, eventLoop,
// releaseTerminal/RestoreTerminal in tea.go).
var governorCheckedOn = []string{"v2.1.1"}

// TestGovernorKnowsThisBubbletea pins what the governor relies on to the
// bubbletea in go.mod, so an upgrade is noticed here rather than as a TUI
// that ticks at --fps again (or never stops a ticker that moved).
func TestGovernorKnowsThisBubbletea(t *testing.T) {
	if _, ok := tickerOffset(reflect.TypeFor[tea.Program]()); !ok {
		t.Fatal("tea.Program has no `ticker *time.Ticker` field any more: the frame governor (governor.go) does nothing " +
			"and the idle TUI wakes at --fps again. Read the new startRenderer in bubbletea's tea.go: if it now ticks only " +
			"while a frame is pending (charmbracelet/bubbletea#1776, #1796), remove the governor; else point it at the new field.")
	}
	// The module's bubbletea, as go.mod (and a replace) has it: a test
	// binary of a package other than main carries no dependency list.
	out, err := exec.Command("go", "list", "-m", "-f", "{{if .Replace}}{{.Replace.Version}}{{else}}{{.Version}}{{end}}", "charm.land/bubbletea/v2").Output()
	if err != nil {
		t.Fatalf("go list -m charm.land/bubbletea/v2: %v", err)
	}
	version := strings.TrimSpace(string(out))
	if !slices.Contains(governorCheckedOn, version) {
		t.Fatalf("bubbletea is %s, the frame governor was checked on %v: read startRenderer, stopRenderer, eventLoop "+
			"and Release/RestoreTerminal in its tea.go (the ticker field is still there), check that every frame still "+
			"follows an Update and a View and that Stop/Reset of the ticker is still all it takes, run TestGovernor* "+
			"and TestTUIIdleStillDraws, then add %s to governorCheckedOn", version, governorCheckedOn, version)
	}
}

// TestGovernorInertWithoutTheField: a program value without the field, or
// with one of another type, leaves the governor doing nothing.
func TestGovernorInertWithoutTheField(t *testing.T) {
	var tk time.Ticker
	for _, p := range []any{
		nil,
		&struct{}{},
		&struct{ ticker int }{},
		&struct{ ticker time.Ticker }{},
		&struct{ ticker **time.Ticker }{},
		struct{ ticker *time.Ticker }{&tk}, // not a pointer
		(*struct{ ticker *time.Ticker })(nil),
		new(int),
	} {
		g := newFrameGovernor(20)
		g.bind(p)
		g.busy()
		g.drew()
		if g.prog != nil || g.ticker != nil || g.timer != nil {
			t.Errorf("%T: governor took it (prog %v, ticker %v, timer %v)", p, g.prog, g.ticker, g.timer)
		}
		g.close()
	}
}

// TestGovernorInertKeepsUpstreamTicking: a real program whose governor
// found nothing to govern ticks at its frame rate as upstream does.
func TestGovernorInertKeepsUpstreamTicking(t *testing.T) {
	gov := newFrameGovernor(50)
	r := startGovRig(t, gov, func(*tea.Program) { gov.bind(&struct{ ticker int }{}) })
	r.waitScreen("frame 0 key none")
	tk := r.programTicker()
	time.Sleep(10 * gov.linger) // a window in which an ungoverned ticker must keep ticking
	if !tickWithin(tk, 2*time.Second) {
		t.Fatal("the program's ticker stopped without a governor")
	}
	r.quit()
}

// TestGovernorStopsAndRestartsTheTicker drives a real tea.Program (input
// and output on pipes, the output replayed into x/vt): once nothing has
// changed for linger, its ticker is stopped; a message or a key then
// starts it again and is drawn; a flood ends drawn too; quitting draws the
// last frame.
func TestGovernorStopsAndRestartsTheTicker(t *testing.T) {
	gov := newFrameGovernor(50)
	r := startGovRig(t, gov, func(p *tea.Program) { gov.bind(p) })
	r.waitScreen("frame 0 key none")
	tk := r.governedTicker()
	if tk != r.programTicker() {
		t.Fatal("the governor holds another ticker than the program's")
	}

	r.waitStopped(tk)
	// With the ticker stopped, a frame reaches the screen only if the
	// governor starts it again: a message sent from outside (as the
	// bridge sends a server's frame)...
	r.p.Send(bumpMsg{})
	r.waitScreen("frame 1 key none")
	r.waitStopped(tk)
	// ...a key read from the terminal...
	if _, err := io.WriteString(r.inW, "x"); err != nil {
		t.Fatal(err)
	}
	r.waitScreen("frame 1 key x")
	r.waitStopped(tk)
	// ...and the last of a flood.
	for range 500 {
		r.p.Send(bumpMsg{})
	}
	r.waitScreen("frame 501 key x")
	r.waitStopped(tk)

	// Quitting with the ticker stopped still draws the final frame (Run
	// renders it and stopRenderer flushes it, no tick needed).
	r.p.Send(quitAfterMsg{})
	if err := <-r.done; err != nil {
		t.Fatal(err)
	}
	gov.close()
	r.closeEmu()
	// bubbletea erases an inline frame's last line as it leaves, so
	// what counts is that the frame was on screen at some write.
	if !r.shown("frame 502 quitting") {
		t.Fatalf("the last frame was not drawn at exit; the screen after it:\n%s", r.screen())
	}
}

// TestGovernorWaitsForASlowTerminal: a terminal that takes a frame slowly
// holds bubbletea's renderer (it writes under its mutex), and a frame the
// event loop renders meanwhile is stored only when the write ends, after
// linger has passed: the ticker must still be running then to draw it.
func TestGovernorWaitsForASlowTerminal(t *testing.T) {
	gov := newFrameGovernor(50)
	r := startGovRig(t, gov, func(p *tea.Program) { gov.bind(p) })
	r.waitScreen("frame 0 key none")
	tk := r.governedTicker()
	r.waitStopped(tk)

	g := &writeGate{blocked: make(chan struct{}), open: make(chan struct{})}
	r.gate.Store(g)
	r.p.Send(bumpMsg{}) // frame 1: its write hangs
	<-g.blocked
	r.gate.Store(nil)
	r.p.Send(bumpMsg{}) // frame 2: rendered, waits for the renderer's mutex
	for timeout := time.After(5 * time.Second); r.model.bumps.Load() < 2; {
		select {
		case <-r.model.bumped:
		case <-timeout:
			t.Fatal("the second message was not taken")
		}
	}
	time.Sleep(4 * gov.linger) // a window in which the stop after frame 2's View comes due: it must wait for the write
	close(g.open)
	r.waitScreen("frame 2 key none")
	r.waitStopped(tk)
	r.quit()
}

// TestGovernedUpdateAllocatesNothing: the hooks run for every message, a
// flood too; they take a lock and read the clock, nothing more.
func TestGovernedUpdateAllocatesNothing(t *testing.T) {
	g, stop := fakeGoverned()
	defer stop()
	m := g.wrap(constModel{})
	var msg tea.Msg = bumpMsg{}
	if n := testing.AllocsPerRun(1000, func() {
		m.Update(msg)
		m.View()
	}); n > 0 {
		t.Fatalf("%v allocations a governed Update and View (the model's own: 0)", n)
	}
}

// BenchmarkGovernorHooks: what the governor adds to an Update and a View.
func BenchmarkGovernorHooks(b *testing.B) {
	g, stop := fakeGoverned()
	defer stop()
	b.ReportAllocs()
	for b.Loop() {
		g.busy()
		g.drew()
	}
}

// fakeGoverned is a governor bound to a struct shaped like tea.Program's
// ticker field, holding a real ticker.
func fakeGoverned() (*frameGovernor, func()) {
	prog := &struct {
		_      int
		ticker *time.Ticker
	}{ticker: time.NewTicker(time.Second)}
	g := newFrameGovernor(20)
	g.bind(prog)
	return g, func() { g.close(); prog.ticker.Stop() }
}

type (
	bumpMsg      struct{}
	quitAfterMsg struct{}
)

// constModel draws the same frame whatever comes.
type constModel struct{}

func (constModel) Init() tea.Cmd                         { return nil }
func (m constModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (constModel) View() tea.View                        { return tea.View{Content: "same"} }

// govModel draws a counter and the last key.
type govModel struct {
	n       int
	key     string
	leaving bool
	bumps   atomic.Int32  // bumpMsgs taken, for the test to read
	bumped  chan struct{} // signalled (without blocking) on each bumpMsg
}

func (m *govModel) Init() tea.Cmd { return nil }

func (m *govModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case bumpMsg:
		m.n++
		m.bumps.Add(1)
		select {
		case m.bumped <- struct{}{}:
		default:
		}
	case tea.KeyPressMsg:
		m.key = msg.String()
	case quitAfterMsg:
		m.n++
		m.leaving = true
		return m, tea.Quit
	}
	return m, nil
}

func (m *govModel) View() tea.View {
	key := m.key
	if key == "" {
		key = "none"
	}
	if m.leaving {
		return tea.NewView(fmt.Sprintf("frame %d quitting", m.n))
	}
	return tea.NewView(fmt.Sprintf("frame %d key %s", m.n, key))
}

// govRig runs a real program on pipes and replays its output into a
// virtual terminal whose replies are dropped.
type govRig struct {
	t     *testing.T
	p     *tea.Program
	model *govModel
	gov   *frameGovernor
	inR   *io.PipeReader
	inW   *io.PipeWriter
	done  chan error

	mu  sync.Mutex // emu: the renderer writes, the test reads
	emu *vt.Emulator
	// emuDone ends the drainer of the emulator's replies.
	emuStop   atomic.Bool
	emuDone   chan struct{}
	emuClosed bool
	// screens is every screen after a write, to tell what was drawn;
	// wrote is signalled (without blocking) after each.
	screens []string
	wrote   chan struct{}
	// gate, when set, holds the next write (a terminal slow to read).
	gate atomic.Pointer[writeGate]
}

type writeGate struct{ blocked, open chan struct{} }

func startGovRig(t *testing.T, gov *frameGovernor, bind func(*tea.Program)) *govRig {
	t.Helper()
	r := &govRig{t: t, gov: gov, done: make(chan error, 1), emu: vt.NewEmulator(60, 5), emuDone: make(chan struct{}),
		wrote: make(chan struct{}, 1)}
	r.inR, r.inW = io.Pipe()
	go func() {
		defer close(r.emuDone)
		buf := make([]byte, 256)
		for {
			n, err := r.emu.Read(buf)
			if err != nil || (r.emuStop.Load() && bytes.HasSuffix(buf[:n], []byte("R"))) {
				return
			}
		}
	}()
	r.model = &govModel{bumped: make(chan struct{}, 1)}
	r.p = tea.NewProgram(gov.wrap(r.model), tea.WithInput(r.inR), tea.WithOutput(gov.output(emuWriter{r})),
		tea.WithFPS(50), tea.WithWindowSize(60, 5), tea.WithoutSignalHandler(), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	bind(r.p)
	go func() {
		_, err := r.p.Run()
		r.done <- err
	}()
	t.Cleanup(func() {
		r.p.Kill()
		r.p.Wait()
		gov.close()
		r.closeEmu()
		_ = r.inW.Close()
		_ = r.inR.Close()
	})
	return r
}

type emuWriter struct{ r *govRig }

func (w emuWriter) Write(b []byte) (int, error) {
	if g := w.r.gate.Load(); g != nil {
		g.blocked <- struct{}{}
		<-g.open
	}
	w.r.mu.Lock()
	defer w.r.mu.Unlock()
	if !w.r.emuClosed {
		_, _ = w.r.emu.Write(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
		w.r.screens = append(w.r.screens, w.r.emu.String())
		select {
		case w.r.wrote <- struct{}{}:
		default:
		}
	}
	return len(b), nil
}

// closeEmu stops the drainer by asking for the cursor position (vt's
// Close races with a pending Read), then closes the emulator.
func (r *govRig) closeEmu() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.emuClosed {
		return
	}
	r.emuStop.Store(true)
	_, _ = r.emu.Write([]byte("\x1b[6n"))
	<-r.emuDone
	_ = r.emu.Close()
	r.emuClosed = true
}

func (r *govRig) screen() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.emu.String()
}

// shown is whether want was on screen after some write.
func (r *govRig) shown(want string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.ContainsFunc(r.screens, func(s string) bool { return strings.Contains(s, want) })
}

func (r *govRig) waitScreen(want string) {
	r.t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		s := r.screen()
		if strings.Contains(s, want) {
			return
		}
		select {
		case <-r.wrote:
		case <-timeout:
			r.t.Fatalf("screen lacks %q after 5 s:\n%s", want, s)
		}
	}
}

// programTicker reads the program's ticker as the governor does. Called
// once a frame is on screen: the renderer goroutine wrote it to the
// emulator under r.mu after Run set the field, which orders this read.
func (r *govRig) programTicker() *time.Ticker {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	off, ok := tickerOffset(reflect.TypeFor[tea.Program]())
	if !ok {
		r.t.Fatal("tea.Program has no ticker field")
	}
	tk := *(**time.Ticker)(unsafe.Add(unsafe.Pointer(r.p), off))
	if tk == nil {
		r.t.Fatal("the program's ticker is not set once a frame is drawn")
	}
	return tk
}

func (r *govRig) governedTicker() *time.Ticker {
	r.gov.mu.Lock()
	defer r.gov.mu.Unlock()
	if r.gov.ticker == nil {
		r.t.Fatal("the governor found no ticker after the first frame")
	}
	return r.gov.ticker
}

// waitStopped waits until the ticker has been quiet for a long while
// (300 ms, 15 periods): a running ticker is not, whatever the load.
// Watching takes ticks from the renderer (the channel hands each to one
// receiver), which only delays a frame by a period; nothing is drawn
// while it watches.
func (r *govRig) waitStopped(tk *time.Ticker) {
	r.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		if !tickWithin(tk, 300*time.Millisecond) {
			r.gov.mu.Lock()
			stopped := r.gov.stopped
			r.gov.mu.Unlock()
			if !stopped {
				r.t.Fatal("the ticker is quiet but the governor did not stop it")
			}
			return
		}
	}
	r.t.Fatal("the ticker still ticks 5 s after the last message")
}

func (r *govRig) quit() {
	r.t.Helper()
	r.p.Quit()
	if err := <-r.done; err != nil {
		r.t.Fatal(err)
	}
}

func tickWithin(tk *time.Ticker, d time.Duration) bool {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tk.C:
		return true
	case <-tm.C:
		return false
	}
}
