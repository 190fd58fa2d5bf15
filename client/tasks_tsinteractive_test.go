package client_test

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
)

// The TypeScript SDK's own example simpleTaskInteractive (Streamable HTTP,
// 2025-11-25 tasks): its tools confirm_delete and write_haiku return the
// CreateTaskResult already in input_required, and their question (an
// elicitation, a sampling request) travels only on the tasks/result
// stream. A client that waits for a poll to show the move into
// input_required never asks for it: every poll shows input_required.

// needPeer is the environment variable name's value; without it the test
// skips, or under CI=true fails (CI installs every peer).
func needPeer(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set (CI installs it)", name)
		}
		t.Skipf("%s is not set", name)
	}
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
	return v
}

// tsTaskInteractive starts simpleTaskInteractive on a free port and returns
// its MCP URL once it says it listens.
func tsTaskInteractive(t *testing.T) string {
	t.Helper()
	sdk := needPeer(t, "ELICIT_TS_SDK")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	_ = l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "node", filepath.Join(sdk, "dist/esm/examples/server/simpleTaskInteractive.js"))
	cmd.Env = append(os.Environ(), "PORT="+port)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Starting server on") {
				close(ready)
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-drained; _ = cmd.Wait() })
	select {
	case <-ready:
	case <-drained:
		t.Fatal("simpleTaskInteractive ended before it listened")
	case <-time.After(30 * time.Second):
		t.Fatal("simpleTaskInteractive did not start in 30 s")
	}
	return "http://127.0.0.1:" + port + "/mcp"
}

// TestTaskCreatedInputRequiredTS: each tool's task is created in
// input_required; exactly one tasks/result goes out, at once, brings the
// question, and, answered, the task's result.
func TestTaskCreatedInputRequiredTS(t *testing.T) {
	url := tsTaskInteractive(t)
	pr := newTaskPrompter(func(_ context.Context, q *question.Question) question.Outcome {
		if q.Kind == question.KindSampling {
			return question.Outcome{Kind: question.Accept, Sample: &question.SampleReply{Text: "an old pond", Model: "person-1"}}
		}
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"confirm": true}}
	})
	rec := &recorder{}
	s := dialTasks(t, url, wire.Protocol2025_11_25, &client.Options{Prompter: pr, Sampling: client.SamplingOn}, rec)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"confirm_delete", map[string]any{"filename": "a.txt"}, "Deleted 'a.txt'"},
		{"write_haiku", map[string]any{"topic": "ponds"}, "an old pond"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			// Bounded well above the server's 1 s pollInterval: the hang
			// this guards against never ends.
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			res, err := s.CallTool(ctx, tc.tool, tc.args, nil)
			if err != nil {
				t.Fatalf("CallTool: %v (%d tasks/result sent)", err, len(rec.sentTask(wire.MethodTasksResult, "")))
			}
			if !strings.Contains(res.Text(), tc.want) {
				t.Errorf("result %q, want it to say %q", res.Text(), tc.want)
			}
			tk := lastTask(t, rec, tc.tool)
			if n := len(rec.sentTask(wire.MethodTasksResult, tk.ID)); n != 1 {
				t.Errorf("%d tasks/result for task %s, want exactly 1", n, tk.ID)
			}
			if tk.Status != client.TaskCompleted {
				t.Errorf("task %+v", tk)
			}
		})
	}
	if n := len(pr.prompts()); n != 2 {
		t.Errorf("%d prompts, want 2 (one per tool)", n)
	}
}
