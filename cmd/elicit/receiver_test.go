package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
)

// Receiver-side tasks against server-everything, headless: its async
// elicitation and sampling tools send task-augmented requests, poll our
// tasks/get and fetch tasks/result.

// TestEverythingAsyncElicitationHeadless: `elicit call
// trigger-elicitation-request-async` answers the server's task-augmented
// elicitation as a task of ours; the prompt's key names the task, and the
// server got the answer through tasks/result.
func TestEverythingAsyncElicitationHeadless(t *testing.T) {
	cmdline := everythingCommand(t)
	answers := writeFile(t, t.TempDir(), "answers.json", `{"name": "Ada", "favoriteColor": "Green"}`)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	args := append([]string{"call", "trigger-elicitation-request-async", "--answer", answers, "--"}, cmdline...)
	cmd := exec.CommandContext(ctx, binPath, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("elicit call: %v\n%s\n%s", err, out, stderr.String())
	}
	var got headless.CallOutput
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output: %v\n%s", err, out)
	}
	if len(got.Prompts) != 1 || got.Prompts[0].Outcome != "accept" || !strings.Contains(got.Prompts[0].Key, "(our task ") {
		t.Fatalf("prompts %+v: want one accepted question of a task of ours", got.Prompts)
	}
	for _, want := range []string{"[COMPLETED]", "Name: Ada", "Favorite Color: Green"} {
		if !strings.Contains(string(got.Result), want) {
			t.Errorf("result lacks %q:\n%s", want, got.Result)
		}
	}
}

// TestEverythingAsyncSamplingHeadless: trigger-sampling-request-async
// (listed once sampling and tasks.requests.sampling.createMessage are
// declared) gets a task of ours; --sample echo's reply is its result, and
// declined, the task fails with the spec's -1, which the tool reports.
func TestEverythingAsyncSamplingHeadless(t *testing.T) {
	got, code, errs := everythingRun(t, "call", "trigger-sampling-request-async", "--args", `{"prompt":"Say hi"}`, "--sample", "echo")
	if code != exit.OK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	txt := resultText(t, got)
	for _, want := range []string{"[COMPLETED] Async sampling completed!", `"model": "elicit-echo"`, "io.modelcontextprotocol/related-task"} {
		if !strings.Contains(txt, want) {
			t.Errorf("result lacks %q:\n%s", want, txt)
		}
	}
	if len(got.Sampling) != 1 || got.Sampling[0].Sent != "result" || !strings.Contains(got.Sampling[0].Key, "(our task ") {
		t.Errorf("sampling %+v: want one answered request of a task of ours", got.Sampling)
	}
	got, code, _ = everythingRun(t, "call", "trigger-sampling-request-async", "--args", `{"prompt":"x"}`, "--sample", "decline")
	if txt := resultText(t, got); code != exit.NotAccepted || !strings.Contains(txt, "[FAILED] User rejected sampling request") {
		t.Errorf("declined: exit %d, result %s", code, txt)
	}
}
