package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
)

// callJSON decodes a call's output.
func callJSON(t *testing.T, out string) headless.CallOutput {
	t.Helper()
	var got headless.CallOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	return got
}

// resultText joins the text blocks of a call's result.
func resultText(t *testing.T, got headless.CallOutput) string {
	t.Helper()
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(got.Result, &res); err != nil {
		t.Fatalf("result %s: %v", got.Result, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

func writeTemp(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCallSampleDemo: the demo's summarize tool, in both eras, answered by
// each --sample policy (echo, FILE.json in its three shapes: per tool, one
// for all, in order; decline); the JSON lists the request and what was
// sent.
func TestCallSampleDemo(t *testing.T) {
	file := writeTemp(t, "sample.json", `{"tools":{"summarize":{"text":"A fox jumps.","model":"file-model","stopReason":"maxTokens"}}}`)
	all := writeTemp(t, "all.json", `{"text":"One reply for all.","model":"all-model","stopReason":"stopSequence"}`)
	replies := writeTemp(t, "replies.json", `{"replies":[{"text":"First in order.","model":"order-model"}]}`)
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		for _, tc := range []struct {
			sample, want, model, sent, outcome string
			code                               int
		}{
			{"echo", "Summary by elicit-echo (endTurn): Summarise in one sentence:", "elicit-echo", "result", "accept", exit.OK},
			{file, "Summary by file-model (maxTokens): A fox jumps.", "file-model", "result", "accept", exit.OK},
			{all, "Summary by all-model (stopSequence): One reply for all.", "all-model", "result", "accept", exit.OK},
			{replies, "Summary by order-model (endTurn): First in order.", "order-model", "result", "accept", exit.OK},
			{"decline", "", "", "", "decline", exit.ToolError},
		} {
			t.Run(era+"/"+filepath.Base(tc.sample), func(t *testing.T) {
				code, out, errs := runCLI(t, "call", "summarize", "--args", `{"text":"The quick brown fox."}`, "--sample", tc.sample, "--protocol", era)
				if code != tc.code {
					t.Fatalf("exit %d, want %d; stderr %s\n%s", code, tc.code, errs, out)
				}
				got := callJSON(t, out)
				if len(got.Sampling) != 1 || len(got.Prompts) != 0 {
					t.Fatalf("sampling %+v prompts %+v", got.Sampling, got.Prompts)
				}
				s := got.Sampling[0]
				if s.Outcome != tc.outcome || !strings.Contains(string(s.Request), "The quick brown fox.") || !strings.Contains(string(s.Request), `"systemPrompt"`) {
					t.Errorf("entry %+v", s)
				}
				switch {
				case tc.outcome == "accept":
					if txt := resultText(t, got); !strings.HasPrefix(txt, tc.want) {
						t.Errorf("result %q, want %q", txt, tc.want)
					}
					var r struct{ Model string }
					if s.Sent != "result" || json.Unmarshal(s.Result, &r) != nil || r.Model != tc.model {
						t.Errorf("sent %q result %s", s.Sent, s.Result)
					}
				case era == "2025-11-25":
					// The spec's refusal went out; go-sdk made the call fail.
					if s.Sent != "error -1" || s.Error == nil || s.Error.Message != "User rejected sampling request" {
						t.Errorf("refusal %+v", s)
					}
				default:
					// 2026-07-28 cannot refuse: the call was abandoned, nothing sent.
					if s.Sent != "" || !strings.Contains(got.Error, "call abandoned") {
						t.Errorf("entry %+v, error %q", s, got.Error)
					}
				}
			})
		}
	}
}

// TestCallSampleOff: with --sample off sampling is not declared, so the
// demo sends no sampling/createMessage and says why the tool cannot run: a
// tool error in 2025-11-25, -32021 naming the capability in 2026-07-28.
// Nothing is asked and the demo breaks no rule. (A server that sends the
// request anyway gets it refused, and the call's error says so:
// client's TestCallFailedAfterRefusal.)
func TestCallSampleOff(t *testing.T) {
	code, out, _ := runCLI(t, "call", "summarize", "--args", `{"text":"x"}`, "--sample", "off", "--protocol", "2025-11-25")
	if code != exit.ToolError {
		t.Fatalf("exit %d\n%s", code, out)
	}
	got := callJSON(t, out)
	if len(got.Sampling) != 0 || !got.IsError || !strings.Contains(resultText(t, got), "did not declare the sampling capability") ||
		len(got.Findings) != 0 {
		t.Errorf("2025-11-25: sampling %+v, isError %v, result %s, findings %+v", got.Sampling, got.IsError, resultText(t, got), got.Findings)
	}
	code, out, _ = runCLI(t, "call", "summarize", "--args", `{"text":"x"}`, "--sample", "off", "--protocol", "2026-07-28")
	if code != exit.ToolError {
		t.Fatalf("exit %d\n%s", code, out)
	}
	got = callJSON(t, out)
	if len(got.Prompts) != 0 || !strings.Contains(got.Error, "-32021") || !strings.Contains(got.Error, "sampling: off") || len(got.Findings) != 0 {
		t.Errorf("2026-07-28: prompts %+v, error %q, findings %+v", got.Prompts, got.Error, got.Findings)
	}
}

// TestSampleFlagErrors: a bad --sample is a usage error naming the file.
func TestSampleFlagErrors(t *testing.T) {
	for _, v := range []string{filepath.Join(t.TempDir(), "missing.json"), writeTemp(t, "bad.json", `{"modle":"x","text":"y"}`), writeTemp(t, "empty.json", `{"replies":[]}`)} {
		code, _, errs := runCLI(t, "call", "echo", "--sample", v)
		if code != exit.Usage || !strings.Contains(errs, "--sample") {
			t.Errorf("--sample %s: exit %d, stderr %s", v, code, errs)
		}
	}
}

// everythingRun runs the elicit binary headless against server-everything.
func everythingRun(t *testing.T, args ...string) (headless.CallOutput, int, string) {
	t.Helper()
	cmdline := everythingCommand(t)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, append(append(args, "--"), cmdline...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, _ := cmd.Output()
	code := cmd.ProcessState.ExitCode()
	return callJSON(t, string(out)), code, stderr.String()
}

// TestEverythingSampling: server-everything lists trigger-sampling-request
// only when sampling is declared; --sample echo and FILE.json answer it,
// and its result shows what we sent.
func TestEverythingSampling(t *testing.T) {
	replies := writeTemp(t, "replies.json", `{"replies":[{"text":"from the file","model":"file-model"}]}`)
	for _, tc := range []struct {
		sample, want string
	}{
		{"echo", `"model": "elicit-echo"`},
		{replies, `"text": "from the file"`},
	} {
		got, code, errs := everythingRun(t, "call", "trigger-sampling-request", "--args", `{"prompt":"Say hi"}`, "--sample", tc.sample)
		if code != exit.OK {
			t.Fatalf("--sample %s: exit %d\n%s", tc.sample, code, errs)
		}
		if txt := resultText(t, got); !strings.Contains(txt, tc.want) || !strings.Contains(txt, `"stopReason": "endTurn"`) {
			t.Errorf("--sample %s: result %s", tc.sample, txt)
		}
		if len(got.Sampling) != 1 || got.Sampling[0].Sent != "result" || !strings.Contains(string(got.Sampling[0].Request), `"temperature": 0.7`) {
			t.Errorf("sampling %+v", got.Sampling)
		}
	}
	// Declined, the spec's error reaches the server, which says so.
	got, code, _ := everythingRun(t, "call", "trigger-sampling-request", "--args", `{"prompt":"x"}`)
	if code != exit.ToolError || !strings.Contains(resultText(t, got), "User rejected sampling request") || got.Sampling[0].Sent != "error -1" {
		t.Errorf("decline: exit %d, %+v", code, got)
	}
	// Off: the tool is not even listed.
	got, code, _ = everythingRun(t, "call", "trigger-sampling-request", "--args", `{"prompt":"x"}`, "--sample", "off")
	if code != exit.ToolError || len(got.Sampling) != 0 || !strings.Contains(resultText(t, got), "Tool trigger-sampling-request not found") {
		t.Errorf("off: exit %d, %+v", code, got)
	}
}

// TestEverythingURLRequired: trigger-url-elicitation with errorPath answers
// -32042; with --answer accept elicit consents, waits --url-wait for a
// completion server-everything never sends, retries once, and the retry
// goes through (to the server's own URL elicitation request).
func TestEverythingURLRequired(t *testing.T) {
	got, code, errs := everythingRun(t, "call", "trigger-url-elicitation", "--args", `{"url":"https://example.com/x","errorPath":true}`,
		"--answer", "accept", "--url-wait", "300ms")
	if code != exit.OK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if txt := resultText(t, got); !strings.Contains(txt, "User completed the URL elicitation flow") {
		t.Errorf("result %s", txt)
	}
	if len(got.URLRetries) != 1 || !got.URLRetries[0].Retried || len(got.URLRetries[0].Completed) != 0 ||
		!strings.Contains(got.URLRetries[0].Why, "retried anyway") {
		t.Errorf("urlRetries %+v", got.URLRetries)
	}
	if len(got.Prompts) != 2 || got.Prompts[0].Sent != "retry" || !strings.Contains(errs, "asks you to open https://modelcontextprotocol.io") {
		t.Errorf("prompts %+v\nstderr %s", got.Prompts, errs)
	}
	// accept-defaults cannot open a URL: no retry, the -32042 is the answer.
	got, code, _ = everythingRun(t, "call", "trigger-url-elicitation", "--args", `{"url":"https://example.com/y","errorPath":true}`)
	if code != exit.ToolError || len(got.URLRetries) != 1 || got.URLRetries[0].Retried || !strings.Contains(got.Error, "-32042") {
		t.Errorf("accept-defaults: exit %d, %+v, %q", code, got.URLRetries, got.Error)
	}
}
