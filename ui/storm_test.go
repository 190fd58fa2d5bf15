package ui

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
)

// TestListChangedStormCoalesced: 10,000 list_changed of one kind while
// its list request is out cost one more request after it, not 10,000:
// at most one list in flight per kind and server, and exactly one more
// when changes came meanwhile.
func TestListChangedStormCoalesced(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		what string
		keys []tea.KeyPressMsg // what puts its list on screen
	}{
		{"tools", nil},
		{"resources", []tea.KeyPressMsg{keyF9}},
		{"prompts", []tea.KeyPressMsg{keyF9, keyF9}},
	} {
		t.Run(tc.what, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				d := newDriver(t, Options{}, withResources, withTemplates)
				d.keys(tc.keys...)

				var mu sync.Mutex
				calls, inFlight, most := 0, 0, 0
				gate := make(chan struct{})
				d.eng.mu.Lock()
				d.eng.listHook = func(_ context.Context, what, server string) {
					if what != tc.what || server != "demo" {
						return
					}
					mu.Lock()
					calls++
					first := calls == 1
					inFlight++
					most = max(most, inFlight)
					mu.Unlock()
					if first {
						<-gate // the server is slow to answer the first
					}
					mu.Lock()
					inFlight--
					mu.Unlock()
				}
				d.eng.mu.Unlock()

				for range 10_001 {
					d.send(eventMsg{e: client.ListChanged{Server: "demo", What: tc.what}})
				}
				close(gate)
				d.awaitLate(func(msg tea.Msg) bool {
					switch msg.(type) {
					case toolsMsg, resourcesMsg, templatesMsg:
						return true
					}
					return false
				})
				mu.Lock()
				defer mu.Unlock()
				if calls != 2 || most != 1 {
					t.Errorf("%s: %d list requests, at most %d in flight; want 2, one at a time", tc.what, calls, most)
				}
				if loading(d, tc.what) {
					t.Errorf("%s: the list is still loading", tc.what)
				}
			})
		})
	}
}

// loading reports whether the shown server's list of what is loading.
func loading(d *driver, what string) bool {
	switch what {
	case "tools":
		l := d.tools().current()
		return l == nil || l.loading
	case "resources":
		l := screenOf[*resourcesView](d.m).current()
		return l == nil || l.loading
	}
	l := d.templates().current()
	return l == nil || l.loading
}
