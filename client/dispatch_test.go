package client

import (
	"fmt"
	"testing"
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
