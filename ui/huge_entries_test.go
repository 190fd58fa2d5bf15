package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
)

// A hostile server sends a few huge log notifications instead of many
// small ones: twenty 16 MB lines (each a traffic frame and a log line).

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
