package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/elicit-dev/elicit/client/wire"
)

// TestFormsAreDarkUntilTold (issue 26): before the terminal says its
// background (and when it never does: tmux without a client), a form is
// drawn for a dark one, as the rest of the screen is; the light palette's
// text colour (235) on a dark terminal is near-invisible.
func TestFormsAreDarkUntilTold(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		schema := `{"type":"object","properties":{"mode":{"enum":["fast","exact","careful"]},"note":{"type":"string","default":"typed text"}},"required":["mode"]}`
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "pick", InputSchema: json.RawMessage(schema)}))
		d.keys(keyF5, keyEnter)
		mustShow(t, d, "arguments for pick", "typed text")
		raw := d.m.View().Content
		if strings.Contains(raw, "38;5;235m") {
			t.Fatalf("the form is drawn in the light palette's text colour (235):\n%q", raw)
		}
		if !strings.Contains(raw, "38;5;252m") {
			t.Fatalf("the form is not drawn in the dark palette's text colour (252):\n%q", raw)
		}
	})
}
