package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
)

// runHostile runs the real binary headless against the test server scene
// (a real subprocess) and returns its exit code and output.
func runHostile(t *testing.T, scene string, args ...string) (code int, stdout, stderr []byte) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args = append(args, "--protocol", "2025-11-25", "--", "env", testServerEnv+"="+scene, self)
	cmd := exec.CommandContext(t.Context(), binPath, args...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run: %v", err)
	}
	return code, out.Bytes(), errs.Bytes()
}

// assertInertBytes fails if b could make a terminal act: ESC, other C0
// controls but LF and TAB, DEL, C1 controls, bidi controls, invalid UTF-8.
func assertInertBytes(t *testing.T, name string, b []byte) {
	t.Helper()
	if !utf8.Valid(b) {
		t.Errorf("%s is not valid UTF-8: %q", name, b)
	}
	for _, r := range string(b) {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Errorf("%s holds %U: %q", name, r, b)
			return
		}
	}
}

// TestHeadlessErrorFromHostileServer: a tools/call error message full of
// terminal escapes reaches stderr (and the JSON on stdout) inert.
func TestHeadlessErrorFromHostileServer(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runHostile(t, "evil-error", "call", "evil-error")
	if code != exit.ToolError {
		t.Errorf("exit %d, want %d; stderr %q", code, exit.ToolError, stderr)
	}
	assertInertBytes(t, "stderr", stderr)
	assertInertBytes(t, "stdout", stdout)
	if !bytes.Contains(stderr, []byte("failed␛]0;pwned␇")) {
		t.Errorf("stderr does not show the server's message as inert text: %q", stderr)
	}
	var out headless.CallOutput
	if err := json.Unmarshal(stdout, &out); err != nil || !strings.Contains(out.Error, "\x1b]0;pwned") {
		t.Errorf("stdout %q (%v): the error must still say what the server sent, escaped", stdout, err)
	}
}

// TestHeadlessResultFromHostileServer: a result carrying 8-bit CSI and
// OSC, a bidi override and invalid UTF-8, copied raw, comes out as valid
// UTF-8 JSON with those escaped, and says it was repaired.
func TestHeadlessResultFromHostileServer(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runHostile(t, "evil-result", "call", "evil-result")
	if code != exit.OK {
		t.Errorf("exit %d, want 0; stderr %q", code, stderr)
	}
	assertInertBytes(t, "stdout", stdout)
	assertInertBytes(t, "stderr", stderr)
	for _, want := range []string{`\u009b2J`, `\u009d0;title\u009c`, `\u202etxt.exe`, `\ufffd\ufffd`, `"repaired": "` + headless.RepairedNote + `"`} {
		if !bytes.Contains(stdout, []byte(want)) {
			t.Errorf("stdout lacks %s:\n%s", want, stdout)
		}
	}
	if !json.Valid(stdout) {
		t.Errorf("stdout is not valid JSON: %s", stdout)
	}
}

// TestHeadlessHugeEnumRefused: a question of 100,000 options is refused
// with -32602 naming the property, at once, and journalled invalid.
func TestHeadlessHugeEnumRefused(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runHostile(t, "huge-enum", "call", "huge-enum")
	if code != exit.NotAccepted {
		t.Errorf("exit %d, want %d; stderr %q", code, exit.NotAccepted, stderr)
	}
	var out headless.CallOutput
	if err := json.Unmarshal(stdout, &out); err != nil {
		t.Fatalf("stdout: %v\n%s", err, stdout)
	}
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(out.Result, &res); err != nil || len(res.Content) != 1 {
		t.Fatalf("result %s: %v", out.Result, err)
	}
	answer := res.Content[0].Text
	if !strings.Contains(answer, `"code":-32602`) || !strings.Contains(answer, `\"pick\"`) || !strings.Contains(answer, "100000 options") {
		t.Errorf("the server got %s, want -32602 naming pick and the count", answer)
	}
	if len(out.Prompts) != 1 || out.Prompts[0].Outcome != "invalid" {
		t.Errorf("prompts %+v, want one invalid", out.Prompts)
	}
}
