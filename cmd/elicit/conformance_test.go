package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testenv"
)

// The official MCP conformance suite's client scenarios, every one, run
// against the real binary (.ci/run installs the suites):
//
//   - ELICIT_CONFORMANCE: the bin of @modelcontextprotocol/conformance@0.1.13
//     (it runs on the system's Node 20);
//   - ELICIT_CONFORMANCE_NEXT: the bin of a newer suite (0.2.0-alpha.12),
//     with ELICIT_NODE22 the folder of a Node 22 binary, put first in PATH
//     for the suite's process only (newer suites need fs.globSync).
//
// Each scenario must pass: the runner exits 0, with at least one graded
// check and no FAILURE or WARNING. ELICIT_CONFORMANCE_TABLE, if set, names
// a Markdown file to write the table of scenarios and checks to.
func TestConformance(t *testing.T) {
	suites := []conformanceSuite{
		{name: "0.1.13", bin: os.Getenv("ELICIT_CONFORMANCE"), expectFail: map[string]string{
			// 0.1.13 publishes issuer <AS> for an authorization server its
			// protected resource metadata calls <AS>/tenant1 (fixed in later
			// suites). A client that checks the issuer, as RFC 8414 §3.3 and
			// the spec require, must refuse it.
			"auth/metadata-var2": "names another issuer",
			"auth/metadata-var3": "names another issuer",
		}},
		{name: "0.2.0-alpha.12", bin: os.Getenv("ELICIT_CONFORMANCE_NEXT"), node: os.Getenv("ELICIT_NODE22")},
		// The scenarios scored for both 2025-11-25 and 2026-07-28 run on the
		// default wire above; a client must pass them on the stateless one
		// too.
		{name: "0.2.0-alpha.12 --spec-version 2026-07-28", bin: os.Getenv("ELICIT_CONFORMANCE_NEXT"), node: os.Getenv("ELICIT_NODE22"),
			specVersion: "2026-07-28", only: func(tags string) bool {
				return strings.Contains(tags, "2025-11-25") && strings.Contains(tags, "2026-07-28")
			}},
	}
	var mu sync.Mutex
	var rows []conformanceRow
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			if s.bin == "" {
				testenv.Missing(t, "ELICIT_CONFORMANCE or ELICIT_CONFORMANCE_NEXT not set (paths to the suites' bins); .ci/run sets them")
			}
			scenarios := s.list(t)
			if len(scenarios) == 0 {
				t.Fatal("the suite lists no client scenarios")
			}
			sem := make(chan struct{}, conformanceParallel())
			for _, sc := range scenarios {
				t.Run(sc, func(t *testing.T) {
					t.Parallel()
					sem <- struct{}{}
					defer func() { <-sem }()
					row := s.run(t, sc)
					mu.Lock()
					rows = append(rows, row)
					mu.Unlock()
				})
			}
		})
	}
	if out := os.Getenv("ELICIT_CONFORMANCE_TABLE"); out != "" {
		if err := os.WriteFile(out, []byte(conformanceTable(rows)), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// conformanceParallel is how many scenarios run at once: each is a Node
// process and an elicit, mostly waiting.
func conformanceParallel() int { return 4 }

type conformanceSuite struct {
	name, bin, node string
	// specVersion is passed as --spec-version; only, if set, picks the
	// scenarios by the versions the list tags them with.
	specVersion string
	only        func(tags string) bool
	// expectFail: scenarios that must fail, with what elicit's stderr
	// must say about why.
	expectFail map[string]string
}

type conformanceRow struct {
	suite, scenario         string
	passed, graded          int
	failures, warnings      int
	expectedFail, completed bool
}

func (s conformanceSuite) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, s.bin, args...)
	if s.node != "" {
		cmd.Env = append(os.Environ(), "PATH="+s.node+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	return cmd
}

// list is every client scenario the suite has.
func (s conformanceSuite) list(t *testing.T) []string {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	out, err := s.command(ctx, "list", "--client").CombinedOutput()
	if err != nil {
		t.Fatalf("conformance list --client: %v\n%s", err, out)
	}
	var names []string
	for _, line := range strings.Split(string(out), "\n") {
		entry, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !ok {
			continue
		}
		name, tags, _ := strings.Cut(entry, " ")
		if s.only == nil || s.only(tags) {
			names = append(names, name)
		}
	}
	return names
}

func (s conformanceSuite) run(t *testing.T, scenario string) conformanceRow {
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	args := []string{"client", "--command", binPath + " conformance", "--scenario", scenario, "-o", out}
	if s.specVersion != "" {
		args = append(args, "--spec-version", s.specVersion)
	}
	cmd := s.command(ctx, args...)
	b, runErr := cmd.CombinedOutput()
	checks, stderr := readChecks(t, out)
	row := conformanceRow{suite: s.name, scenario: scenario, completed: runErr == nil}
	for _, c := range checks {
		switch c.Status {
		case "SUCCESS":
			row.passed++
			row.graded++
		case "FAILURE":
			row.failures++
			row.graded++
		case "WARNING":
			row.warnings++
			row.graded++
		}
	}
	if why, ok := s.expectFail[scenario]; ok {
		row.expectedFail = true
		if runErr == nil || row.failures == 0 {
			t.Errorf("%s passed, but this suite's %s is broken and a correct client fails it", scenario, scenario)
		}
		if !strings.Contains(stderr, why) {
			t.Errorf("%s: elicit's stderr does not say %q:\n%s", scenario, why, lastLines(stderr, 8))
		}
		return row
	}
	if runErr != nil {
		t.Errorf("%s: the runner failed: %v\n%s\nelicit's stderr:\n%s", scenario, runErr, lastLines(string(b), 25), lastLines(stderr, 15))
	}
	if row.graded == 0 {
		t.Errorf("%s: no graded check\n%s", scenario, lastLines(string(b), 10))
	}
	for _, c := range checks {
		if c.Status == "FAILURE" || c.Status == "WARNING" {
			t.Errorf("%s: check %s: %s %s", scenario, c.ID, c.Status, c.ErrorMessage)
		}
	}
	return row
}

type check struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

// readChecks reads the run's checks.json and the client's stderr.
func readChecks(t *testing.T, dir string) ([]check, string) {
	t.Helper()
	var all []check
	var stderr strings.Builder
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		switch d.Name() {
		case "stderr.txt":
			b, _ := os.ReadFile(p)
			stderr.Write(b)
		case "checks.json":
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
		}
		return nil
	})
	return all, stderr.String()
}

// conformanceTable renders the rows as Markdown, per suite, in the suite's
// order of names.
func conformanceTable(rows []conformanceRow) string {
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].suite != rows[j].suite {
			return rows[i].suite < rows[j].suite
		}
		return rows[i].scenario < rows[j].scenario
	})
	var b strings.Builder
	suite := ""
	for _, r := range rows {
		if r.suite != suite {
			suite = r.suite
			fmt.Fprintf(&b, "\n### @modelcontextprotocol/conformance@%s\n\n| scenario | checks passed / graded | result |\n|---|---|---|\n", suite)
		}
		result := "pass"
		switch {
		case r.expectedFail:
			result = "fails as it must (suite bug: issuer mismatch)"
		case !r.completed || r.failures > 0 || r.warnings > 0 || r.graded == 0:
			result = fmt.Sprintf("FAIL (%d failed, %d warnings)", r.failures, r.warnings)
		}
		fmt.Fprintf(&b, "| %s | %d / %d | %s |\n", r.scenario, r.passed, r.graded, result)
	}
	return b.String()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
