package ui

import (
	"errors"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
)

// The screen's chrome: the pane header, the tab bar, the status bar.

// TestPaneKeepsTheServersNameAfterADisconnect: the pane header names the
// server as it named itself (serverInfo) after the server disconnects,
// when the engine's status no longer carries its serverInfo, whether the
// state event or a fresh server list says so.
func TestPaneKeepsTheServersNameAfterADisconnect(t *testing.T) {
	t.Parallel()
	d := newDriver(t, Options{}, func(e *fakeEngine) {
		e.servers[0].Info = wire.Implementation{Name: "elicit-demo", Title: "Elicit \x1b[31mDemo"}
	})
	d.open(formPrompt(t, "demo", 1, "Who are you?", nameSchema))
	mustShow(t, d, "demo (Elicit ␛[31mDemo)  demo#1")
	gone := errors.New("transport closed")
	d.send(eventMsg{e: client.ServerStateChanged{Server: "demo", State: client.StateDisconnected, Err: gone}})
	mustShow(t, d, "demo (Elicit ␛[31mDemo)  demo#1")
	d.send(serversMsg{{Name: "demo", State: client.StateDisconnected, Err: gone}})
	mustShow(t, d, "demo (Elicit ␛[31mDemo)  demo#1")
	// A server that comes back as another implementation is named so.
	d.send(serversMsg{{Name: "demo", State: client.StateReady, Info: wire.Implementation{Name: "other"}}})
	mustShow(t, d, "demo (other)  demo#1")
}
