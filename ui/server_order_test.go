package ui

import (
	"testing"
	"testing/synctest"

	"github.com/elicit-dev/elicit/client"
)

// TestToolsStartOnTheFirstServerInOrder (issue 26): the tools view is on
// the first server of the engine's list (the order given: flags, config)
// once that list comes, whichever server connected first and whatever
// order their events came in; once the person moves it (s), it stays.
func TestToolsStartOnTheFirstServerInOrder(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ordered := []ServerStatus{
			{Name: "demo", State: client.StateReady, Protocol: "2025-11-25"},
			{Name: "two", State: client.StateReady, Protocol: "2025-06-18"},
		}
		d := newDriver(t, Options{}, func(e *fakeEngine) { e.servers = nil })
		// two connects first; the engine's list comes after both events.
		d.send(eventMsg{e: client.ServerStateChanged{Server: "two", State: client.StateReady}})
		d.send(eventMsg{e: client.ServerStateChanged{Server: "demo", State: client.StateReady}})
		d.send(serversMsg(ordered))
		if got := d.tools().server; got != "demo" {
			t.Fatalf("the tools view is on %q, want demo (the first in order)", got)
		}
		d.keys(keyF5)
		mustShow(t, d, "Tools of demo")
		d.keys(key1('s'))
		mustShow(t, d, "Tools of two")
		d.send(serversMsg(ordered))
		mustShow(t, d, "Tools of two")
	})
}
