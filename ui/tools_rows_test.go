package ui

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/wire"
)

// manyTools is n tools without arguments, "t01"…
func manyTools(n int) func(*fakeEngine) {
	var tools []wire.Tool
	for i := 1; i <= n; i++ {
		tools = append(tools, wire.Tool{Name: fmt.Sprintf("t%02d", i), Description: "a tool"})
	}
	return withTools(tools...)
}

// toolRowsShown counts the tool rows on screen.
func toolRowsShown(s string) int {
	n := 0
	for l := range strings.SplitSeq(s, "\n") {
		if t := strings.TrimLeft(l, "› "); len(t) > 3 && t[0] == 't' && strings.Contains(t, "  a tool") {
			n++
		}
	}
	return n
}

// TestToolsListUsesTheRows (issue 26): at 80×24 the tools list takes the
// rows the calls do not need (no call yet: all but one), not half the
// screen with ten blank rows under "no calls yet"; after a call with a
// short result, the rows that result leaves.
func TestToolsListUsesTheRows(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, manyTools(30))
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		d.keys(keyF5)
		body := d.m.bodyHeight()
		// The title's lines and "no calls yet" aside, every row.
		if n, want := toolRowsShown(d.screen()), body-d.tools().titleRows-1; n != want {
			t.Errorf("no calls: %d tool rows of a %d-row body, want %d:\n%s", n, body, want, d.screen())
		}
		d.keys(keyEnter) // t01 takes no arguments: called at once
		callsDone(d)
		s := d.screen()
		if !strings.Contains(s, "Calls (0 running)") {
			t.Fatalf("no call on screen:\n%s", s)
		}
		// The title's lines, the calls' head, the call's row and the empty
		// result's line aside, every row.
		if n, want := toolRowsShown(s), body-d.tools().titleRows-3; n != want {
			t.Errorf("one call: %d tool rows of a %d-row body, want %d:\n%s", n, body, want, s)
		}
		if got := strings.Count(s, "\n") + 1; got != 24 {
			t.Errorf("the screen is %d lines, want 24", got)
		}
	})
}
