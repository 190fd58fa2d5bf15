package client_test

import (
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestLintDuplicateResponseFrameTime: over HTTP, the finding about a
// duplicate response carries the time the transport stamped on the
// duplicate's frame, so the traffic view can tell it from the first
// response, which has the same id (it takes the newest frame of the id
// not after the finding's time). The handler answers tools/list with a
// JSON batch of two responses (lintedHTTP, twice).
func TestLintDuplicateResponseFrameTime(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string][]time.Time{} // in frames by id
	s, rec := lintedHTTP(t, `[]`, true, func(f transport.Frame) {
		if m, err := jsonrpc.Decode(f.Raw); err == nil && f.Dir == transport.In && m.ID.IsValid() {
			mu.Lock()
			seen[m.ID.Raw()] = append(seen[m.ID.Raw()], f.Time)
			mu.Unlock()
		}
	})
	if _, err := s.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := expectFindings(t, s, rec, findings.DuplicateResponse)
	ref := got[0].Frame
	mu.Lock()
	times := seen[ref.ID]
	mu.Unlock()
	if len(times) != 2 {
		t.Fatalf("frames of id %q: %v, want the two responses", ref.ID, times)
	}
	if !ref.Time.Equal(times[1]) {
		t.Errorf("finding's frame time %v, want the duplicate's frame's %v (the first's: %v)",
			ref.Time.Format(time.StampNano), times[1].Format(time.StampNano), times[0].Format(time.StampNano))
	}
}
