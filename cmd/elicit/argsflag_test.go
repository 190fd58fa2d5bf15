package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// TestArgsFlagSaysWhyAndWhere (issue 26): --args that is not JSON says
// the parser's reason and where it stopped, for every command that takes
// it; JSON that is no object says what it is instead. The failure is also
// the JSON on stdout.
func TestArgsFlagSaysWhyAndWhere(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"call", "echo", "--args", `{"a":1,`}, `--args is not valid JSON: column 8: unexpected end of JSON input`},
		{[]string{"call", "echo", "--args", `{"a":1,}`}, `--args is not valid JSON: column 8: invalid character '}' looking for beginning of object key string`},
		{[]string{"call", "echo", "--args", "{\"a\":1,\n \"b\": x}"}, `--args is not valid JSON: line 2, column 7: invalid character 'x' looking for beginning of value`},
		{[]string{"call", "echo", "--args", `[1]`}, `--args must be a JSON object, not an array, e.g. --args '{"title":"x"}'`},
		{[]string{"call", "echo", "--args", `null`}, `--args must be a JSON object, not null`},
		{[]string{"check", "--call", "echo", "--args", `{"a":1,`}, `--args is not valid JSON: column 8: unexpected end of JSON input`},
		{[]string{"get", "greet", "--args", `{"name":`}, `--args is not valid JSON: column 9: unexpected end of JSON input`},
		{[]string{"get", "greet", "--args", `{"n":1}`}, `--args must be a JSON object of strings: "n" is a number`},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != exit.Usage || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, code, errs, tc.want)
			continue
		}
		if tc.args[0] == "check" {
			continue // check prints its report, not a failure object
		}
		var got struct{ Failure *exit.Failure }
		if err := json.Unmarshal([]byte(out), &got); err != nil || got.Failure == nil || !strings.Contains(got.Failure.Message, tc.want) {
			t.Errorf("%q: stdout %q, want a failure saying %q", tc.args, out, tc.want)
		}
	}
}

// TestMisspeltCommandFailureJSON (issue 26): a misspelt subcommand says
// "did you mean" on stderr and is a failure object on stdout, as every
// headless command's usage error is.
func TestMisspeltCommandFailureJSON(t *testing.T) {
	for _, word := range []string{"tols", "cal"} {
		code, out, errs := runCLI(t, word)
		if code != exit.Usage || !strings.Contains(errs, "did you mean") {
			t.Errorf("%s: exit %d, stderr %q", word, code, errs)
		}
		var got struct{ Failure *exit.Failure }
		if err := json.Unmarshal([]byte(out), &got); err != nil || got.Failure == nil ||
			got.Failure.Kind != "usage" || !strings.Contains(got.Failure.Message, "did you mean") {
			t.Errorf("%s: stdout %q, want a usage failure object", word, out)
		}
	}
}

// TestConfigJSONErrorSaysWhere: a config file that is not JSON says where
// the parser stopped, as --args does.
func TestConfigJSONErrorSaysWhere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(path, []byte("{\"mcpServers\": {\n  \"a\": {\"command\": \"x\",}}}"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "tools", "--config", path, "--server", "a")
	want := "not valid JSON: line 2, column 24: invalid character '}' looking for beginning of object key string"
	if code != exit.Usage || !strings.Contains(errs, want) {
		t.Fatalf("exit %d, stderr %q, want %q", code, errs, want)
	}
}
