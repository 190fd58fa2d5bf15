package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// TestTUIRecordReplay records a session a person drives in the TUI
// (`elicit demo --record F`: deploy, answered release and confirmed; a
// question left for the server to withdraw; quit), replays it green
// against the demo, and red against a copy of the demo whose deploy
// question offers one more branch.
func TestTUIRecordReplay(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "deploy.jsonl")
	tm := newTmux(t, dir, "demo", "--protocol", "2025-11-25", "--record", f)
	tm.waitText("demo-2025-11-25 ready 2025-11-25")
	tm.callTool("deploy")
	tm.waitText("arguments for deploy")
	tm.press("Enter")
	tm.question("Which branch should be deployed to production?")
	tm.press("Down")  // release
	tm.press("Enter") // on to the confirmation
	tm.waitText("I confirm this production deployment")
	tm.press("Left") // Yes
	tm.press("Enter")
	tm.waitText("accept (sent accept)")
	tm.press("F5")
	tm.waitText("Deploying web from release.")
	// A question nobody answers, which the server withdraws after 4 s.
	tm.callTool("withdrawn")
	tm.question("The server will withdraw this question")
	tm.waitText("withdrawn by demo-2025-11-25")
	tm.press("C-c")
	waitEnded(t, f)

	rec, err := record.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Settings.Command != "demo" || len(rec.Settings.Servers) != 1 || rec.Settings.Servers[0].Name != "demo-2025-11-25" {
		t.Errorf("settings %+v", rec.Settings)
	}
	var answered *record.Answer
	for i, a := range rec.Answers {
		if a.Question != nil && a.Question.Message == "Which branch should be deployed to production?" {
			answered = &rec.Answers[i]
		}
	}
	if answered == nil || answered.Outcome != "accept" || answered.Given == nil ||
		answered.Given.Content["branch"] != "release" || answered.Given.Content["confirm"] != true {
		t.Fatalf("the person's answer is not recorded: %+v", rec.Answers)
	}
	if last := rec.Answers[len(rec.Answers)-1]; last.Outcome != "withdrawn" || last.Question.OriginName != "withdrawn" {
		t.Errorf("the withdrawn question is not recorded so: %+v", last)
	}

	code, out, errs := runCLI(t, "replay", f)
	// Calls are matched by what they did, not their number: the TUI may
	// list the tools again when a view is shown, which adds a call.
	deployOK := regexp.MustCompile(`✓ call \d+ demo-2025-11-25 tools/call deploy`)
	withdrawnOK := regexp.MustCompile(`✓ call \d+ demo-2025-11-25 tools/call withdrawn`)
	deployRed := regexp.MustCompile(`✗ call \d+ demo-2025-11-25 tools/call deploy`)
	if code != exit.OK || !deployOK.MatchString(out) || !withdrawnOK.MatchString(out) || !strings.Contains(out, "all matched") {
		t.Fatalf("replay against the demo: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, append([]string{"replay", f}, alteredDemo(t)...)...)
	if code != exit.Differs || !deployRed.MatchString(out) ||
		!strings.Contains(out, "schema/properties/branch/enum/3: added; recorded (none), now \"rollback\"") {
		t.Fatalf("replay against the altered demo: exit %d\n%s%s", code, out, errs)
	}
	t.Logf("red replay:\n%s", out)
}

// waitEnded waits for the recording at path to have its end line: the
// TUI closes it on the way out.
func waitEnded(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		if bytes.Contains(b, []byte(`"type":"end"`)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the recording was not closed:\n%s", b)
		}
		time.Sleep(50 * time.Millisecond) // the interval of a poll of the recording
	}
}
