package tui

import (
	"io"
	"reflect"
	"sync"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// The frame governor stops bubbletea's renderer ticker while nothing
// changes on screen, and starts it again on the next message.
//
// bubbletea v2.1.1's renderer goroutine (startRenderer, tea.go:1441-1470)
// flushes on a time.Ticker at --fps for the program's whole life, changed
// or not, and no public API stops it (WithFPS clamps to 1-120): about five
// context switches a tick, 100 a second at the default 20, with nothing
// moving (BENCHMARKS.md, "Idle"). A fork is no option (a replace directive
// breaks `go install module@version`), so the governor reaches the
// program's unexported `ticker *time.Ticker` field and Stops and Resets it:
// both are safe from any goroutine, and the renderer goroutine only ever
// waits on its channel, so a stopped ticker leaves it asleep in its select
// (it still ends on rendererDone: exit flushes the last frame in
// stopRenderer, which needs no tick).
//
// What reaches the screen starts as a message: bubbletea's event loop
// runs the model's Update for every message it takes (the ones it handles
// itself too: window size, printLineMessage, exec's and ResumeMsg's
// return), then View, then stores the frame for the next tick
// (eventLoop, tea.go:767-915). So Update restarts a stopped ticker, and
// each View pushes the stop back to `linger` after it. A server frame that
// arrives while idle is a message too (the bridge's lane-3 timer, lane-2
// events), and so is every key. On quit, Run renders the model once more
// and stopRenderer(false) flushes that frame itself, ticker or not.
//
// Where it does not hold: tea.Program.ReleaseTerminal/RestoreTerminal
// called outside the event loop (RestoreTerminal Resets the ticker and
// repaints without a message, which a pending stop could then cut short).
// elicit calls neither; ctrl+z's suspend ends with ResumeMsg, and
// tea.Exec (an agent's terminal sign-in, ui.Bridge.RunOnTerminal) with
// its callback's message, each an Update.
//
// If the field is missing or of another type (a bubbletea upgrade), the
// governor does nothing and the program ticks as upstream does;
// TestGovernorKnowsThisBubbletea fails on such an upgrade and says what to
// check.
type frameGovernor struct {
	period     time.Duration
	linger     time.Duration
	afterWrite time.Duration
	// prog is the *tea.Program, and offset where in it the ticker field
	// is; prog is nil when bubbletea has no such field (nothing is
	// governed).
	prog   unsafe.Pointer
	offset uintptr

	mu sync.Mutex
	// ticker is the program's, read from the first Update on: Run's
	// startRenderer sets it before the event loop starts, in the same
	// goroutine that runs Update and View.
	ticker   *time.Ticker
	stopped  bool // by us; startRenderer may have Reset it since
	armed    bool // timer is pending
	closed   bool
	writing  int         // writes to the terminal under way (output)
	deadline time.Time   // the ticker stops after this
	timer    *time.Timer // fires at or after deadline
}

// minLinger bounds linger from below at high frame rates (2.5 periods at
// 120 fps are 21 ms): on a loaded machine the event loop can be off the
// CPU between View and storing its frame for longer than that.
const minLinger = 50 * time.Millisecond

// newFrameGovernor governs a program ticking at fps (bubbletea's clamp:
// 1-120, below 1 meaning 60).
func newFrameGovernor(fps int) *frameGovernor {
	switch {
	case fps < 1:
		fps = 60
	case fps > 120:
		fps = 120
	}
	period := time.Second / time.Duration(fps)
	// Why 2.5 periods after the last View: View returns the frame and the
	// event loop stores it (cursedRenderer.render, under the renderer's
	// mutex) right after; the frame reaches the terminal on the first
	// tick after that store, at most one period later. A tick that comes
	// while the renderer goroutine is still busy with the previous flush
	// waits for it (the ticker keeps one), but Stop drops a tick not yet
	// taken, so the stop must come after the flushing tick was taken:
	// one period for that tick, one more for a renderer still busy with
	// the flush before (or an event loop slow to store), half a period of
	// slack for the timer itself. That is two or three ticks after the
	// last change, instead of a tick every period for ever.
	linger := max(period*5/2, minLinger)
	return &frameGovernor{period: period, linger: linger, afterWrite: max(period*3/2, minLinger)}
}

// tickerOffset is where a struct type keeps `ticker *time.Ticker`, and
// whether it does.
func tickerOffset(t reflect.Type) (uintptr, bool) {
	if t.Kind() != reflect.Struct {
		return 0, false
	}
	f, ok := t.FieldByName("ticker")
	if !ok || f.Type != reflect.TypeFor[*time.Ticker]() || len(f.Index) != 1 {
		return 0, false
	}
	return f.Offset, true
}

// bind names the program to govern: a pointer to a struct with a
// `ticker *time.Ticker` field (*tea.Program). Anything else leaves the
// governor inert. Call it before Run; the field is read from the first
// Update on.
func (g *frameGovernor) bind(p any) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return
	}
	off, ok := tickerOffset(v.Type().Elem())
	if !ok {
		return
	}
	g.prog, g.offset = v.UnsafePointer(), off
}

// wrap returns model with the governor's hooks around its Update and
// View, to give tea.NewProgram.
func (g *frameGovernor) wrap(model tea.Model) *governed {
	return &governed{inner: model, g: g}
}

// busy is called as a message reaches Update: a frame may follow, so the
// ticker runs. The stop is armed by the View that follows (drew); a stop
// already pending is pushed back, so it cannot cut in between the two.
func (g *frameGovernor) busy() {
	if g.prog == nil {
		return
	}
	g.mu.Lock()
	g.find()
	if g.ticker != nil && g.stopped {
		g.ticker.Reset(g.period)
		g.stopped = false
	}
	g.push(g.linger)
	g.mu.Unlock()
}

// drew is called as View returns: the frame is stored next, and the ticker
// runs for linger after.
func (g *frameGovernor) drew() {
	if g.prog == nil {
		return
	}
	g.mu.Lock()
	g.find()
	g.arm(g.linger)
	g.mu.Unlock()
}

// find reads the program's ticker until it is set. It runs in the
// goroutine that runs Run (Update, View), the one whose startRenderer
// sets the field, so the read is ordered after that write.
// Called with g.mu held.
func (g *frameGovernor) find() {
	if g.ticker == nil && !g.closed {
		g.ticker = *(**time.Ticker)(unsafe.Add(g.prog, g.offset))
	}
}

// push moves the stop to d from now, if that is later. A pending timer
// is not reset: it fires at the old deadline and re-arms itself for the
// rest, so a flood of messages costs a clock read each, no timer
// operation. Called with g.mu held.
func (g *frameGovernor) push(d time.Duration) {
	if at := time.Now().Add(d); at.After(g.deadline) {
		g.deadline = at
	}
}

// arm pushes the stop to d from now and starts the timer if it is not
// pending. Called with g.mu held.
func (g *frameGovernor) arm(d time.Duration) {
	if g.ticker == nil || g.closed {
		return
	}
	g.push(d)
	if g.armed {
		return
	}
	g.armed = true
	if g.timer == nil {
		g.timer = time.AfterFunc(d, g.expire)
		return
	}
	g.timer.Reset(d)
}

// expire stops the ticker once linger has passed since the last View,
// unless a write to the terminal is under way: the renderer holds its
// mutex while it writes, so a frame the event loop has rendered since
// waits to be stored, and needs a tick after the write ends (wrote).
func (g *frameGovernor) expire() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || !g.armed {
		return
	}
	if g.writing > 0 {
		g.timer.Reset(g.period)
		return
	}
	if left := time.Until(g.deadline); left > 0 {
		g.timer.Reset(left)
		return
	}
	g.armed = false
	g.ticker.Stop()
	g.stopped = true
}

// close stops the governor's timer once the program has ended (Run
// returned); the ticker is the program's, stopped by its renderer.
func (g *frameGovernor) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	g.armed = false
	if g.timer != nil {
		g.timer.Stop()
	}
}

// output wraps the program's output to see its writes: a terminal slow
// to take a frame (its pty full, a slow link) holds the renderer longer
// than linger, and the frame rendered meanwhile is stored only once the
// write ends. A terminal stays one (term.File: Fd, Read, Close), which
// bubbletea and colorprofile look for to set raw mode, read the size and
// pick colours. (tea.Exec hands a child this writer, which would be a
// pipe to it: ui's ttyCommand gives it os.Stdout when the descriptor is
// the same.)
func (g *frameGovernor) output(w io.Writer) io.Writer {
	if f, ok := w.(ttyFile); ok {
		return watchedTTY{f, g}
	}
	return watchedWriter{w, g}
}

// ttyFile is the method set of charmbracelet/x/term's File.
type ttyFile interface {
	io.ReadWriteCloser
	Fd() uintptr
}

type watchedTTY struct {
	ttyFile
	g *frameGovernor
}

func (w watchedTTY) Write(b []byte) (int, error) {
	w.g.writeStarts()
	defer w.g.wrote()
	return w.ttyFile.Write(b)
}

type watchedWriter struct {
	w io.Writer
	g *frameGovernor
}

func (w watchedWriter) Write(b []byte) (int, error) {
	w.g.writeStarts()
	defer w.g.wrote()
	return w.w.Write(b)
}

func (g *frameGovernor) writeStarts() {
	g.mu.Lock()
	g.writing++
	g.mu.Unlock()
}

// wrote ends a write. A frame the event loop rendered while it lasted is
// stored as the renderer lets go of its mutex, right after, and flushed by
// the next tick, at most a period later: a pending stop comes no sooner
// than afterWrite from here (a period and a half, with the same floor as
// linger). After an ordinary frame this moves nothing: the write comes
// within a period of the View, whose linger is longer. With no stop
// pending there is nothing to hold back.
func (g *frameGovernor) wrote() {
	g.mu.Lock()
	g.writing--
	g.push(g.afterWrite)
	g.mu.Unlock()
}

// governed is a model whose Update and View tell the governor.
type governed struct {
	inner tea.Model
	g     *frameGovernor
}

var _ tea.Model = (*governed)(nil)

func (m *governed) Init() tea.Cmd { return m.inner.Init() }

func (m *governed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.g.busy()
	var cmd tea.Cmd
	m.inner, cmd = m.inner.Update(msg)
	return m, cmd
}

func (m *governed) View() tea.View {
	v := m.inner.View()
	m.g.drew()
	return v
}
