package ui

import (
	"crypto/sha256"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
)

type (
	workDoneMsg struct{ sum [32]byte }
	gatedMsg    struct{}
	tickedMsg   struct{}
)

// busy is CPU work of some tenths of a second, more under -race.
func busy() [32]byte {
	b := make([]byte, 64<<10)
	var sum [32]byte
	for range 1500 {
		sum = sha256.Sum256(b)
		b[0] = sum[0]
	}
	return sum
}

// TestDriverWaitsForWorkAndSetsWaitsAside: what the driver takes in order
// and what it sets aside is decided by what the command does, not by how
// long it takes. Work handed to a helper goroutine and waited for on a
// channel (the command's own goroutine sits in a channel receive all
// along) is work: its message is fed in order however long it takes. A
// command parked on a gate or a timer is a wait: collect returns without
// it, and its message is kept for awaitLate once the gate opens or the
// bubble's clock passes the second.
func TestDriverWaitsForWorkAndSetsWaitsAside(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		work := func() tea.Msg {
			done := make(chan tea.Msg)
			go func() { done <- workDoneMsg{busy()} }()
			return <-done
		}
		if got := d.collect(work); len(got) != 1 {
			t.Fatalf("work handed to a helper: collect gave %d messages, want its 1 (it was taken for a wait)", len(got))
		} else if _, ok := got[0].(workDoneMsg); !ok {
			t.Fatalf("collect gave %T, want workDoneMsg", got[0])
		}

		gate := make(chan struct{})
		gated := func() tea.Msg { <-gate; return gatedMsg{} }
		if got := d.collect(gated); len(got) != 0 {
			t.Fatalf("a gated command gave %v before its gate opened", got)
		}
		close(gate)
		d.awaitLate(func(msg tea.Msg) bool { _, ok := msg.(gatedMsg); return ok })

		tick := tea.Tick(time.Second, func(time.Time) tea.Msg { return tickedMsg{} })
		if got := d.collect(tick); len(got) != 0 {
			t.Fatalf("a second's tick gave %v at once", got)
		}
		d.awaitLate(func(msg tea.Msg) bool { _, ok := msg.(tickedMsg); return ok })
	})
}
