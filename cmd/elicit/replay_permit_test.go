package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// A recording's "allow" to a permission request is the consent of
// whoever made the file, not of the person replaying it: against an agent
// that is not elicit's demo agent, a recorded allow of a tool call that
// may change things (internal/replay/permit.go) is answered only with the
// person's word; else the replay rejects it and says so as a difference.

// recordAllow records the demo agent's "Edit config.json" permission
// request (kind edit), allowed.
func recordAllow(t *testing.T) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "acp.jsonl")
	code, _, errs := runBin(t, "acp", "--prompt", "permission please", "--permission", "allow", "--record", f)
	if code != exit.OK {
		t.Fatalf("acp --record: exit %d: %s", code, errs)
	}
	return f
}

// TestReplayRecordedAllowNeedsYourWord: the recording replayed against
// an agent the person names (here the demo agent as a command, which
// elicit cannot tell from any other) does not allow the edit without the
// person's word: it rejects it, the outcome differs, and the report
// says why and how to allow it.
func TestReplayRecordedAllowNeedsYourWord(t *testing.T) {
	f := recordAllow(t)
	agent := []string{"--", binPath, "demo", "--acp"}

	code, rep := replayACPJSON(t, append([]string{f}, agent...)...)
	if code != exit.Differs || rep.Match || len(rep.Calls) != 1 {
		t.Fatalf("replay against a named agent: exit %d (want %d) %+v", code, exit.Differs, rep)
	}
	var refused bool
	for _, d := range rep.Calls[0].Differences {
		if d.What == "outcome" && d.Question == "Edit config.json" && d.Recorded == "accept (sent selected allow)" &&
			d.Replayed == "decline (sent selected reject)" && strings.Contains(d.Text, "--trust-recorded-command") &&
			strings.Contains(d.Text, "edit") {
			refused = true
		}
	}
	if !refused {
		t.Errorf("the recorded allow was not refused and said so: %+v", rep.Calls[0].Differences)
	}
	code, out, errs := runBin(t, append([]string{"replay", f}, agent...)...)
	if code != exit.Differs || !strings.Contains(out, `outcome (question "Edit config.json")`) ||
		!strings.Contains(errs, "--trust-recorded-command") || !strings.Contains(errs, `"Edit config.json" (edit)`) {
		t.Errorf("the text report: exit %d\n%s%s", code, out, errs)
	}

	// The person's word: the flag (or y on a terminal).
	code, out, errs = runBin(t, append([]string{"replay", "--trust-recorded-command", f}, agent...)...)
	if code != exit.OK || !strings.Contains(out, "all matched") || !strings.Contains(errs, `"Edit config.json" (edit)`) {
		t.Errorf("replay --trust-recorded-command: exit %d\n%s%s", code, out, errs)
	}

	// elicit's own demo agent, as recorded: its tool calls change nothing.
	code, out, errs = runBin(t, "replay", f)
	if code != exit.OK || !strings.Contains(out, "all matched") {
		t.Errorf("replay against the demo agent: exit %d\n%s%s", code, out, errs)
	}
}

// TestReplayRecordedAllowConfirm drives the replay in tmux: the recorded
// allow is shown whole before the agent starts and is answered as
// recorded only on the person's y; n rejects it and the replay goes on.
func TestReplayRecordedAllowConfirm(t *testing.T) {
	f := recordAllow(t)
	for _, answer := range []string{"y", "n"} {
		t.Run(answer, func(t *testing.T) {
			tm := newTmuxShell(t, 250, 40, t.TempDir(), nil, "replay", f, "--", binPath, "demo", "--acp")
			s := tm.waitText("Answer so? [y/N]")
			if !strings.Contains(s, `agent "demo-agent" (the one you named) answers allow (option allow) to the permission request "Edit config.json" (edit), as recorded`) {
				t.Errorf("the question does not show the recorded allow:\n%s", s)
			}
			tm.typeText(answer)
			tm.press("Enter")
			s = tm.waitText("elicit exited")
			switch answer {
			case "y":
				if !strings.Contains(s, "all matched") || !strings.Contains(s, "elicit exited 0") {
					t.Errorf("after y:\n%s", s)
				}
			case "n":
				if !strings.Contains(s, "the recorded allows are rejected") || !strings.Contains(s, `now "decline (sent selected reject)"`) ||
					!strings.Contains(s, "elicit exited 6") {
					t.Errorf("after n:\n%s", s)
				}
			}
		})
	}
}

// TestReplayRecordedAgentShowsAllows: a recording naming its agent's
// command shows, with the command to confirm, the allows it would give.
func TestReplayRecordedAgentShowsAllows(t *testing.T) {
	f := filepath.Join(t.TempDir(), "acp.jsonl")
	code, _, errs := runBin(t, "acp", "--prompt", "permission please", "--permission", "allow", "--record", f, "--", binPath, "demo", "--acp")
	if code != exit.OK {
		t.Fatalf("acp --record: exit %d: %s", code, errs)
	}
	code, _, errs = runBin(t, "replay", f)
	if code != exit.Usage || !strings.Contains(errs, `answers allow (option allow) to the permission request "Edit config.json" (edit), as recorded`) {
		t.Errorf("the refusal does not show the recorded allow: exit %d\n%s", code, errs)
	}
	code, out, errs := runBin(t, "replay", "--trust-recorded-command", f)
	if code != exit.OK || !strings.Contains(out, "all matched") {
		t.Errorf("replay --trust-recorded-command: exit %d\n%s%s", code, out, errs)
	}
}

// TestReplayReadsExactNames: a call's params are read by exact name, as
// a reviewer of the file reads them: "Prompt" beside "prompt" is another
// member, not the prompt sent (encoding/json took the last of the two).
func TestReplayReadsExactNames(t *testing.T) {
	f := recordAllow(t)
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	nb := bytes.Replace(b, []byte(`"params":{"prompt":"permission please","cwd":"."}`),
		[]byte(`"params":{"prompt":"permission please","cwd":".","Prompt":"question","Cwd":"/"}`), 1)
	if bytes.Equal(nb, b) {
		t.Fatal("the call's params are not in the file as expected")
	}
	if err := os.WriteFile(f, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runBin(t, "replay", f)
	if code != exit.OK || !strings.Contains(out, "✓ call 1 demo-agent session/prompt permission please") {
		t.Errorf("replay: exit %d\n%s%s", code, out, errs)
	}
}
