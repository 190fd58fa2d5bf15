package client_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// hugeItems is how many content blocks the huge result has: 1,000,000
// blocks of `{"type":"text","text":"x"}` are a 27 MB frame, where every
// byte a decoded block costs beyond its own 27 is multiplied a millionfold.
const hugeItems = 1_000_000

// hugeResultBody is the result member of that frame.
func hugeResultBody(items int) []byte {
	var b bytes.Buffer
	b.Grow(items*27 + 16)
	b.WriteString(`{"content":[`)
	for i := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"text","text":"x"}`)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// hugePeer is a 2025-11-25 server over transport.PipeIO that answers every
// tools/call with body, written in pieces so that the server's side
// allocates nothing per call and the benchmark counts only the client.
type hugePeer struct {
	w    io.WriteCloser
	r    io.ReadCloser
	body []byte
	done chan struct{}
}

func (p *hugePeer) readLoop() {
	defer close(p.done)
	br := bufio.NewReaderSize(p.r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return
		}
		m, err := jsonrpc.Decode(line)
		if err != nil || m.Kind() != jsonrpc.KindRequest {
			continue
		}
		id, _ := json.Marshal(m.ID)
		head := `{"jsonrpc":"2.0","id":` + string(id) + `,"result":`
		switch m.Method {
		case wire.MethodInitialize:
			_, _ = io.WriteString(p.w, head+`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"huge","version":"0"}}}`+"\n")
		case wire.MethodToolsCall:
			_, _ = io.WriteString(p.w, head)
			_, _ = p.w.Write(p.body)
			_, _ = io.WriteString(p.w, "}\n")
		default:
			_, _ = io.WriteString(p.w, `{"jsonrpc":"2.0","id":`+string(id)+`,"error":{"code":-32601,"message":"method not found"}}`+"\n")
		}
	}
}

// connectHuge connects a session to a hugePeer answering with body.
func connectHuge(tb testing.TB, body []byte) *client.Session {
	tb.Helper()
	conn, sr, sw := transport.PipeIO(nil)
	p := &hugePeer{w: sw, r: sr, body: body, done: make(chan struct{})}
	go p.readLoop()
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	s, err := client.Connect(ctx, connTransport{conn}, &client.Options{Name: "huge", Protocol: wire.Protocol2025_11_25})
	if err != nil {
		tb.Fatalf("Connect: %v", err)
	}
	tb.Cleanup(func() {
		_ = s.Close()
		_ = sw.Close()
		_ = sr.Close()
		<-p.done
	})
	return s
}

// BenchmarkDecodeHugeResult: a 26 MB tools/call result of 1,000,000 tiny
// text blocks, from the frame's bytes on the pipe through the transport,
// jsonrpc.Decode, Session.do and the exact-name decoding to the
// *wire.CallToolResult. Besides B/op it reports, as multiples of the
// frame: what the decoded result keeps alive (×frame: the live heap after
// GC with the result held, less the heap before), what one call allocates
// (alloc×frame), and the process's peak RSS during the call
// (peakRSS×frame, VmHWM reset before each call).
//
//	go test -run '^$' -bench BenchmarkDecodeHugeResult -benchtime 5x -benchmem ./client
func BenchmarkDecodeHugeResult(b *testing.B) {
	body := hugeResultBody(hugeItems)
	frame := float64(len(body) + len(`{"jsonrpc":"2.0","id":2,"result":}`))
	s := connectHuge(b, body)
	var kept, peak, alloc float64
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		debug.FreeOSMemory()
		before, allocBefore := heapLive()
		resetPeakRSS()
		b.StartTimer()
		res, err := s.CallTool(context.Background(), "huge", nil, nil)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if n := len(res.Content); n != hugeItems || res.Content[n-1].Text != "x" {
			b.Fatalf("%d blocks, the last %+v", n, res.Content[n-1])
		}
		peak = max(peak, float64(peakRSS(b)))
		live, allocAfter := heapLive()
		kept = max(kept, float64(live-before))
		alloc = max(alloc, float64(allocAfter-allocBefore))
		runtime.KeepAlive(res)
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(kept/frame, "×frame")
	b.ReportMetric(peak/frame, "peakRSS×frame")
	b.ReportMetric(alloc/frame, "alloc×frame")
}

// heapLive is the heap in use by live objects after a full GC, and the
// bytes allocated since the process started.
func heapLive() (live, total uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, ms.TotalAlloc
}

// resetPeakRSS resets the process's VmHWM to its current RSS (Linux's
// clear_refs "5"; peakRSS skips where there is no /proc).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }
