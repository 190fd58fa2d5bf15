package client_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestLintDuplicateResponseFrameTime: over HTTP, the finding about a
// duplicate response carries the time the transport stamped on the
// duplicate's frame, so the traffic view can tell it from the first
// response, which has the same id (it takes the newest frame of the id
// not after the finding's time). The handler answers tools/list with a
// JSON batch of two responses.
func TestLintDuplicateResponseFrameTime(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m, err := jsonrpc.Decode(body)
		if err != nil || !m.ID.IsValid() {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := `{"resultType":"complete"}`
		switch m.Method {
		case "server/discover":
			result = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`
		case "tools/list":
			result = `{"resultType":"complete","tools":[]}`
		}
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": json.RawMessage(result)})
		if m.Method == "tools/list" {
			b = []byte("[" + string(b) + "," + string(b) + "]")
		}
		_, _ = w.Write(b)
	})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	rec := findings.NewRecorder(nil)
	var mu sync.Mutex
	seen := map[string][]time.Time{} // in frames by id
	frames := transport.ObserverFuncs{OnFrame: func(f transport.Frame) {
		rec.Frame("lint", "", f.Dir == transport.In, f.Err, f.Time)
		if m, err := jsonrpc.Decode(f.Raw); err == nil && f.Dir == transport.In && m.ID.IsValid() {
			mu.Lock()
			seen[m.ID.Raw()] = append(seen[m.ID.Raw()], f.Time)
			mu.Unlock()
		}
	}}
	s, err := client.Connect(t.Context(), &transport.HTTP{URL: ts.URL, Observer: frames},
		&client.Options{Name: "lint", Findings: rec, Prompter: question.DeclineAll})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
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
