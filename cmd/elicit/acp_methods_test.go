package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/agents"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/internal/testenv"
)

// methodAgents are the agents elicit acp's session flags run against:
// the demo agent and the one on the official TypeScript SDK, each with
// the prefix of the sessions it starts with.
func methodAgents(t *testing.T) map[string]struct {
	cmd []string
	old string
} {
	t.Helper()
	out := map[string]struct {
		cmd []string
		old string
	}{agentDemo: {nil, "old_"}}
	sdk := os.Getenv("ELICIT_ACP_TS_SDK")
	if sdk == "" {
		testenv.MissingPart(t, "the TypeScript agent: ELICIT_ACP_TS_SDK not set")
		return out
	}
	if why := testenv.Lacks("node"); why != "" {
		testenv.MissingPart(t, "the TypeScript agent: %s", why)
		return out
	}
	script, err := filepath.Abs(filepath.Join("testdata", "acp-ts-agent.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	out[agentTS] = struct {
		cmd []string
		old string
	}{[]string{"--", "node", script, sdk}, "ts_old_"}
	return out
}

// TestACPSessionFlags: --list-sessions (every page), --delete, --load
// (history in the JSON), --mode and --config (their updates), --dir,
// --attach, the session closed after the turn, a tool call's name,
// notices and compaction, each request's ending under "actions".
func TestACPSessionFlags(t *testing.T) {
	for name, ag := range methodAgents(t) {
		t.Run(name, func(t *testing.T) {
			run := func(args ...string) (int, string) {
				code, out, stderr := acpRun(t, append(args, ag.cmd...)...)
				var b strings.Builder
				for _, s := range out.Sessions {
					b.WriteString(s.SessionID + " ")
				}
				if out.History != nil {
					b.WriteString("history:" + out.History.User + "/" + out.History.Message + " ")
				}
				if out.Modes != nil {
					b.WriteString("mode:" + out.Modes.CurrentModeID + " ")
				}
				for _, u := range out.SetupUpdates {
					b.WriteString("setup:" + u.Kind + " ")
				}
				for _, u := range out.Updates {
					b.WriteString("update:" + u.Kind + " ")
				}
				for _, tc := range out.ToolCalls {
					b.WriteString("tool:" + tc.Name + " ")
				}
				b.WriteString("message:" + out.Message)
				for _, a := range out.Actions {
					if !strings.HasPrefix(a.Method, "terminal") {
						b.WriteString(" | " + a.Method + " " + a.Ended)
					}
				}
				if out.Closed {
					b.WriteString(" | closed")
				}
				if out.Error != "" {
					b.WriteString(" | error " + out.Error + " " + stderr)
				}
				return code, b.String()
			}
			o := ag.old
			for _, tc := range []struct {
				args []string
				code int
				want string
			}{
				{[]string{"--list-sessions"}, 0, o + "1 " + o + "2 " + o + "3 message: | session/list ok | session/list ok"},
				{[]string{"--delete", o + "2", "--list-sessions"}, 0, o + "1 " + o + "3 message: | session/delete ok | session/list ok"},
				{[]string{"--load", o + "2", "--mode", "code", "--config", "verbose=true", "--config", "model=large", "--prompt", "named"}, 0,
					"history:old prompt 2/old answer 2 mode:code setup:current_mode_update setup:config_option_update setup:config_option_update tool:read_file message: | session/load ok | session/set_mode ok | session/set_config_option ok | session/set_config_option ok | session/close ok | closed"},
				{[]string{"--resume", o + "1", "--prompt", "notice compact"}, 0,
					"mode:ask update:notice message:Noticed. | session/resume ok | session/close ok | closed"},
				{[]string{"--prompt", "compact"}, 0,
					"mode:ask update:compaction_update update:compaction_summary_chunk update:compaction_update message:Compacted. | session/close ok | closed"},
				{[]string{"--load", "nope", "--prompt", "hi"}, 4, "message: | session/load error -32002"},
				{[]string{"--config", "verbose=maybe", "--prompt", "hi"}, 4, "mode:ask message: | error --config verbose is a boolean option"},
			} {
				code, got := run(tc.args...)
				if code != tc.code || !strings.HasPrefix(got, tc.want) {
					t.Errorf("%q: exit %d, %s\nwant exit %d, %s", tc.args, code, got, tc.code, tc.want)
				}
			}
		})
	}
}

// TestACPAttachAndDirs: --attach sends an image block to an agent that
// takes images, a resource link otherwise; --dir widens what the agent's
// fs requests reach.
func TestACPAttachAndDirs(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "dot.png")
	if err := os.WriteFile(png, []byte("\x89PNG\r\n\x1a\n0000"), 0o600); err != nil {
		t.Fatal(err)
	}
	txt := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(txt, []byte("hi\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, ag := range methodAgents(t) {
		t.Run(name, func(t *testing.T) {
			code, out, stderr := acpRun(t, append([]string{"--attach", png, "--attach", txt, "--dir", dir, "--prompt", "blocks"}, ag.cmd...)...)
			if code != 0 || out.Message != "text,image:image/png,resource_link:notes.txt:text/plain" {
				t.Errorf("exit %d, %+v\n%s", code, out, stderr)
			}
		})
	}
}

// TestACPAllowTerminal: --allow-terminal runs the agent's command in a
// PTY, asked first (--permission); refused, nothing runs.
func TestACPAllowTerminal(t *testing.T) {
	code, out, stderr := acpRun(t, "--allow-terminal", "--permission", "allow", "--prompt", "terminal")
	if code != 0 || out.Message != `exit {"exitCode":0,"signal":null}; output "hello from a terminal\r\nhi-env\r\n"` ||
		len(out.Questions) != 1 || out.Questions[0].Sent != "created" {
		t.Errorf("allowed: exit %d, %+v\n%s", code, out, stderr)
	}
	code, out, _ = acpRun(t, "--allow-terminal", "--prompt", "terminal")
	if code != 5 || out.Message != "terminal/create: error -32603." || out.Questions[0].Bucket != "reject_once" {
		t.Errorf("refused: exit %d, %+v", code, out)
	}
	for _, a := range out.Actions {
		if strings.HasPrefix(a.Method, "terminal") {
			t.Errorf("a refused terminal acted: %+v", a)
		}
	}
	if code, out, _ = acpRun(t, "--prompt", "terminal"); code != 0 || out.Message != "terminal: not offered by the client." {
		t.Errorf("undeclared: exit %d, %+v", code, out)
	}
}

// TestACPSessionFlagsRecordReplay: the session flags are kept in the
// recording's settings, and a replay opens, sets up and prompts the
// session as recorded (a terminal allowed as recorded), all matched.
func TestACPSessionFlagsRecordReplay(t *testing.T) {
	f := filepath.Join(t.TempDir(), "acp.jsonl")
	code, _, errs := runBin(t, "acp", "--load", "old_2", "--mode", "code", "--config", "verbose=true", "--allow-terminal",
		"--permission", "allow", "--prompt", "terminal", "--record", f)
	if code != exit.OK {
		t.Fatalf("acp --record: exit %d: %s", code, errs)
	}
	rec, err := record.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Settings.Agents[0]
	if a.Load != "old_2" || a.Mode != "code" || len(a.Config) != 1 || a.Config[0] != "verbose=true" || !a.AllowTerminal {
		t.Fatalf("settings %+v", a)
	}
	code, out, errs := runBin(t, "replay", f)
	if code != exit.OK || !strings.Contains(out, "all matched") {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
}

// TestACPTerminalSignIn: with --auth naming the agent's terminal sign-in
// method, elicit declares auth.terminal and runs the agent's own command
// with the method's args and env; exit 0 signs in, the turn goes on.
func TestACPTerminalSignIn(t *testing.T) {
	ag, ok := methodAgents(t)[agentTS]
	if !ok {
		t.Skip("the TypeScript agent is missing (said above)")
	}
	dir := t.TempDir()
	cmd := exec.Command(binPath, append([]string{"acp", "--auth", "term-login", "--prompt", "hi"}, ag.cmd...)...)
	cmd.Env = append(os.Environ(), "ELICIT_TS_AUTH_DIR="+dir)
	out, err := cmd.Output()
	var got agents.ACPOutput
	if jerr := json.Unmarshal(out, &got); err != nil || jerr != nil || got.Message != "You said: hi" || got.Authenticated != "term-login" {
		t.Fatalf("exit %v: %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "signed-in")); err != nil {
		t.Errorf("the terminal sign-in left no mark: %v", err)
	}
	var signed bool
	for _, a := range got.Actions {
		signed = signed || a.Method == "auth terminal" && a.Ended == "ok"
	}
	if !signed {
		t.Errorf("actions %+v", got.Actions)
	}
}
