package client

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

func TestDispatcherDropsOnlyHighRateEvents(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var logs, dropped int
	var notices []string
	d := newDispatcher(ObserverFunc(func(e Event) {
		<-release
		switch ev := e.(type) {
		case LogMessage:
			logs++
			dropped += ev.Dropped
		case Notice:
			notices = append(notices, ev.Text)
		}
	}))
	const flood = 5 * lossyLimit
	for i := range flood {
		d.push(LogMessage{Level: "info"}, nil)
		if i%(flood/10) == 0 {
			d.push(Notice{Text: fmt.Sprint(i)}, nil)
		}
	}
	// One more after the flood carries the count of what was dropped.
	close(release)
	d.push(LogMessage{Level: "last"}, nil)
	d.close()
	if logs+dropped != flood+1 {
		t.Errorf("delivered %d + dropped %d, want %d", logs, dropped, flood+1)
	}
	if dropped == 0 || logs > lossyLimit+2 { // the one in delivery, a full queue, "last"
		t.Errorf("delivered %d, dropped %d: the queue was not bounded", logs, dropped)
	}
	if len(notices) != 10 || notices[0] != "0" || notices[9] != fmt.Sprint(9*flood/10) {
		t.Errorf("notices %v", notices)
	}
	d.push(Notice{Text: "after close"}, nil) // dropped, no panic
}

// TestHeadlessLogCostsNothing: a notifications/message that no Observer
// will see is not decoded at all (no allocation), while an observed one is
// still read by exact member name (a "Level" is no "level").
func TestHeadlessLogCostsNothing(t *testing.T) {
	// Not parallel: AllocsPerRun counts the whole process's allocations.
	m := &jsonrpc.Message{Method: wire.NotifyMessage, Params: json.RawMessage(`{"level":"info","logger":"x","data":"` + strings.Repeat("y", 4096) + `"}`)}
	headless := newSession(&Options{Name: "headless"})
	defer headless.events.close()
	if n := testing.AllocsPerRun(100, func() { headless.offers.notify(m) }); n != 0 {
		t.Errorf("a log nobody sees cost %v allocations, want 0", n)
	}

	got := make(chan Event, 4)
	observed := newSession(&Options{Name: "observed", Observer: ObserverFunc(func(e Event) { got <- e })})
	observed.offers.notify(m)
	observed.offers.notify(&jsonrpc.Message{Method: wire.NotifyMessage, Params: json.RawMessage(`{"Level":"info","data":1}`)})
	observed.events.close()
	close(got)
	var kinds []string
	for e := range got {
		switch ev := e.(type) {
		case LogMessage:
			kinds = append(kinds, "log "+ev.Level)
		case Notice:
			kinds = append(kinds, "notice "+ev.Text)
		}
	}
	// "Level" is an unknown member, not the level: the second has none.
	want := []string{"log info", "log "}
	if !slices.Equal(kinds, want) {
		t.Errorf("events = %q, want %q", kinds, want)
	}
}
