package main

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
)

// lint-secret: tool "lint-secret" asks, in form mode, for a password.
func init() {
	testServers["lint-secret"] = func(in *bufio.Scanner, out *json.Encoder) {
		serveScripted(in, out, func(id json.RawMessage) any {
			return map[string]any{"jsonrpc": "2.0", "id": "q1", "method": "elicitation/create", "params": map[string]any{
				"message": "Log in to continue", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{
					"user":     map[string]any{"type": "string", "default": "ada"},
					"password": map[string]any{"type": "string", "default": "hunter2"}}},
			}}
		})
	}
}

// checkJSON decodes check's --json output.
func checkJSON(t *testing.T, out []byte) headless.CheckOutput {
	t.Helper()
	var got headless.CheckOutput
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("check --json printed %q: %v", out, err)
	}
	return got
}

// TestCheckDemo: the demo breaks no rule, in either era, listing,
// reading and calling a tool that asks questions.
func TestCheckDemo(t *testing.T) {
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			code, out, errs := runCLI(t, "check", "--demo", "--protocol", era, "--call", "deploy", "--json")
			if code != exit.OK {
				t.Fatalf("exit %d, stderr %s, out %s", code, errs, out)
			}
			got := checkJSON(t, []byte(out))
			if len(got.Findings) != 0 || got.Errors != 0 || got.Protocol != era {
				t.Fatalf("check found %+v (protocol %s)", got.Findings, got.Protocol)
			}
			steps := map[string]bool{}
			for _, s := range got.Steps {
				steps[s.Step] = s.OK
			}
			for _, want := range []string{"connect", "tools/list", "resources/list", "resources/templates/list", "prompts/list", "tools/call deploy"} {
				if !steps[want] {
					t.Errorf("step %s missing or failed: %+v", want, got.Steps)
				}
			}
		})
	}
}

// TestCheckSecret: a real subprocess whose tool asks for a password in
// form mode; check exits 6 and names the rule, the frame and the fix.
func TestCheckSecret(t *testing.T) {
	t.Parallel()
	code, out, errs := runHostile(t, "lint-secret", "check", "--call", "lint-secret", "--json")
	if code != exit.Findings {
		t.Fatalf("exit %d, want %d; stderr %s", code, exit.Findings, errs)
	}
	got := checkJSON(t, out)
	if len(got.Findings) != 1 || got.Errors != 1 || got.Failure == nil || got.Failure.Kind != "findings" {
		t.Fatalf("findings %+v, failure %+v", got.Findings, got.Failure)
	}
	f := got.Findings[0]
	if f.Rule != findings.ElicitFormSecret || f.Severity != findings.Error || f.Frame.ID != "q1" || !strings.Contains(f.Detail, `"password"`) || f.Fix == "" {
		t.Errorf("finding %+v", f)
	}

	code, table, _ := runHostile(t, "lint-secret", "check", "--call", "lint-secret")
	if code != exit.Findings {
		t.Fatalf("table: exit %d", code)
	}
	for _, want := range []string{"error", "elicitation-form-secret", "in #q1 elicitation/create", "fix: Ask for credentials through URL mode", "spec: 2025-11-25 client/elicitation", "1 error(s), 0 warning(s)"} {
		if !strings.Contains(string(table), want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

// TestHeadlessFindings: every headless result carries "findings": the
// output-schema scene's tool breaks its own outputSchema, and call --check
// says so; check with --call exits 6 on it.
func TestHeadlessFindings(t *testing.T) {
	t.Parallel()
	code, out, errs := runHostile(t, "output-schema", "call", "wrong", "--check")
	if code != exit.OK {
		t.Fatalf("call: exit %d, stderr %s", code, errs)
	}
	var call struct {
		Findings []findings.Finding `json:"findings"`
	}
	if err := json.Unmarshal(out, &call); err != nil {
		t.Fatal(err)
	}
	if len(call.Findings) != 1 || call.Findings[0].Rule != findings.OutputSchema || !strings.Contains(call.Findings[0].Detail, "sum") {
		t.Errorf("call findings %+v, want the outputSchema one", call.Findings)
	}
	code, out, _ = runHostile(t, "output-schema", "check", "--call", "wrong", "--json")
	got := checkJSON(t, out)
	if code != exit.Findings || len(got.Findings) != 1 || got.Findings[0].Rule != findings.OutputSchema {
		t.Fatalf("check: exit %d, findings %+v", code, got.Findings)
	}

	_, list, _ := runCLI(t, "tools", "--demo")
	if !strings.Contains(list, `"findings": []`) {
		t.Errorf("tools output has no empty findings array:\n%.300s", list)
	}
}

// TestCheckRecordReplay: check --record records its listing and reading
// steps as calls, so a replay of it lists and reads again and compares.
func TestCheckRecordReplay(t *testing.T) {
	t.Parallel()
	f := filepath.Join(t.TempDir(), "check.jsonl")
	if code, out, errs := runCLI(t, "check", "--demo", "--record", f); code != exit.OK {
		t.Fatalf("check --record: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs := runCLI(t, "replay", f)
	if code != exit.OK {
		t.Fatalf("replay: exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"tools/list", "resources/list", "resources/read demo://readme", "resources/read ui://demo/palette.html", "resources/templates/list", "prompts/list", "6 call(s): 6 same"} {
		if !strings.Contains(out, want) {
			t.Errorf("replay output lacks %q:\n%s", want, out)
		}
	}
}
