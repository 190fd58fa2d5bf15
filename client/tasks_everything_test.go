package client_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/internal/testenv"
	"github.com/elicit-dev/elicit/transport"
)

// TestTaskEverythingResearch runs server-everything's
// simulate-research-query (2025-11-25 tasks, taskSupport required,
// pollInterval 1000) with ambiguous:true: the task goes input_required and
// stays there until tasks/result, whose stream carries the question tagged
// with related-task; answered, the task completes and that same
// tasks/result returns the report. ELICIT_SERVER_EVERYTHING is the path to
// its dist/index.js (.ci/run installs it); without it, or without node,
// the test is skipped.
func TestTaskEverythingResearch(t *testing.T) {
	path := testenv.Getenv(t, "ELICIT_SERVER_EVERYTHING", "path to server-everything's dist/index.js")
	testenv.LookPath(t, "node")
	t.Parallel()
	rec := &recorder{}
	pr := newTaskPrompter(func(ctx context.Context, p *question.Question) question.Outcome {
		return question.AcceptDefaults.Prompt(ctx, p)
	})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	s, err := client.Connect(ctx, &transport.Stdio{Command: "node", Args: []string{path, "stdio"}, Observer: rec},
		&client.Options{Name: "everything", Protocol: wire.Protocol2025_11_25, Prompter: pr, Observer: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if c := s.ServerCapabilities(); !c.TasksToolsCall || !c.TasksList || !c.TasksCancel {
		t.Errorf("capabilities %+v: want tasks list, cancel, requests.tools.call", c)
	}
	start := time.Now()
	res, err := s.CallTool(ctx, "simulate-research-query", map[string]any{"topic": "python", "ambiguous": true}, nil)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || res.Text() == "" {
		t.Errorf("result %s", res.Raw)
	}
	tasks := s.Tasks()
	if len(tasks) != 1 {
		t.Fatalf("tasks %+v", tasks)
	}
	tk := tasks[0]
	if tk.Status != client.TaskCompleted || tk.Design != client.TaskDesignCore || tk.PollInterval != time.Second || tk.Tool != "simulate-research-query" {
		t.Errorf("task %+v", tk)
	}
	checkPolls(t, rec.sentTask("tasks/get", tk.ID), time.Second, int(elapsed/time.Second)+1)
	if n := len(rec.sentTask("tasks/result", tk.ID)); n != 1 {
		t.Errorf("%d tasks/result, want 1: the one called on input_required also brought the report", n)
	}
	prompts := pr.prompts()
	if len(prompts) != 1 || prompts[0].Origin.Kind != question.OriginTask || prompts[0].Origin.TaskID != tk.ID {
		t.Fatalf("prompts %+v, want one, of the task", prompts)
	}
	answers := rec.responsesTo(prompts[0].Key.RequestID.String())
	if len(answers) != 1 {
		t.Fatalf("%d answers to the question", len(answers))
	}
	var r struct {
		Meta map[string]struct {
			TaskID string `json:"taskId"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(answers[0].Result, &r)
	if r.Meta["io.modelcontextprotocol/related-task"].TaskID != tk.ID {
		t.Errorf("answer %s lacks related-task %s", answers[0].Result, tk.ID)
	}
}
