package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/transport"
)

// Load: 1,000 prompts at once through ONE stdio session to a real
// subprocess (this test binary running the demo server, see init), in
// both deliveries, answered by the AcceptDefaults policy. The demo's storm
// tool gives question i the default i, so its summary proves every answer
// reached its own question. scripts/bench runs the benchmark and
// BENCHMARKS.md records the figures.

// demoEnv makes this test binary the demo server over stdio.
const demoEnv = "ELICIT_CLIENT_TEST_DEMO"

func init() {
	if os.Getenv(demoEnv) == "" {
		return
	}
	if err := demo.ServeStdio(context.Background(), nil); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// loadPrompts is how many prompts one storm asks at once.
const loadPrompts = 1000

// loadEras are the two deliveries: "" detects 2026-07-28 (MRTR, one round
// of 1,000 inputRequests), the pin gives 1,000 elicitation/create requests.
var loadEras = []struct{ name, protocol string }{
	{"requests-2025-11-25", wire.Protocol2025_11_25},
	{"mrtr-2026-07-28", ""},
}

// startDemoProcess connects to the demo server in a subprocess.
func startDemoProcess(tb testing.TB, protocol string, j *question.Journal) *client.Session {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), liveness)
	defer cancel()
	s, err := client.Connect(ctx, &transport.Stdio{
		Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: []string{demoEnv + "=1"},
		ShutdownGrace: time.Second,
	}, &client.Options{Name: "demo", Protocol: protocol, Prompter: question.AcceptDefaults, Journal: j})
	if err != nil {
		tb.Fatalf("Connect: %v", err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

// storm runs one storm of n and checks every answer found its question.
func storm(tb testing.TB, s *client.Session, n int) {
	tb.Helper()
	res, err := s.CallTool(context.Background(), "storm", map[string]any{"n": n}, nil)
	if err != nil {
		tb.Fatalf("storm: %v", err)
	}
	var sum demo.StormSummary
	if err := json.Unmarshal(res.StructuredContent, &sum); err != nil {
		tb.Fatalf("storm summary %s: %v", res.StructuredContent, err)
	}
	if sum.N != n || sum.Accepted != n || len(sum.Mismatched) != 0 || len(sum.Values) != n {
		tb.Fatalf("storm of %d: accepted %d, mismatched %v, first error %q", n, sum.Accepted, sum.Mismatched, sum.FirstError)
	}
	for i, v := range sum.Values {
		if v == nil || *v != i+1 {
			tb.Fatalf("question %d got %v", i+1, v)
		}
	}
}

// latencies returns the sorted prompt latencies of the last n entries.
func latencies(j *question.Journal, n int) []time.Duration {
	e := j.Entries()
	e = e[max(0, len(e)-n):]
	out := make([]time.Duration, len(e))
	for i, x := range e {
		out[i] = x.Latency
	}
	slices.Sort(out)
	return out
}

func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

// peakRSS is this process's high-water resident set (VmHWM), in bytes.
func peakRSS(tb testing.TB) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		tb.Skipf("no /proc: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	tb.Skip("no VmHWM in /proc/self/status")
	return 0
}

// TestLoadOneStdioSession is the correctness half of the load benchmark:
// 1,000 prompts at once, each answer to its own question, every prompt
// journalled accept, nothing held after.
func TestLoadOneStdioSession(t *testing.T) {
	t.Parallel()
	for _, era := range loadEras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			j := question.NewJournal(loadPrompts)
			s := startDemoProcess(t, era.protocol, j)
			storm(t, s, loadPrompts)
			waitFor(t, "the journal", func() bool { return j.Counts()[question.Accept] == loadPrompts })
			if c := j.Counts(); c.Total() != loadPrompts {
				t.Errorf("journal %v", c)
			}
			if o, i := s.Pending(); o != 0 || i != 0 {
				t.Errorf("Pending %d, %d", o, i)
			}
		})
	}
}

// BenchmarkLoad1000Prompts reports, per storm of 1,000 prompts: the wall
// time (ns/op), prompt latency in the engine (arrival to answer written;
// for MRTR the whole round, since its one retry carries every answer),
// and the process's peak RSS.
func BenchmarkLoad1000Prompts(b *testing.B) {
	for _, era := range loadEras {
		b.Run(era.name, func(b *testing.B) {
			j := question.NewJournal(loadPrompts)
			s := startDemoProcess(b, era.protocol, j)
			storm(b, s, 10) // warm up: schemas cached, pipes primed
			var all []time.Duration
			b.ReportAllocs()
			for b.Loop() {
				storm(b, s, loadPrompts)
				b.StopTimer()
				// The last prompt is journalled just after its answer
				// went out, so the call may return first.
				deadline := time.Now().Add(liveness)
				for j.Counts().Total() < 10+loadPrompts*(len(all)/loadPrompts+1) && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond) // the interval of a poll of the journal, untimed
				}
				all = append(all, latencies(j, loadPrompts)...)
				b.StartTimer()
			}
			slices.Sort(all)
			b.ReportMetric(float64(quantile(all, 0.50).Microseconds()), "p50-µs/prompt")
			b.ReportMetric(float64(quantile(all, 0.99).Microseconds()), "p99-µs/prompt")
			b.ReportMetric(float64(peakRSS(b))/(1<<20), "peak-RSS-MB")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*loadPrompts), "ns/prompt")
			if testing.Verbose() {
				fmt.Fprintf(os.Stderr, "%s: %d prompts, p50 %v p99 %v\n", era.name, len(all), quantile(all, 0.5), quantile(all, 0.99))
			}
		})
	}
}
