package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/elicit-dev/elicit/client/question"
)

// benchModel opens n form prompts; the first has focus. With tiles, as
// many as fit are on screen (four at the driver's 120×40); without, one
// pane at a time (ctrl+s).
func benchModel(b *testing.B, n int, tiles bool) *driver {
	d := newDriver(b, Options{})
	if !tiles {
		d.send(keyCtrlS)
	}
	for i := range n {
		d.open(formPrompt(b, "demo", int64(i+1), "question", nameSchema))
	}
	if want := min(n, 4); tiles && len(d.m.prompts.tiling(&d.m.viewCtx).tiles) != want {
		b.Fatalf("%d tiles on screen, want %d", len(d.m.prompts.tiling(&d.m.viewCtx).tiles), want)
	}
	return d
}

// benchLayouts are the View and keystroke cases: one pane at a time with
// 1, 20 and 200 open, and four tiles with 4, 20 and 200 open.
var benchLayouts = []struct {
	name  string
	n     int
	tiles bool
}{
	{"panes=1", 1, false}, {"panes=20", 20, false}, {"panes=200", 200, false},
	{"tiles=4/panes=4", 4, true}, {"tiles=4/panes=20", 20, true}, {"tiles=4/panes=200", 200, true},
}

// BenchmarkView shows that rendering costs what is on screen: the focused
// pane (or the four tiles) and the strip's window, whatever the number of
// panes.
func BenchmarkView(b *testing.B) {
	for _, l := range benchLayouts {
		b.Run(l.name, func(b *testing.B) {
			d := benchModel(b, l.n, l.tiles)
			b.ReportAllocs()
			for b.Loop() {
				_ = d.m.View()
			}
		})
	}
}

// BenchmarkKeystroke is one typed rune: Update plus View, as the program
// does per key (the form's commands are not run). In tiles the key goes
// to the focused tile and all four are drawn.
func BenchmarkKeystroke(b *testing.B) {
	for _, l := range benchLayouts {
		b.Run(l.name, func(b *testing.B) {
			d := benchModel(b, l.n, l.tiles)
			k := key1('a')
			b.ReportAllocs()
			for b.Loop() {
				_, _ = d.m.Update(k)
				_ = d.m.View()
			}
		})
	}
}

// Prompt arrival to its pane in the View (BENCHMARKS.md). The clock starts
// when the engine hands the prompt to the UI (Bridge.Prompt, called from
// the engine's own goroutine) and stops when a View() first contains the
// new pane: its key ("demo#1000000": its tile's header with one pane open
// before, its strip entry with 200) and the strip's count ("201 open").
// With n panes already open, focus is on the last one, the pane a person
// works through the queue to, so the new entry lands next to it in the
// strip's window; were focus on the first of 200, the entry would be
// scrolled out and only the count would show it. A benchmark that cannot
// see the pane fails.

// arrivalPanes are the numbers of panes already open.
var arrivalPanes = []int{1, 200}

// arrivalPrompt is the i-th measured prompt: ids far above the set-up
// panes', so its strip label is unique to the iteration. The schema is
// parsed once: parsing is the engine's work, before Bridge.Prompt.
func arrivalPrompt(proto *question.Question, i int) *question.Question {
	p := *proto
	p.Key = reqKey("demo", int64(1_000_000+i))
	p.Arrived = time.Now()
	return &p
}

// arrivalWant is what the View must show once prompt p arrives as pane
// number n+1.
func arrivalWant(n int, p *question.Question) []string {
	return []string{p.Key.String(), fmt.Sprintf("%d open", n+1)}
}

// reportLatencies adds mean, p50 and p99 of lat (µs per prompt).
func reportLatencies(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		b.Fatal("no latency measured")
	}
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	slices.Sort(lat)
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	b.ReportMetric(us(sum/time.Duration(len(lat))), "mean-µs/prompt")
	b.ReportMetric(us(lat[len(lat)/2]), "p50-µs/prompt")
	b.ReportMetric(us(lat[min(len(lat)-1, len(lat)*99/100)]), "p99-µs/prompt")
}

// BenchmarkPromptToView/direct is the model's own cost: Update of the
// promptOpenedMsg Bridge.Prompt sends (the form is built here) and the
// View after it, on one goroutine, as the program's event loop runs them.
// The form's Init commands are not run: the program runs them in other
// goroutines, and the pane is in the View before they return.
//
// BenchmarkPromptToView/program is the whole path: Bridge.Prompt →
// tea.Program.Send → the event loop's Update → its View, in a real
// tea.Program (in-memory: no input, output discarded, 120×40, true
// colour), with its renderer and the form's commands running beside it.
// The watch wrapper notes the time as soon as the program's View returns;
// the renderer then writes that frame on its next tick (at most 1/60 s
// later), which is not counted. Each prompt arrives at an idle program
// (5 ms pause between prompts, not timed). On a shared two-core machine
// its p99 is mostly waiting for a core.
func BenchmarkPromptToView(b *testing.B) {
	for _, n := range arrivalPanes {
		b.Run(fmt.Sprintf("direct/panes=%d", n), func(b *testing.B) { benchArrivalDirect(b, n) })
	}
	for _, n := range arrivalPanes {
		b.Run(fmt.Sprintf("program/panes=%d", n), func(b *testing.B) { benchArrivalProgram(b, n) })
	}
}

func benchArrivalDirect(b *testing.B, n int) {
	d := benchModel(b, n, true)
	if n > 1 {
		d.send(keyF3) // from the first pane back round to the last
	}
	if last := d.m.prompts.panes[n-1]; d.m.prompts.focus != last.id {
		b.Fatalf("focus on pane %d, want the last (%d)", d.m.prompts.focus, last.id)
	}
	proto := formPrompt(b, "demo", 999, "question", nameSchema)
	lat := make([]time.Duration, 0, 1024)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p := arrivalPrompt(proto, i)
		reply := make(chan question.Outcome, 1)
		t0 := time.Now()
		_, _ = d.m.Update(promptOpenedMsg{p: p, reply: reply})
		content := d.m.View().Content
		lat = append(lat, time.Since(t0))
		if screen := ansi.Strip(content); !containsAll(screen, arrivalWant(n, p)) {
			b.Fatalf("the View lacks %q:\n%s", arrivalWant(n, p), screen)
		}
		pn := d.m.prompts.byKey[p.Key]
		if pn == nil || d.m.prompts.focused() == pn {
			b.Fatal("the new pane is missing or took focus")
		}
		d.m.prompts.removePane(&d.m.viewCtx, pn)
	}
	if len(d.m.prompts.panes) != n {
		b.Fatalf("%d panes left, want %d", len(d.m.prompts.panes), n)
	}
	reportLatencies(b, lat)
}

// viewWatch is the Model as the program sees it, noting when a View
// first shows every string in want.
type viewWatch struct {
	*Model
	mu    sync.Mutex
	want  []string
	hit   chan time.Time // capacity 1
	views int            // Views rendered, for views/prompt
}

func (w *viewWatch) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := w.Model.Update(msg)
	return w, cmd
}

func (w *viewWatch) View() tea.View {
	v := w.Model.View()
	at := time.Now() // before the check, which is the benchmark's cost
	w.mu.Lock()
	defer w.mu.Unlock()
	w.views++
	if w.want != nil && containsAll(ansi.Strip(v.Content), w.want) {
		w.want = nil
		w.hit <- at
	}
	return v
}

func (w *viewWatch) expect(want []string) {
	w.mu.Lock()
	w.want = want
	w.mu.Unlock()
}

// probe runs f on the event loop and waits for it.
func probe(b *testing.B, prog *tea.Program, f func(*Model)) {
	b.Helper()
	done := make(chan struct{})
	prog.Send(Probe(func(m *Model) { f(m); close(done) }))
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		b.Fatal("the program ran no probe within 5 s")
	}
}

func benchArrivalProgram(b *testing.B, n int) {
	br := NewBridge(BridgeOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	w := &viewWatch{Model: New(newFakeEngine(), br, Options{Context: ctx, OpenURL: func(string) error { return nil }, ArmDelay: -1}),
		hit: make(chan time.Time, 1)}
	prog := tea.NewProgram(w, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithWindowSize(120, 40), tea.WithColorProfile(colorprofile.TrueColor),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}), tea.WithoutSignalHandler())
	ran := make(chan error, 1)
	go func() { _, err := prog.Run(); ran <- err }()
	br.Attach(prog.Send)
	var prompts sync.WaitGroup // the engine goroutines blocked in Bridge.Prompt
	defer func() {
		br.Close() // every Prompt still waiting returns
		prompts.Wait()
		prog.Quit()
		if err := <-ran; err != nil && !errors.Is(err, tea.ErrProgramKilled) {
			b.Errorf("program: %v", err)
		}
		cancel()
	}()

	for i := range n {
		p := formPrompt(b, "demo", int64(i+1), "question", nameSchema)
		prompts.Go(func() { br.Prompt(ctx, p) })
		// One at a time, so that the first has focus.
		for ok := false; !ok; {
			probe(b, prog, func(m *Model) { ok = len(m.prompts.panes) == i+1 })
		}
	}
	if n > 1 {
		prog.Send(tea.KeyPressMsg{Code: tea.KeyF3})
	}
	for ok, tries := false, 0; !ok; tries++ {
		if tries == 1000 {
			b.Fatal("focus never reached the last pane")
		}
		probe(b, prog, func(m *Model) { ok = m.prompts.focused() == m.prompts.panes[n-1] && m.width == 120 })
	}

	proto := formPrompt(b, "demo", 999, "question", nameSchema)
	lat := make([]time.Duration, 0, 1024)
	w.mu.Lock()
	w.views = 0
	w.mu.Unlock()
	for i := 0; b.Loop(); i++ {
		p := arrivalPrompt(proto, i)
		w.expect(arrivalWant(n, p))
		start := make(chan time.Time, 1)
		answered := make(chan struct{})
		go func() {
			defer close(answered)
			start <- time.Now()
			br.Prompt(ctx, p)
		}()
		t0 := <-start
		select {
		case at := <-w.hit:
			lat = append(lat, at.Sub(t0))
		case <-time.After(5 * time.Second):
			b.Fatalf("no View showed %q within 5 s", arrivalWant(n, p))
		}
		// Answer and drop the pane, so the next prompt arrives to n again.
		probe(b, prog, func(m *Model) {
			if pn := m.prompts.byKey[p.Key]; pn != nil {
				pn.reply <- question.Outcome{Kind: question.Cancel}
				m.prompts.removePane(&m.viewCtx, pn)
			}
		})
		<-answered
		// Let the program go idle (the form's Init results come back and
		// are drawn), so each prompt arrives at a settled UI, as a single
		// prompt does in use; a burst is the load benchmark's business.
		b.StopTimer()
		time.Sleep(5 * time.Millisecond) // pacing between measured arrivals, untimed; nothing checked depends on it
		b.StartTimer()
	}
	probe(b, prog, func(m *Model) {
		if len(m.prompts.panes) != n {
			b.Errorf("%d panes left, want %d", len(m.prompts.panes), n)
		}
	})
	reportLatencies(b, lat)
	w.mu.Lock()
	// Every message the program handles is followed by a full View: the
	// prompt, its form's Init results, the benchmark's clean-up probe.
	b.ReportMetric(float64(w.views)/float64(len(lat)), "views/prompt")
	w.mu.Unlock()
}
