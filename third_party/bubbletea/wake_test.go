package tea

import (
	"bytes"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingRenderer counts flushes and the views it was given.
type countingRenderer struct {
	nilRenderer
	flushes atomic.Int64
	mu      sync.Mutex
	last    string
}

func (r *countingRenderer) flush(bool) error { r.flushes.Add(1); return nil }

func (r *countingRenderer) render(v View) {
	r.mu.Lock()
	r.last = v.Content
	r.mu.Unlock()
}

type wakeModel struct{ n int }

type bumpMsg struct{}

func (m wakeModel) Init() Cmd { return nil }

func (m wakeModel) Update(msg Msg) (Model, Cmd) {
	if _, ok := msg.(bumpMsg); ok {
		m.n++
	}
	return m, nil
}

func (m wakeModel) View() View { return NewView(string(rune('a' + m.n%26))) }

// TestRendererIdleDoesNotFlush is elicit's change (ELICIT.md): an idle
// program does not flush at its frame rate; a message is flushed soon
// after it is handled, and frames stay capped at the frame rate.
func TestRendererIdleDoesNotFlush(t *testing.T) {
	r := &countingRenderer{}
	var in, out bytes.Buffer
	p := NewProgram(wakeModel{}, WithInput(&in), WithOutput(&out), WithFPS(120))
	p.renderer = r
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := p.Run(); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	waitFor(t, func() bool { return r.flushes.Load() >= 1 }, "the first frame")
	time.Sleep(50 * time.Millisecond) // the start-up's own messages settle
	idle := r.flushes.Load()
	time.Sleep(300 * time.Millisecond) // 36 frames at 120 fps with a ticker
	if n := r.flushes.Load() - idle; n != 0 {
		t.Errorf("%d flushes in 300 ms with nothing to draw, want 0", n)
	}
	before := r.flushes.Load()
	p.Send(bumpMsg{})
	waitFor(t, func() bool { return r.flushes.Load() > before }, "a flush after a message")
	// A burst of messages is drawn in few frames, not one flush each.
	before = r.flushes.Load()
	start := time.Now()
	for range 200 {
		p.Send(bumpMsg{})
	}
	waitFor(t, func() bool { return r.flushes.Load() > before }, "a flush after the burst")
	time.Sleep(20 * time.Millisecond)
	frames := r.flushes.Load() - before
	if most := int64(time.Since(start)/(time.Second/120)) + 2; frames > most {
		t.Errorf("%d flushes for a burst of 200 messages in %v, more than the 120 fps cap allows (%d)", frames, time.Since(start), most)
	}
	p.Quit()
	<-done
}

func waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
