package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/demo/acpagent"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/replay"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
)

// serveACPAltered is the demo agent with its permission request's last
// option changed ("never" becomes "block"): a changed agent for the ACP
// replay (the acp-altered test server).
func serveACPAltered(*bufio.Scanner, *json.Encoder) {
	w := rewriter{w: os.Stdout, old: []byte(`"optionId":"never"`), new: []byte(`"optionId":"block"`)}
	if err := acpagent.Serve(context.Background(), os.Stdin, w, acpagent.Options{}); err != nil {
		os.Exit(1)
	}
}

// rewriter replaces old with new in every write (the agent writes one
// whole line a write).
type rewriter struct {
	w        io.Writer
	old, new []byte
}

func (r rewriter) Write(p []byte) (int, error) {
	if _, err := r.w.Write(bytes.ReplaceAll(p, r.old, r.new)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// runBin runs the built binary (a real process; its agent is another).
func runBin(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String(), errb.String()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return 0, out.String(), errb.String()
}

func replayACPJSON(t *testing.T, args ...string) (int, replay.Report) {
	t.Helper()
	code, out, errs := runBin(t, append([]string{"replay", "--json"}, args...)...)
	var rep replay.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("replay --json: %v\n%s\nstderr: %s", err, out, errs)
	}
	return code, rep
}

// TestACPRecordReplay records a turn of the demo agent with a permission
// request (allowed), checks what the file holds, replays it green, then
// red with the answer changed in the file and red against an agent whose
// permission request offers another option.
func TestACPRecordReplay(t *testing.T) {
	f := filepath.Join(t.TempDir(), "acp.jsonl")
	code, _, errs := runBin(t, "acp", "--prompt", "permission please", "--permission", "allow", "--record", f)
	if code != exit.OK {
		t.Fatalf("acp --record: exit %d: %s", code, errs)
	}
	rec, err := record.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Settings.Agents) != 1 || rec.Settings.Agents[0].Kind != "demo" || rec.Settings.Agents[0].Permission != "allow" ||
		rec.Settings.Command != "acp" {
		t.Errorf("settings: %+v", rec.Settings)
	}
	if rec.Frames < 8 || len(rec.Calls) != 1 || rec.Calls[0].Method != app.PromptMethod || rec.Calls[0].Result == nil {
		t.Fatalf("frames %d, calls %+v", rec.Frames, rec.Calls)
	}
	if len(rec.Answers) != 1 {
		t.Fatalf("answers: %+v", rec.Answers)
	}
	a := rec.Answers[0]
	if a.Call != 1 || a.Question == nil || a.Question.Kind != "permission" || a.Question.Permission == nil ||
		a.Question.Permission.Title != "Edit config.json" || len(a.Question.Permission.Options) != 4 ||
		a.Given == nil || a.Given.Option != "allow" || a.Outcome != "accept" || a.Sent != "selected allow" {
		t.Errorf("the permission answer: %+v %+v %+v", a, a.Question, a.Given)
	}

	code, out, errs := runBin(t, "replay", f)
	if code != exit.OK || !strings.Contains(out, "✓ call 1 demo-agent session/prompt permission please") ||
		!strings.Contains(out, "all matched") || !strings.Contains(out, "not compared") {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}

	// The answer changed: reject instead of allow.
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(t.TempDir(), "changed.jsonl")
	nb := bytes.Replace(b, []byte(`"given":{"kind":"accept","option":"allow"}`), []byte(`"given":{"kind":"accept","option":"reject"}`), 1)
	if bytes.Equal(nb, b) {
		t.Fatal("the given answer is not in the file as expected")
	}
	if err := os.WriteFile(changed, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	code, rep := replayACPJSON(t, changed)
	if code != exit.Differs || rep.Match || len(rep.Calls) != 1 {
		t.Fatalf("replay of the changed answer: exit %d %+v", code, rep)
	}
	var outcome, message, status bool
	for _, d := range rep.Calls[0].Differences {
		switch {
		case d.What == "outcome" && d.Recorded == "accept (sent selected allow)" && d.Replayed == "accept (sent selected reject)":
			outcome = true
		case d.What == "result" && d.Path == "/message":
			message = true
		case d.What == "result" && d.Path == "/toolCalls/0/status":
			status = true
		}
	}
	if !outcome || !message || !status {
		t.Errorf("the changed answer's diff: %+v", rep.Calls[0].Differences)
	}

	// The agent changed: its permission request offers "block", not "never".
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	code, rep = replayACPJSON(t, f, "--", "env", testServerEnv+"=acp-altered", exe)
	if code != exit.Differs || rep.Match {
		t.Fatalf("replay against the altered agent: exit %d %+v", code, rep)
	}
	var shape *replay.Difference
	for i, d := range rep.Calls[0].Differences {
		if d.What == "question changed" {
			shape = &rep.Calls[0].Differences[i]
		}
	}
	if shape == nil || shape.Path != "permission/options/3/optionId" || shape.Recorded != "never" || shape.Replayed != "block" ||
		shape.Question != "Edit config.json" {
		t.Errorf("the changed permission request: %+v", rep.Calls[0].Differences)
	}
	code, out, _ = runBin(t, "replay", f, "--", "env", testServerEnv+"=acp-altered", exe)
	if code != exit.Differs || !strings.Contains(out, "✗ call 1 demo-agent session/prompt") ||
		!strings.Contains(out, `question changed (question "Edit config.json") permission/options/3/optionId`) {
		t.Errorf("the text report:\n%s", out)
	}
}

// TestACPRecordNoSecrets: an agent started with a secret in its
// environment assignment and in an argument; the file has neither, and
// replaying it needs the agent given.
func TestACPRecordNoSecrets(t *testing.T) {
	const secret = "s3cr3t-value-7f"
	f := filepath.Join(t.TempDir(), "acp.jsonl")
	code, _, errs := runBin(t, "acp", "--prompt", "question", "--record", f, "--",
		"env", "ELICIT_API_TOKEN="+secret, binPath, "demo", "--acp")
	if code != exit.OK {
		t.Fatalf("acp --record: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(secret)) {
		t.Fatalf("the secret is in the recording")
	}
	rec, err := record.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if a := rec.Settings.Agents[0]; a.Kind != "stdio" || a.Command != "env" || !strings.Contains(strings.Join(a.Args, " "), "ELICIT_API_TOKEN="+serverspec.Masked) {
		t.Errorf("the agent as recorded: %+v", a)
	}
	if len(rec.Answers) != 1 || rec.Answers[0].Question.Kind != "elicitation" || rec.Answers[0].Given == nil || rec.Answers[0].Given.Kind != "accept" {
		t.Errorf("the elicitation answer: %+v", rec.Answers)
	}
	code, _, errs = runBin(t, "replay", f)
	if code != exit.Usage || !strings.Contains(errs, "masked (secret) argument") {
		t.Errorf("replay of a masked command: exit %d (want %d): %s", code, exit.Usage, errs)
	}
	code, out, errs := runBin(t, "replay", f, "--", binPath, "demo", "--acp")
	if code != exit.OK || !strings.Contains(out, "all matched") {
		t.Errorf("replay against the agent given: exit %d\n%s%s", code, out, errs)
	}
}

// TestACPReplayAgentSecretsMasked: an agent named on the replay's command
// line with a secret in its arguments (ELICIT_API_TOKEN=… through env)
// has that secret masked in what it prints, as elicit acp does: the
// replay's stderr, stdout and its --record hold none of it.
func TestACPReplayAgentSecretsMasked(t *testing.T) {
	const secret = "s3cr3t-value-9c"
	dir := t.TempDir()
	f, g := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	if code, _, errs := runBin(t, "acp", "--prompt", "question", "--record", f, "--", binPath, "demo", "--acp"); code != exit.OK {
		t.Fatalf("acp --record: exit %d: %s", code, errs)
	}
	code, out, errs := runBin(t, "replay", f, "--record", g, "--", "env", "ELICIT_API_TOKEN="+secret,
		"sh", "-c", `echo "token is $ELICIT_API_TOKEN" >&2; exec "$0" demo --acp`, binPath)
	if code != exit.OK || !strings.Contains(errs, "token is [redacted]") {
		t.Errorf("replay: exit %d, want %d and the agent's line masked on stderr:\n%s%s", code, exit.OK, out, errs)
	}
	b, err := os.ReadFile(g)
	if err != nil {
		t.Fatal(err)
	}
	for what, s := range map[string]string{"stdout": out, "stderr": errs, "the replay's recording": string(b)} {
		if strings.Contains(s, secret) {
			t.Errorf("the secret is in %s", what)
		}
	}
}
