package ui

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/elicit-dev/elicit/client"
)

// TestUndeclaredListSaysSo: a server that did not declare resources or
// prompts is not asked (the engine says so with client.ErrUndeclared):
// its view says it declared none, plainly, not that a request failed.
func TestUndeclaredListSaysSo(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, func(e *fakeEngine) {
			e.listErr = map[string]error{
				"resources demo": &client.UndeclaredError{Server: "demo", Method: "resources/list", Capability: "resources"},
				"prompts demo":   &client.UndeclaredError{Server: "demo", Method: "prompts/list", Capability: "prompts"},
			}
		})
		d.keys(keyF9)
		mustShow(t, d, "demo did not declare resources")
		d.keys(keyF9)
		mustShow(t, d, "demo did not declare prompts")
		if s := d.screen(); strings.Contains(s, "failed") {
			t.Errorf("an undeclared list is shown as a failure:\n%s", s)
		}
	})
}
