package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/elicit-dev/elicit/client"
)

// A hostile server sends a few huge log notifications instead of many
// small ones: twenty 16 MB lines, each a traffic frame and a log line,
// are 640 MB in rings bounded by count alone, and seconds a frame for a
// view that sanitizes and measures whole lines. The rings are bounded by
// bytes too, a huge entry keeps a bounded prefix, and a frame's work is
// what it shows.

// hugeEntry is the size of each huge log line.
const hugeEntry = 16 << 20

// hugeEvil opens each huge line: what a terminal would act on (C1
// controls, a bidi override), where the views show it.
const hugeEvil = "\u009b2J\u009d0;title\u009c \u202eevil "

// feedHuge hands br n log notifications of size bytes each, as the engine
// does: the frame, then the log event.
func feedHuge(br *Bridge, n, size int) {
	text := hugeEvil + strings.Repeat("x", size-len(hugeEvil))
	data, _ := json.Marshal(text)
	for i := range n {
		raw := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":` + string(data) + `}}`)
		now := time.Now()
		br.Frame("huge", client.Frame{Time: now, Dir: client.In, Raw: raw})
		br.Event(client.LogMessage{Server: "huge", Level: "info", Logger: strings.Repeat("l", i), Data: data, Time: now})
	}
}

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestBridgeHugeLogsBounded: twenty 16 MB log notifications leave the
// rings under their byte bounds, by the store's own account and by the
// heap (a generous bound: 640 MB is what it catches), each
// entry cut to its prefix with what was cut counted; the log and traffic
// views show them and say how much more there was.
func TestBridgeHugeLogsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Not parallel: it weighs the heap.
		d := newDriver(t, Options{})
		br := d.m.bridge
		before := liveHeap()
		feedHuge(br, 20, hugeEntry)
		grew := int64(liveHeap()) - int64(before)
		st := br.streams
		st.mu.Lock()
		tb, lb, tn, ln := st.traffic.bytes, st.logs.bytes, st.traffic.len(), st.logs.len()
		cut := st.logs.at(ln - 1).Cut
		st.mu.Unlock()
		t.Logf("traffic %d entries, %d B; logs %d entries, %d B; heap grew %d MB", tn, tb, ln, lb, grew>>20)
		if tb > trafficBytes || lb > logBytes || tn != 20 || ln != 20 {
			t.Errorf("traffic %d entries in %d B, logs %d in %d B; want 20 each within %d and %d B", tn, tb, ln, lb, trafficBytes, logBytes)
		}
		if tb > 20*(entryKeep+4<<10) || lb > 20*(entryKeep+4<<10) {
			t.Errorf("traffic %d B, logs %d B: more than a prefix of each entry kept", tb, lb)
		}
		if cut < hugeEntry-entryKeep-64 {
			t.Errorf("the last log line says %d bytes were cut, want about %d", cut, hugeEntry-entryKeep)
		}
		if grew > 64<<20 {
			t.Errorf("the heap grew by %d MB for twenty 16 MB lines, want < 64 MB", grew>>20)
		}

		d.waitInbox()
		d.keys(keyF8)
		mustShow(t, d, "Logs: 20 lines", "<U+009B>2J", "(16.7 MB more)")
		assertInertHuge(t, d.m.View().Content)
		d.keys(keyF6)
		mustShow(t, d, "Traffic: 20 frames", "(16.7 MB more)")
		d.keys(keyEnter)
		mustShow(t, d, "notifications/message", "<U+009B>2J", "16.7 MB more")
		assertInertHuge(t, d.m.View().Content)
	})
}

// assertInertHuge fails if a view holds hugeEvil's controls raw.
func assertInertHuge(t *testing.T, view string) {
	t.Helper()
	for _, r := range "\u009b\u009d\u009c\u202e" {
		if strings.ContainsRune(view, r) {
			t.Errorf("the view holds %U raw", r)
		}
	}
}

// TestExportOfCutFrame: the export writes what the ring holds of a frame
// too big to keep whole, and says how much is missing.
func TestExportOfCutFrame(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		d := newDriver(t, Options{ExportDir: dir, Now: func() time.Time { return t0 }})
		feedHuge(d.m.bridge, 1, 3*entryKeep)
		d.waitInbox()
		d.keys(keyF6, key1('e'))
		var line struct {
			Frame json.RawMessage `json:"frame"`
			Raw   string          `json:"raw"`
			Cut   int             `json:"cut"`
		}
		data, err := os.ReadFile(filepath.Join(dir, "elicit-traffic-20260102-150405.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &line); err != nil {
			t.Fatal(err)
		}
		if line.Frame != nil || len(line.Raw) != entryKeep || line.Cut < 2*entryKeep ||
			!strings.HasPrefix(line.Raw, `{"jsonrpc":"2.0","method":"notifications/message"`) {
			t.Errorf("exported frame %d bytes of raw, cut %d, starting %.60q", len(line.Raw), line.Cut, line.Raw)
		}
	})
}

// TestRingByteBound: the oldest entries go as soon as the bytes would
// exceed the bound, the count bound still holds, the newest is kept even
// alone over the bound, and what goes is released.
func TestRingByteBound(t *testing.T) {
	t.Parallel()
	r := newRing[string](4, 10, func(s *string) int { return len(*s) })
	for _, s := range []string{"aaaa", "bbbb", "cc", "d"} {
		r.push(s)
	}
	if r.len() != 3 || *r.at(0) != "bbbb" || r.bytes != 7 {
		t.Fatalf("len %d bytes %d oldest %q", r.len(), r.bytes, *r.at(0))
	}
	r.push("e")
	r.push("f") // the count bound: bbbb goes
	if r.len() != 4 || *r.at(0) != "cc" || *r.at(3) != "f" || r.bytes != 5 {
		t.Fatalf("len %d bytes %d oldest %q", r.len(), r.bytes, *r.at(0))
	}
	r.push(strings.Repeat("z", 20)) // over the bound alone: kept alone
	if r.len() != 1 || r.bytes != 20 {
		t.Fatalf("len %d bytes %d", r.len(), r.bytes)
	}
	for i := range len(r.buf) {
		if i != r.start && r.buf[i] != "" {
			t.Errorf("slot %d still holds %q after it left the ring", i, r.buf[i])
		}
	}
}

// BenchmarkViewHugeEntries: a frame of the log view showing twenty 16 MB
// lines, and of the traffic view's detail of a 16 MB frame.
//
//	go test -run '^$' -bench BenchmarkViewHugeEntries -benchtime 5x ./ui
func BenchmarkViewHugeEntries(b *testing.B) {
	for _, view := range []string{"logs", "traffic-detail"} {
		b.Run(view, func(b *testing.B) {
			d := newDriver(b, Options{})
			feedHuge(d.m.bridge, 20, hugeEntry)
			d.waitInbox()
			if view == "logs" {
				d.keys(keyF8)
			} else {
				d.keys(keyF6, keyEnter)
			}
			if !strings.Contains(d.screen(), "notifications/message") && !strings.Contains(d.screen(), "Logs: 20 lines") {
				b.Fatalf("not on screen:\n%s", d.screen())
			}
			b.ReportAllocs()
			for b.Loop() {
				_ = d.m.View()
			}
		})
	}
}
