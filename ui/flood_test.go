package ui

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

// A hostile server floods us (issue 7): tens of thousands of log
// notifications, each a traffic frame and a log line, as fast as the
// engine can hand them over. The person must still be able to work: a
// keystroke is handled at once (the benchmark gives the figure, the test
// only a liveness bound), and what the flood leaves behind is bounded by
// the rings, not by the flood.

// floodKeys are the keystrokes sent during a flood, and the view each
// must bring up: the two views the flood feeds, and the prompts.
var floodKeys = []struct {
	key  tea.KeyPressMsg
	view string
}{
	{tea.KeyPressMsg{Code: tea.KeyF6}, "Traffic"},
	{tea.KeyPressMsg{Code: tea.KeyF8}, "Logs"},
	{tea.KeyPressMsg{Code: tea.KeyF4}, "Questions"},
}

// floodProgram is a real tea.Program around a Model, fed by a Bridge, with
// its output discarded (the renderer still renders every frame).
type floodProgram struct {
	br   *Bridge
	prog *tea.Program
	ran  chan error
	stop context.CancelFunc
}

func startFloodProgram(tb testing.TB) *floodProgram {
	tb.Helper()
	br := NewBridge(BridgeOptions{})
	// The Model's ticks end with the program's context (untilDone).
	ctx, cancel := context.WithCancel(context.Background())
	m := New(newFakeEngine(), br, Options{Context: ctx, OpenURL: func(string) error { return nil }, ArmDelay: -1})
	prog := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithWindowSize(120, 40), tea.WithColorProfile(colorprofile.TrueColor),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}), tea.WithoutSignalHandler())
	fp := &floodProgram{br: br, prog: prog, ran: make(chan error, 1), stop: cancel}
	go func() { _, err := prog.Run(); fp.ran <- err }()
	br.Attach(prog.Send)
	return fp
}

func (fp *floodProgram) close(tb testing.TB) {
	tb.Helper()
	fp.br.Close()
	fp.prog.Quit()
	if err := <-fp.ran; err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		tb.Errorf("program: %v", err)
	}
	fp.stop()
}

// probe runs f on the event loop and waits for it (a liveness bound, not
// a speed check).
func (fp *floodProgram) probe(tb testing.TB, f func(*Model)) {
	tb.Helper()
	done := make(chan struct{})
	fp.send(tb, Probe(func(m *Model) { f(m); close(done) }))
	select {
	case <-done:
	case <-time.After(floodLiveness):
		tb.Fatalf("the program ran no probe within %v", floodLiveness)
	}
}

// send hands msg to the program within floodLiveness: Send waits for the
// event loop to take it, and a test must fail, not hang, when it never does
// (the program ends at close, which releases the goroutine).
func (fp *floodProgram) send(tb testing.TB, msg tea.Msg) {
	tb.Helper()
	sent := make(chan struct{})
	go func() { fp.prog.Send(msg); close(sent) }()
	select {
	case <-sent:
	case <-time.After(floodLiveness):
		tb.Fatalf("the program took no message within %v", floodLiveness)
	}
}

// press sends k and returns how long until Update has handled it and the
// model shows want (measured on the event loop, by the probe queued right
// behind the key).
func (fp *floodProgram) press(tb testing.TB, k tea.KeyPressMsg, want string) time.Duration {
	tb.Helper()
	t0 := time.Now()
	fp.send(tb, k)
	var at time.Time
	var got string
	fp.probe(tb, func(m *Model) { at, got = time.Now(), m.viewName() })
	if got != want {
		tb.Fatalf("after %s the view is %s, want %s", k, got, want)
	}
	return at.Sub(t0)
}

// floodGoing is how many notifications a flood sends before it says it
// is going, so that every key lands in it.
const floodGoing = 1000

// flood feeds the bridge as a flooding server's engine would, a log
// notification at a time (its traffic frame and its log event), until ctx
// ends; it closes going once floodGoing are in (Frame takes a frame
// before it returns) and returns how many it sent.
func flood(ctx context.Context, br *Bridge, going chan<- struct{}) int {
	n := 0
	for ctx.Err() == nil {
		n++
		if n == floodGoing+1 {
			close(going)
		}
		line := "flood line " + strconv.Itoa(n) + "\x1b]52;c;ZXZpbA==\x07"
		data, _ := json.Marshal(line)
		raw := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":` + string(data) + `}}`)
		now := time.Now()
		br.Frame("evil", client.Frame{Time: now, Dir: client.In, Raw: raw})
		br.Event(client.LogMessage{Server: "evil", Level: "info", Data: data, Time: now})
		if n%64 == 0 {
			runtime.Gosched() // as the engine's read loop does between requests
		}
	}
	return n
}

// floodLiveness bounds one keystroke's wait in the test: generous, since
// -race on a shared machine slows the flood's every step tenfold.
const floodLiveness = 10 * time.Second

// floodLeast is how many notifications each flood sends at least.
const floodLeast = 50000

// runFlood presses keys during a flood of at least floodLeast
// notifications and returns each key's latency and the flood's size.
func runFlood(tb testing.TB, fp *floodProgram, presses int) (lat []time.Duration, sent int) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var total atomic.Int64
	start := fp.br.seqNow() // frames of earlier floods
	going := make(chan struct{})
	wg.Go(func() { total.Store(int64(flood(ctx, fp.br, going))) })
	<-going
	first := fp.br.seqNow()
	for i := 0; i < presses || fp.br.seqNow()-start < floodLeast; i++ {
		k := floodKeys[i%len(floodKeys)]
		lat = append(lat, fp.press(tb, k.key, k.view))
	}
	during := fp.br.seqNow() - first
	cancel()
	wg.Wait()
	if during < 10000 {
		tb.Fatalf("the flood sent only %d notifications while %d keys were pressed: they measured little", during, len(lat))
	}
	return lat, int(total.Load())
}

func TestKeystrokeDuringFlood(t *testing.T) {
	t.Parallel()
	fp := startFloodProgram(t)
	defer fp.close(t)
	// A prompt is open too: the flood must not disturb it.
	p := formPrompt(t, "evil", 1, "still here?", nameSchema)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	answered := make(chan question.Outcome, 1)
	go func() { answered <- fp.br.Prompt(ctx, p) }()
	for ok := false; !ok; {
		fp.probe(t, func(m *Model) { ok = len(m.prompts.panes) == 1 })
	}

	lat, sent := runFlood(t, fp, 30)
	if sent < floodLeast {
		t.Fatalf("the flood sent %d notifications, want at least %d", sent, floodLeast)
	}
	t.Logf("%d notifications, %d keys, slowest key %v (the figure is BenchmarkKeystrokeDuringFlood's)", sent, len(lat), slices.Max(lat))

	// Bounded by the rings, not by the flood.
	var traffic, logs int
	fp.probe(t, func(m *Model) {
		st := m.bridge.streams
		st.mu.Lock()
		traffic, logs = st.traffic.len(), st.logs.len()
		st.mu.Unlock()
	})
	if traffic > 10000 || logs > 5000 {
		t.Errorf("after %d notifications the rings hold %d frames and %d log lines; want at most 10,000 and 5,000", sent, traffic, logs)
	}
	// The pane still takes its answer.
	fp.press(t, tea.KeyPressMsg{Code: tea.KeyF4}, "Questions")
	fp.prog.Send(tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl})
	select {
	case o := <-answered:
		if o.Kind != question.Decline {
			t.Errorf("the prompt ended %v, want decline", o.Kind)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the prompt took no answer after the flood")
	}
}

// BenchmarkKeystrokeDuringFlood: how long a keystroke waits to be handled
// (Send to Update done) while a server floods log notifications as fast
// as they can be delivered; a frame at 60 Hz is 16.7 ms.
func BenchmarkKeystrokeDuringFlood(b *testing.B) {
	fp := startFloodProgram(b)
	defer fp.close(b)
	var all []time.Duration
	sent := 0
	for b.Loop() {
		lat, n := runFlood(b, fp, 100)
		all = append(all, lat...)
		sent += n
	}
	slices.Sort(all)
	q := func(f float64) float64 {
		return float64(all[min(len(all)-1, int(f*float64(len(all))))].Microseconds())
	}
	b.ReportMetric(q(0.50), "p50-µs/key")
	b.ReportMetric(q(0.99), "p99-µs/key")
	b.ReportMetric(float64(all[len(all)-1].Microseconds()), "max-µs/key")
	b.ReportMetric(float64(sent)/float64(b.N), "notifications/op")
}

// seqNow is how many frames the bridge has taken so far.
func (b *Bridge) seqNow() uint64 {
	b.streams.mu.Lock()
	defer b.streams.mu.Unlock()
	return b.streams.seq
}
