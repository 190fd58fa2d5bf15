package ui

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
)

// TestNoLineOfOursIsCutAt80: every view at 80×24, as its screen draws it
// before the body is fitted, has no line wider than the screen: the
// fitting cuts such a line silently, which took "r reconnect" off the
// tools' title and "suggestions as you type" off a template's form
// (issue 26). List rows are cut with "…" by the views themselves.
func TestNoLineOfOursIsCutAt80(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, twoServers, withResources, withResTemplates, withTemplates, withCompletions,
			withTools(fourTools()...))
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		check := func(where string) {
			t.Helper()
			for i, l := range strings.Split(d.m.shown.render(&d.m.viewCtx), "\n") {
				if w := ansi.StringWidth(l); w > 80 {
					t.Errorf("%s: line %d is %d wide, cut at 80: %q", where, i, w, ansi.Strip(l))
				}
			}
		}
		for i, tb := range d.m.tabs {
			d.m.setView(viewID(i))
			d.run(d.m.shown.enter(&d.m.viewCtx))
			check(fmt.Sprintf("%s view", tb.name))
		}
		d.keys(keyF5, keyEnter)
		check("a tool's argument form")
		d.keys(keyEsc, keyF10, keyEnter)
		check("a prompt template's form")
		d.keys(keyEsc, keyF9)
		for range 4 {
			d.keys(keyDown)
		}
		d.keys(keyEnter)
		check("a resource template's form")

		d.keys(keyEsc, keyF11)
		d.emit(mkTask("a-task-with-a-long-enough-id-0123456789", client.TaskInputRequired, func(t *client.Task) {
			t.StatusMessage = "Waiting for an answer: The Thursday 14:00 workshop (18 people) fits nowhere in the fortnight."
		}))
		d.keys(keyEnter)
		mustShow(t, d, "Task a-task-with-a-long-enough-id")
		check("a task's details")
	})
}
