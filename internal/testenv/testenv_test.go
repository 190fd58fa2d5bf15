package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// childEnv makes this test binary, run again, play TestChild.
const childEnv = "ELICIT_TESTENV_CHILD"

// TestChild is the test the cases below run in a child process, where it
// may skip or fail without failing this one.
func TestChild(t *testing.T) {
	switch os.Getenv(childEnv) {
	case "missing":
		Missing(t, "tmux is not installed")
		t.Log("went on after Missing")
	case "part":
		MissingPart(t, "the TypeScript agent")
		t.Log("went on after MissingPart")
	case "getenv":
		Getenv(t, "ELICIT_TESTENV_UNSET", "a peer's path")
		t.Log("went on after Getenv")
	case "lookpath":
		LookPath(t, "elicit-testenv-no-such-program")
		t.Log("went on after LookPath")
	}
}

// TestUnderCI runs each helper with CI unset and with CI=true: by hand
// the test skips (or, for a part, goes on), under CI it fails.
func TestUnderCI(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		child      string
		ci         string
		wantFail   bool
		wantOutput []string
		notOutput  []string
	}{
		{"missing", "", false, []string{"--- SKIP", "tmux is not installed"}, []string{"went on"}},
		{"missing", "false", false, []string{"--- SKIP"}, []string{"went on"}},
		{"missing", "true", true, []string{"--- FAIL", "CI=true needs every peer and tool: tmux is not installed"}, []string{"went on"}},
		{"part", "", false, []string{"--- PASS", "left out: the TypeScript agent", "went on after MissingPart"}, nil},
		{"part", "true", true, []string{"--- FAIL", "CI=true needs every peer and tool: the TypeScript agent", "went on after MissingPart"}, nil},
		{"getenv", "", false, []string{"--- SKIP", "ELICIT_TESTENV_UNSET not set (a peer's path)"}, []string{"went on"}},
		{"getenv", "true", true, []string{"--- FAIL", "ELICIT_TESTENV_UNSET not set"}, []string{"went on"}},
		{"lookpath", "", false, []string{"--- SKIP", "elicit-testenv-no-such-program is not installed"}, []string{"went on"}},
		{"lookpath", "true", true, []string{"--- FAIL", "elicit-testenv-no-such-program is not installed"}, []string{"went on"}},
	} {
		t.Run(tc.child+"/CI="+tc.ci, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), childEnv+"="+tc.child, "CI="+tc.ci, "ELICIT_TESTENV_UNSET=")
			out, err := cmd.CombinedOutput()
			if failed := err != nil; failed != tc.wantFail {
				t.Errorf("child failed: %v, want %v (%v)\n%s", failed, tc.wantFail, err, out)
			}
			for _, w := range tc.wantOutput {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notOutput {
				if strings.Contains(string(out), w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestLacks(t *testing.T) {
	t.Parallel()
	if got := Lacks("go"); got != "" {
		t.Errorf(`Lacks("go") = %q, want ""`, got)
	}
	if got := Lacks("go", "elicit-testenv-no-such-program"); got != "elicit-testenv-no-such-program is not installed" {
		t.Errorf("Lacks = %q", got)
	}
}
