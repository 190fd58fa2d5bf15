package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/google/go-cmp/cmp"
)

// runCLI runs the CLI in-process, as main would, against the embedded demo.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(t.Context(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestCallShowcaseAcceptDefaults(t *testing.T) {
	for era, key := range map[string]string{"2025-11-25": "demo#1", "2026-07-28": "demo call 2/showcase"} {
		t.Run(era, func(t *testing.T) { testShowcase(t, era, key) })
	}
}

func testShowcase(t *testing.T, era, key string) {
	code, out, errs := runCLI(t, "call", "showcase", "--answer", "accept-defaults", "--protocol", era)
	if code != exit.OK {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	var got struct {
		Result struct {
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
		Prompts []headless.PromptOutput `json:"prompts"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output: %v\n%s", err, out)
	}
	if diff := cmp.Diff(demo.ShowcaseDefaults(), got.Result.StructuredContent); diff != "" {
		t.Errorf("showcase did not return its defaults (-want +got):\n%s", diff)
	}
	if len(got.Prompts) != 1 || got.Prompts[0].Outcome != "accept" || got.Prompts[0].Key != key {
		t.Errorf("prompts %+v", got.Prompts)
	}
}

func TestCallDeclineAndCancelAreDistinct(t *testing.T) {
	texts := map[string]string{}
	for _, answer := range []string{"decline", "cancel"} {
		code, out, _ := runCLI(t, "call", "deploy", "--answer", answer)
		if code != exit.NotAccepted {
			t.Errorf("--answer %s: exit %d, want %d", answer, code, exit.NotAccepted)
		}
		var got headless.CallOutput
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("output: %v\n%s", err, out)
		}
		if len(got.Prompts) != 1 || got.Prompts[0].Outcome != answer {
			t.Errorf("--answer %s: prompts %+v", answer, got.Prompts)
		}
		texts[answer] = string(got.Result)
	}
	if texts["decline"] == texts["cancel"] {
		t.Errorf("decline and cancel gave the same result: %s", texts["decline"])
	}
}

func TestCallAnswerFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(f, []byte(`{"tools":{"create_ticket":{"priority":"P1"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "call", "create_ticket", "--args", `{"title":"login broken"}`, "--answer", f)
	if code != exit.OK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `with priority P1`) {
		t.Errorf("answer file not applied:\n%s", out)
	}
}

func TestTools(t *testing.T) {
	code, out, errs := runCLI(t, "tools")
	if code != exit.OK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, name := range []string{`"deploy"`, `"create_ticket"`, `"showcase"`, `"withdrawn"`, `"storm"`} {
		if !strings.Contains(out, name) {
			t.Errorf("tools output lacks %s", name)
		}
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown flag", []string{"call", "deploy", "--nope"}, exit.Usage, "flag provided but not defined"},
		{"no tool", []string{"call"}, exit.Usage, "exactly one TOOL"},
		{"bad args", []string{"call", "deploy", "--args", "[1]"}, exit.Usage, "--args must be a JSON object"},
		{"bad answer file", []string{"call", "deploy", "--answer", "/nonexistent.json"}, exit.Usage, "answer file"},
		{"bad protocol", []string{"tools", "--protocol", "1999-01-01"}, exit.Usage, "unknown --protocol"},
		{"bad elicit", []string{"tools", "--elicit", "maybe"}, exit.Usage, "bad --elicit"},
		{"two servers", []string{"tools", "--url", "http://127.0.0.1:1/mcp", "--", "true"}, exit.Usage, "give one server"},
		{"bad url", []string{"tools", "--url", "ftp://x"}, exit.Usage, "bad --url"},
		{"unreachable", []string{"tools", "--url", "http://127.0.0.1:1/mcp"}, exit.Connect, "http://127.0.0.1:1/mcp"},
		{"no such command", []string{"tools", "--", "/nonexistent/elicit-server"}, exit.Connect, "/nonexistent/elicit-server"},
		{"tool error", []string{"call", "no_such_tool"}, exit.ToolError, "no_such_tool"},
		{"call help", []string{"call", "-h"}, exit.OK, "-answer"},
		{"tools help", []string{"tools", "--help"}, exit.OK, "-protocol"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.msg) {
				t.Errorf("exit %d (want %d), stderr %q (want %q)", code, tc.code, errs, tc.msg)
			}
			if strings.Count(errs, "connect to ") > 1 || strings.Count(errs, "tools/call") > 1 {
				t.Errorf("the error repeats its prefix: %q", errs)
			}
			if strings.Contains(errs, "help requested") {
				t.Errorf("help is reported as an error: %q", errs)
			}
			if strings.Count(strings.TrimSpace(errs), "\n") > 0 && tc.code != exit.Usage && tc.code != exit.OK {
				t.Errorf("error is not one line: %q", errs)
			}
		})
	}
}

// TestCallAnswerFileMisspelt: an answer-file entry that fills no field of
// any question fails the run (exit 5) naming it; it used to leave the
// default in place (a P3 ticket) and exit 0. The JSON says so too.
func TestCallAnswerFileMisspelt(t *testing.T) {
	f := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(f, []byte(`{"priorty":"P1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "call", "create_ticket", "--args", `{"title":"login broken"}`, "--answer", f)
	if code != exit.NotAccepted || !strings.Contains(errs, `priorty filled no field`) {
		t.Fatalf("exit %d, stderr %q; want %d naming priorty", code, errs, exit.NotAccepted)
	}
	var got headless.CallOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output: %v\n%s", err, out)
	}
	if got.Failure == nil || got.Failure.Exit != exit.NotAccepted || got.Failure.Kind != "not-accepted" || !strings.Contains(got.Failure.Message, "priorty") {
		t.Errorf("failure %+v", got.Failure)
	}
}

// TestCallOutputListsWhatWasSent: each question in the JSON says what
// went on the wire and the content an accept carried; prompts is an
// array even when the call asked nothing.
func TestCallOutputListsWhatWasSent(t *testing.T) {
	code, out, errs := runCLI(t, "call", "create_ticket", "--args", `{"title":"x"}`)
	if code != exit.OK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got headless.CallOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output: %v\n%s", err, out)
	}
	if len(got.Prompts) != 1 || got.Prompts[0].Sent != "accept" || got.Prompts[0].Content["priority"] == nil {
		t.Errorf("prompts %+v: want one, sent accept, with its priority", got.Prompts)
	}
	code, out, _ = runCLI(t, "call", "echo", "--args", `{"text":"hi"}`)
	if code != exit.OK || !strings.Contains(out, `"prompts": []`) {
		t.Errorf("exit %d; a call that asked nothing must list \"prompts\": []:\n%s", code, out)
	}
}

// TestFailureJSON: a headless command that fails before it has a result
// still prints a JSON object on stdout saying why.
func TestFailureJSON(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		kind string
	}{
		{[]string{"tools", "--url", "http://127.0.0.1:1/mcp"}, exit.Connect, "connect"},
		{[]string{"call"}, exit.Usage, "usage"},
		{[]string{"call", "no_such_tool"}, exit.ToolError, "tool-error"},
	} {
		code, out, _ := runCLI(t, tc.args...)
		var got struct{ Failure *exit.Failure }
		if err := json.Unmarshal([]byte(out), &got); err != nil || code != tc.code || got.Failure == nil ||
			got.Failure.Exit != tc.code || got.Failure.Kind != tc.kind || got.Failure.Message == "" {
			t.Errorf("%v: exit %d, stdout %q (%v); want a failure object with exit %d, kind %s", tc.args, code, out, err, tc.code, tc.kind)
		}
	}
}

// TestFlagsBeforeTheCommand: flags may come before the subcommand; a slip
// in the command's name gets the nearest one suggested; -h lists the
// TUI's flags and exits 0.
func TestFlagsBeforeTheCommand(t *testing.T) {
	code, out, errs := runCLI(t, "--protocol", "2025-11-25", "tools")
	if code != exit.OK || !strings.Contains(out, `"protocol": "2025-11-25"`) {
		t.Errorf("--protocol before tools: exit %d, stderr %q, stdout %.200q", code, errs, out)
	}
	if code, _, errs := runCLI(t, "tols"); code != exit.Usage || !strings.Contains(errs, `did you mean "tools"?`) {
		t.Errorf("tols: exit %d, stderr %q", code, errs)
	}
	if code, out, _ := runCLI(t, "-h"); code != exit.OK || !strings.Contains(out, "-theme") || !strings.Contains(out, "-config") {
		t.Errorf("-h: exit %d, the TUI's flags missing:\n%s", code, out)
	}
}

// TestFPSFlag: --fps is bubbletea's frame rate (it clamps 1-120 itself,
// taking anything below 1 as 60), so a rate outside it is refused, not
// silently changed, before any terminal is touched.
func TestFPSFlag(t *testing.T) {
	for _, bad := range []string{"121", "0", "-1"} {
		if code, _, errs := runCLI(t, "demo", "--fps", bad); code != exit.Usage || !strings.Contains(errs, "--fps "+bad+": want 1 to 120") {
			t.Errorf("--fps %s: exit %d, stderr %q", bad, code, errs)
		}
	}
	if code, out, _ := runCLI(t, "-h"); code != exit.OK || !strings.Contains(out, "-fps") {
		t.Errorf("-h does not list --fps:\n%s", out)
	}
}

// TestReadCommands: resources, read, prompts and get print the demo's
// answers as JSON, and a bad call of one is a usage error with JSON too.
func TestReadCommands(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"resources"}, `"uri": "demo://readme"`},
		{[]string{"templates"}, `"uriTemplate": "demo://scene/{tool}"`},
		{[]string{"templates", "--protocol", "2025-11-25"}, `"uriTemplate": "demo://scene/{tool}"`},
		{[]string{"read", "demo://scene/deploy"}, `accept, decline and cancel give three different results`},
		{[]string{"read", "demo://readme"}, `"contents": [`},
		{[]string{"prompts"}, `"name": "greet"`},
		{[]string{"get", "greet", "--args", `{"name":"Ada"}`}, `Ada`},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != exit.OK || !strings.Contains(out, tc.want) || !json.Valid([]byte(out)) {
			t.Errorf("%v: exit %d, stderr %q, stdout lacks %s:\n%.300s", tc.args, code, errs, tc.want, out)
		}
	}
	if code, out, _ := runCLI(t, "get", "greet", "--args", `[1]`); code != exit.Usage || !strings.Contains(out, `"kind": "usage"`) {
		t.Errorf("bad --args: exit %d, stdout %q", code, out)
	}
	if code, _, _ := runCLI(t, "read", "demo://nope"); code != exit.ToolError {
		t.Errorf("read of an unknown resource: exit %d, want %d", code, exit.ToolError)
	}
}

// TestHeadlessConfigServer: --config FILE --server NAME picks one server
// of a servers file, for every headless command; a file of several
// without --server, or an unknown name, is a usage error naming them.
func TestHeadlessConfigServer(t *testing.T) {
	dir := t.TempDir()
	srv := func(p string) string {
		return `{"command":` + strconv.Quote(binPath) + `,"args":["demo","--serve","stdio","--protocol","` + p + `"]}`
	}
	cfg := writeFile(t, dir, "mcp.json", `{"mcpServers":{"old":`+srv("2025-11-25")+`,"new":`+srv("2026-07-28")+`}}`)
	code, out, errs := runCLI(t, "tools", "--config", cfg, "--server", "old")
	if code != exit.OK || !strings.Contains(out, `"server": "old"`) || !strings.Contains(out, `"protocol": "2025-11-25"`) {
		t.Errorf("--server old: exit %d, stderr %q, stdout %.200q", code, errs, out)
	}
	code, out, _ = runCLI(t, "call", "echo", "--args", `{"text":"hi"}`, "--config", cfg, "--server", "new")
	if code != exit.OK || !strings.Contains(out, `"protocol": "2026-07-28"`) {
		t.Errorf("call --server new: exit %d, stdout %.200q", code, out)
	}
	if code, _, errs := runCLI(t, "tools", "--config", cfg); code != exit.Usage || !strings.Contains(errs, "lists 2 servers (new, old)") {
		t.Errorf("no --server: exit %d, stderr %q", code, errs)
	}
	code, out, errs = runCLI(t, "templates", "--config", cfg, "--server", "old")
	if code != exit.OK || !strings.Contains(out, `"server": "old"`) || !strings.Contains(out, `"uriTemplate": "demo://scene/{tool}"`) {
		t.Errorf("templates --server old: exit %d, stderr %q, stdout %.300q", code, errs, out)
	}
	if code, _, errs := runCLI(t, "resources", "--config", cfg, "--server", "nope"); code != exit.Usage || !strings.Contains(errs, `no server "nope"`) {
		t.Errorf("unknown --server: exit %d, stderr %q", code, errs)
	}
}
