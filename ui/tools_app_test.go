package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/elicit-dev/elicit/client/wire"
)

// TestToolAppShownAndAppOnlyNotCalled: a tool naming an MCP App is marked
// in the list and its details say the app and visibility; a tool only its
// app may call (visibility ["app"]) is marked, and enter shows why it is
// not called instead of calling it.
func TestToolAppShownAndAppOnlyNotCalled(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		opener := wire.Tool{Name: "counter", Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://counter/app.html"}}`)}
		appOnly := wire.Tool{Name: "increment", Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://counter/app.html","visibility":["app"]}}`)}
		d := newDriver(t, Options{}, withTools(opener, appOnly))
		d.keys(keyF5)
		mustShow(t, d, "counter [app]", "increment [app only]", "o its app")
		d.keys(keyDown, key1('d'))
		mustShow(t, d, "MCP App", "resourceUri   ui://counter/app.html", "visibility    app — called by its app only")
		d.keys(key1('d'), keyEnter)
		mustShow(t, d, "increment is called by its app only (visibility: app)")
		d.eng.mu.Lock()
		n := len(d.eng.calls)
		d.eng.mu.Unlock()
		if n != 0 {
			t.Fatalf("%d calls of an app-only tool, want none", n)
		}
	})
}

// TestToolsKeyOpensTheApp: o on a tool naming an app hosts it (the
// engine's HostApp, with the arguments of its last call) and the notice
// gives the page's URL; on a tool without one it says so and hosts
// nothing.
func TestToolsKeyOpensTheApp(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		plain := wire.Tool{Name: "plain"}
		opener := wire.Tool{Name: "counter", Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://counter/app.html"}}`)}
		d := newDriver(t, Options{}, withTools(plain, opener))
		d.keys(keyF5, key1('o'))
		mustShow(t, d, "plain names no MCP App")
		d.keys(keyDown, key1('o'))
		mustShow(t, d, "counter's app is at http://127.0.0.1:9/tokentokentokentoken/ (no $BROWSER: open it yourself)")
		d.eng.mu.Lock()
		hosted := append([]string(nil), d.eng.hosted...)
		d.eng.mu.Unlock()
		if len(hosted) != 1 || hosted[0] != "demo/counter map[]" {
			t.Fatalf("hosted %q, want demo/counter once", hosted)
		}
	})
}

// TestToolsHintsNameTheAppKey: the tools list's key line says "o its app"
// while the selected tool names an app the person may open, so the key is
// found without F1; not on a plain tool, nor on an app-only one (its app
// is opened from the tool that shows it).
func TestToolsHintsNameTheAppKey(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		plain := wire.Tool{Name: "plain"}
		opener := wire.Tool{Name: "counter", Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://counter/app.html"}}`)}
		appOnly := wire.Tool{Name: "increment", Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://counter/app.html","visibility":["app"]}}`)}
		d := newDriver(t, Options{}, withTools(plain, opener, appOnly))
		d.keys(keyF5)
		mustShow(t, d, "enter call · d details · s next server")
		d.keys(keyDown)
		mustShow(t, d, "enter call · d details · o its app · s next server")
		d.keys(keyDown)
		mustShow(t, d, "increment [app only]")
		if s := d.screen(); strings.Contains(s, "o its app") {
			t.Errorf("an app-only tool's hints offer o:\n%s", s)
		}
	})
}
