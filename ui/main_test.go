package ui

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks for leaked goroutines. Two allowances, both outside our
// code: teatest leaves one goroutine per test model waiting for SIGINT,
// and a tea.Program does not stop its pending tea.Tick timers and cursor
// blinks on Quit: each is one timer (the longest of ours, the waiting-time
// tick, is 1 s) and ends when it fires, with no program left to arm
// another; a batch
// waits for its commands, each of which is checked itself. The driver
// waits for the commands it ran (newDriver's cleanup).
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(goleak.IgnoreAnyFunction("github.com/charmbracelet/x/exp/teatest/v2.NewTestModel.func2"),
			goleak.IgnoreTopFunction("charm.land/bubbletea/v2.Tick.func1"),
			goleak.IgnoreTopFunction("charm.land/bubbles/v2/cursor.(*Model).Blink.func1"),
			goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.(*Program).execBatchMsg")); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}
