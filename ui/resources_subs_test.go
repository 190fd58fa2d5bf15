package ui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
)

func withSubscribe(e *fakeEngine) {
	for i := range e.servers {
		if e.servers[i].Name == "demo" {
			e.servers[i].Caps.ResourcesSubscribe = true
		}
	}
}

func (f *fakeEngine) subsAsked() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.subs...)
}

// TestResourceSubscribeMarksAndRereads: u subscribes to the selected
// resource and again unsubscribes; an update marks the row, and the
// resource on show is read again at once.
func TestResourceSubscribeMarksAndRereads(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withResources, withSubscribe)
		var n atomic.Int32
		d.eng.readFn = func(_ context.Context, uri string) ([]wire.ResourceContents, error) {
			return []wire.ResourceContents{{URI: uri, Text: "version " + string(rune('0'+n.Add(1)))}}, nil
		}
		d.keys(keyF9, key1('u'))
		mustShow(t, d, "subscribed to file:///notes.txt", "notes — Notes  file:///notes.txt  text/plain  subscribed")
		d.send(eventMsg{e: client.ResourceUpdated{Server: "demo", URI: "file:///notes.txt"}})
		mustShow(t, d, "subscribed  ● updated")
		d.keys(keyEnter)
		mustShow(t, d, "resources/read file:///notes.txt", "version 1")
		d.send(eventMsg{e: client.ResourceUpdated{Server: "demo", URI: "file:///notes.txt"}})
		mustShow(t, d, "version 2")
		d.keys(keyEsc)
		if strings.Contains(d.screen(), "● updated") {
			t.Errorf("reading did not clear the mark:\n%s", d.screen())
		}
		d.keys(key1('u'))
		mustShow(t, d, "unsubscribed from file:///notes.txt")
		if strings.Contains(d.screen(), "subscribed  ") {
			t.Errorf("still marked subscribed:\n%s", d.screen())
		}
		if got := d.eng.subsAsked(); !slices.Equal(got, []string{"subscribe demo file:///notes.txt", "unsubscribe demo file:///notes.txt"}) {
			t.Fatalf("subscriptions asked %q", got)
		}
	})
}

// TestResourceSubscribeNeedsTheCapability: without resources.subscribe
// nothing is asked, and the status bar says why.
func TestResourceSubscribeNeedsTheCapability(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withResources)
		d.keys(keyF9, key1('u'))
		mustShow(t, d, "declared no resources.subscribe")
		if got := d.eng.subsAsked(); len(got) != 0 {
			t.Fatalf("asked %q", got)
		}
	})
}

// TestResourceSubscriptionEndedDropsTheMark: a 2026-07-28 stream the
// server ended takes the subscribed mark away and says why.
func TestResourceSubscriptionEndedDropsTheMark(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withResources, withSubscribe)
		d.keys(keyF9, key1('u'))
		mustShow(t, d, "subscribed to file:///notes.txt", "text/plain  subscribed")
		d.send(eventMsg{e: client.ResourceSubscriptionEnded{Server: "demo", URI: "file:///notes.txt", Err: errors.New("going away")}})
		mustShow(t, d, "the subscription to file:///notes.txt on demo ended (u renews it): going away")
		if strings.Contains(d.screen(), "text/plain  subscribed") {
			t.Errorf("still marked subscribed:\n%s", d.screen())
		}
		// u subscribes again (not unsubscribes).
		d.keys(key1('u'))
		mustShow(t, d, "subscribed to file:///notes.txt")
		if got := d.eng.subsAsked(); !slices.Equal(got, []string{"subscribe demo file:///notes.txt", "subscribe demo file:///notes.txt"}) {
			t.Fatalf("subscriptions asked %q", got)
		}
	})
}
