package client_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/transport"
)

// Task polling against pollInterval: the demo's reflow_month run to
// completion, in both task designs, through one stdio session to the demo
// server in a subprocess (this test binary, as for the load benchmark).
// The polls are read off the wire: the transport Observer's outgoing
// tasks/get frames and their times. scripts/bench runs the benchmark and
// BENCHMARKS.md records the figures.

// taskDemoEnv makes this test binary the demo server with benchTaskPoll
// and benchTaskStep.
const taskDemoEnv = "ELICIT_CLIENT_TEST_TASK_DEMO"

// The pace of the benchmark's tasks: reflow_month makes 11 moves of
// benchTaskStep and asks one question, so a task lasts about 440 ms plus
// the question's round trip, about nine pollIntervals.
const (
	benchTaskPoll = 50 * time.Millisecond
	benchTaskStep = 40 * time.Millisecond
)

func init() {
	if os.Getenv(taskDemoEnv) == "" {
		return
	}
	if err := demo.ServeStdio(context.Background(), &demo.Options{TaskPollInterval: benchTaskPoll, TaskStep: benchTaskStep}); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// benchTaskDesigns are the two designs and the pins that select them.
var benchTaskDesigns = []struct {
	name     string
	protocol string
	design   client.TaskDesign
}{
	{"core-2025-11-25", wire.Protocol2025_11_25, client.TaskDesignCore},
	{"extension-2026-07-28", wire.Protocol2026_07_28, client.TaskDesignExtension},
}

// BenchmarkTaskPolling runs one reflow_month task per op and reports, per
// task: tasks/get sent (polls/task), the wall time of the call over
// pollInterval (expected-polls/task; the engine waits one interval before
// its first poll and counts each wait from the previous answer, so it can
// send at most that many), and the mean and smallest gap between two
// tasks/get frames of a task (ms), next to pollInterval (poll-ms). It fails
// if a gap is shorter than pollInterval minus 1 ms (clock granularity), if
// the wire and Task.Polls disagree, or if the task did not complete with
// the answer given.
func BenchmarkTaskPolling(b *testing.B) {
	for _, d := range benchTaskDesigns {
		b.Run(d.name, func(b *testing.B) {
			rec := &recorder{}
			ctx, cancel := context.WithTimeout(context.Background(), liveness)
			defer cancel()
			answer := question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
				return question.Outcome{Kind: question.Accept, Content: map[string]any{"choice": "split_rooms"}}
			})
			s, err := client.Connect(ctx, &transport.Stdio{
				Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: []string{taskDemoEnv + "=1"},
				ShutdownGrace: time.Second, Observer: rec,
			}, &client.Options{Name: "demo", Protocol: d.protocol, Prompter: answer, Observer: rec})
			if err != nil {
				b.Fatalf("Connect: %v", err)
			}
			defer func() { _ = s.Close() }()

			var (
				tasks, polls  int
				wall          time.Duration
				gaps          int
				gapSum        time.Duration
				minGap        = time.Duration(1<<63 - 1)
				seen          = map[string]bool{}
				callCtx, stop = context.WithCancel(context.Background())
			)
			defer stop()
			for b.Loop() {
				start := time.Now()
				res, err := s.CallTool(callCtx, "reflow_month", nil, nil)
				elapsed := time.Since(start)
				if err != nil {
					b.Fatalf("reflow_month: %v", err)
				}
				if res.IsError || !strings.Contains(res.Text(), "Split across two rooms") {
					b.Fatalf("result %q (isError %v)", res.Text(), res.IsError)
				}
				b.StopTimer()
				tk := newTask(b, s, seen)
				if tk.Design != d.design || tk.Status != client.TaskCompleted || tk.PollInterval != benchTaskPoll {
					b.Fatalf("task %s: design %s, status %s, pollInterval %v", tk.ID, tk.Design, tk.Status, tk.PollInterval)
				}
				frames := rec.sentTask("tasks/get", tk.ID)
				if len(frames) == 0 || len(frames) != tk.Polls {
					b.Fatalf("task %s: %d tasks/get on the wire, Task.Polls %d", tk.ID, len(frames), tk.Polls)
				}
				for i := 1; i < len(frames); i++ {
					gap := frames[i].at.Sub(frames[i-1].at)
					if gap < benchTaskPoll-time.Millisecond {
						b.Fatalf("task %s: tasks/get %d went out %v after the one before, under pollInterval %v",
							tk.ID, i+1, gap, benchTaskPoll)
					}
					gaps++
					gapSum += gap
					minGap = min(minGap, gap)
				}
				tasks++
				polls += len(frames)
				wall += elapsed
				b.StartTimer()
			}
			if gaps == 0 {
				b.Fatal("no two polls of one task: nothing to compare with pollInterval")
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
			b.ReportMetric(float64(polls)/float64(tasks), "polls/task")
			b.ReportMetric(float64(wall)/float64(benchTaskPoll)/float64(tasks), "expected-polls/task")
			b.ReportMetric(ms(gapSum/time.Duration(gaps)), "mean-gap-ms")
			b.ReportMetric(ms(minGap), "min-gap-ms")
			b.ReportMetric(ms(benchTaskPoll), "poll-ms")
			if testing.Verbose() {
				fmt.Fprintf(os.Stderr, "%s: %d tasks, %d polls, mean gap %v, min gap %v\n",
					d.name, tasks, polls, gapSum/time.Duration(gaps), minGap)
			}
		})
	}
}

// newTask returns the one task of s not in seen, and adds it there.
func newTask(b *testing.B, s *client.Session, seen map[string]bool) client.Task {
	b.Helper()
	var found []client.Task
	for _, tk := range s.Tasks() {
		if !seen[tk.ID] {
			found = append(found, tk)
		}
	}
	if len(found) != 1 {
		b.Fatalf("%d new tasks after one call, want 1", len(found))
	}
	seen[found[0].ID] = true
	return found[0]
}
