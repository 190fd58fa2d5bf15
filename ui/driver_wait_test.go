package ui

import (
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Whether a command the driver started is work (wait for its message) or a
// wait (blink, spinner and waiting-time ticks, a fake call a test gates,
// for long or for ever) is decided by synctest: the test runs in a bubble,
// and synctest.Wait returns once every other goroutine in it is durably
// blocked. The command has then either returned and offers its message,
// or it is parked on a timer or a channel of the bubble and will not move
// until the test does something or the bubble's clock advances, which
// happens only when the test blocks too. Work that takes long (a loaded
// machine, -race, a lock, a file write) is not durably blocked, so it is
// waited for however long it takes; no wall-clock guess is involved.

// takeSettled is the driver's take inside a bubble.
func takeSettled(ch <-chan tea.Msg) (tea.Msg, bool) {
	synctest.Wait()
	select {
	case msg := <-ch:
		return msg, true
	default:
		return nil, false
	}
}

// inBubble reports whether the caller runs in a synctest bubble, where
// alone synctest.Wait does not panic.
func inBubble() (in bool) {
	defer func() {
		if recover() != nil {
			in = false
		}
	}()
	synctest.Wait()
	return true
}

// benchCmdWait is how long a benchmark's driver waits for a command.
// synctest.Test takes a *testing.T, so a benchmark has no bubble; it sets
// a model up and measures it, and what its set-up needs (panes opened,
// focus, the size) the driver's synchronous Updates decide, which the
// benchmarks check. A command slower than this, on a stalled machine,
// loses its message (a blink; a list load, so the model measured lacks
// that list): a figure off, never a check passed wrongly.
const benchCmdWait = 30 * time.Millisecond

// takeWithin is the driver's take in a benchmark: the message if the
// command returns within wait.
func takeWithin(wait time.Duration) func(<-chan tea.Msg) (tea.Msg, bool) {
	return func(ch <-chan tea.Msg) (tea.Msg, bool) {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case msg := <-ch:
			return msg, true
		case <-t.C:
			return nil, false
		}
	}
}
