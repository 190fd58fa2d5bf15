package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// TestReplayFindings: a replayed session reports the server's spec
// violations as the live one does (one session factory wires the same
// hooks into both): the lint-secret scene's tool asks for a password in
// form mode in the recorded call and again in its replay.
func TestReplayFindings(t *testing.T) {
	t.Parallel()
	f := filepath.Join(t.TempDir(), "call.jsonl")
	code, out, errs := runHostile(t, "lint-secret", "call", "lint-secret", "--record", f)
	if code != exit.OK {
		t.Fatalf("call --record: exit %d, stderr %s", code, errs)
	}
	var live struct {
		Findings []findings.Finding `json:"findings"`
	}
	if err := json.Unmarshal(out, &live); err != nil || len(live.Findings) != 1 || live.Findings[0].Rule != findings.ElicitFormSecret {
		t.Fatalf("live call findings %+v (%v), want the form-secret one", live.Findings, err)
	}

	code, js, stderr := runCLI(t, "replay", "--json", "--trust-recorded-command", f)
	var rep struct {
		Match    bool                `json:"match"`
		Findings *[]findings.Finding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("replay --json: %v\n%s\nstderr: %s", err, js, stderr)
	}
	if code != exit.OK || !rep.Match {
		t.Errorf("replay: exit %d, match %v; stderr %s", code, rep.Match, stderr)
	}
	if rep.Findings == nil || len(*rep.Findings) != 1 || (*rep.Findings)[0].Rule != findings.ElicitFormSecret || (*rep.Findings)[0].Server != live.Findings[0].Server {
		t.Errorf("replay findings %v, want the live call's %+v", rep.Findings, live.Findings)
	}

	_, text, _ := runCLI(t, "replay", "--trust-recorded-command", f)
	if !strings.Contains(text, findings.ElicitFormSecret) {
		t.Errorf("replay's report names no %s finding:\n%s", findings.ElicitFormSecret, text)
	}
}
