package wire

import (
	"bytes"
	"runtime"
	"testing"
)

// BenchmarkDecodeExactManyItems: a resources/read result of 1,000,000
// tiny contents (`{"uri":"u","text":"x"}`), decoded by exact names into
// its Go type, by the map-rebuilding pass of before (old: a map and a
// field table per item) and the walk in place (new). alloc×doc is what
// one decode allocates, in documents.
//
//	go test -run '^$' -bench BenchmarkDecodeExactManyItems -benchtime 3x -benchmem ./client/wire
func BenchmarkDecodeExactManyItems(b *testing.B) {
	var doc bytes.Buffer
	doc.WriteString(`{"contents":[`)
	for i := range 1_000_000 {
		if i > 0 {
			doc.WriteByte(',')
		}
		doc.WriteString(`{"uri":"u","text":"x"}`)
	}
	doc.WriteString(`]}`)
	raw := doc.Bytes()
	for _, c := range []struct {
		name   string
		decode func([]byte, any) error
	}{{"old", oldDecodeExact}, {"new", DecodeExact}} {
		b.Run(c.name, func(b *testing.B) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				var res struct {
					Contents []ResourceContents `json:"contents"`
				}
				if err := c.decode(raw, &res); err != nil || len(res.Contents) != 1_000_000 {
					b.Fatal(err, len(res.Contents))
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(raw)), "alloc×doc")
		})
	}
}
