package ui

import (
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestMain checks for leaked goroutines. Two allowances, both outside our
// code: teatest leaves one goroutine per test model waiting for SIGINT,
// and a tea.Program does not stop its pending tea.Tick timers on Quit, so
// we let the longest of ours (the 1 s waiting-time tick) run out first.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		time.Sleep(1100 * time.Millisecond)
		if err := goleak.Find(goleak.IgnoreAnyFunction("github.com/charmbracelet/x/exp/teatest/v2.NewTestModel.func2")); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}
