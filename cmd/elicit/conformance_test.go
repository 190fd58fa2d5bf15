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
)

// TestConformance runs the official MCP conformance suite's client
// scenarios against the real binary. It needs the suite installed
// (.ci/run does it): ELICIT_CONFORMANCE=/path/to/node_modules/.bin/conformance.
func TestConformance(t *testing.T) {
	runner := os.Getenv("ELICIT_CONFORMANCE")
	if runner == "" {
		t.Skip("ELICIT_CONFORMANCE not set (path to @modelcontextprotocol/conformance@0.1.13's bin); .ci/run sets it")
	}
	for _, scenario := range []string{"initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"} {
		t.Run(scenario, func(t *testing.T) {
			out := t.TempDir()
			ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, runner, "client", "--command", binPath+" conformance",
				"--scenario", scenario, "-o", out)
			b, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("conformance %s failed: %v\n%s", scenario, err, b)
			}
			checks := readChecks(t, out)
			if len(checks) == 0 {
				t.Fatalf("no checks recorded for %s\n%s", scenario, b)
			}
			for _, c := range checks {
				if c.Status == "FAILURE" {
					t.Errorf("%s: check %s failed: %s", scenario, c.ID, c.ErrorMessage)
				}
			}
			t.Logf("%s: %d checks, runner said:\n%s", scenario, len(checks), lastLines(string(b), 6))
		})
	}
}

type check struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

func readChecks(t *testing.T, dir string) []check {
	t.Helper()
	var all []check
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "checks.json" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("read %s: %v", p, err)
			return nil
		}
		var cs []check
		if err := json.Unmarshal(b, &cs); err != nil {
			t.Errorf("decode %s: %v", p, err)
			return nil
		}
		all = append(all, cs...)
		return nil
	})
	return all
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
