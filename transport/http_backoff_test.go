package transport

import (
	"testing"
	"time"
)

// The wait before a reconnect, step by step: floored whatever the server's
// retry, doubled per quiet reconnect (a fresh event id is not a message),
// reset by a connection that delivered one, capped lower for a server that
// answers than for one that fails, and never below the server's retry.
func TestHTTPCursorWait(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	cur := newHTTPCursor()
	cur.retry = 0 // "retry: 0"
	var got []time.Duration
	for range 7 {
		cur.lastID += "x" // the cursor moves, but nothing is delivered
		cur.ended(cur.msgs)
		got = append(got, cur.wait())
	}
	want := []time.Duration{250 * ms, 500 * ms, time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("quiet reconnects wait %v, want %v", got, want)
		}
	}
	before := cur.msgs
	cur.msgs++
	cur.ended(before)
	if d := cur.wait(); d != 250*ms {
		t.Errorf("after a message: %v, want the floor", d)
	}
	for range 10 {
		cur.failed()
	}
	if d := cur.wait(); d != httpMaxBackoff {
		t.Errorf("after failures: %v, want %v", d, httpMaxBackoff)
	}
	cur.retry = time.Minute // the server's retry is a floor, above any cap
	if d := cur.wait(); d != time.Minute {
		t.Errorf("retry 1m: %v", d)
	}
}
