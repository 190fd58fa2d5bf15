package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/replay"
)

// alteredDemo is the server command of the demo with its deploy question
// changed (replay_server_test.go): this test binary, as a test server.
func alteredDemo(t *testing.T) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"--", "env", testServerEnv + "=demo-altered", exe}
}

// replayJSON runs elicit replay --json and decodes its report.
func replayJSON(t *testing.T, args ...string) (int, replay.Report, string) {
	t.Helper()
	code, out, errs := runCLI(t, append([]string{"replay", "--json"}, args...)...)
	var rep replay.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("replay --json: %v\n%s\nstderr: %s", err, out, errs)
	}
	return code, rep, errs
}

// TestReplayGreenThenRed records a headless call of deploy in each era,
// replays it green against the embedded demo and against the demo run as
// a stdio process, then red against the demo whose deploy question offers
// one more branch: the question's changed shape is reported, by path.
func TestReplayGreenThenRed(t *testing.T) {
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "deploy.jsonl")
			code, _, errs := runCLI(t, "call", "deploy", "--protocol", era, "--args", `{"service":"api"}`, "--record", f)
			if code != exit.OK {
				t.Fatalf("call --record: exit %d: %s", code, errs)
			}
			code, out, errs := runCLI(t, "replay", f)
			if code != exit.OK || !strings.Contains(out, "✓ call 1 demo tools/call deploy") || !strings.Contains(out, "all matched") {
				t.Fatalf("replay against the demo: exit %d\n%s%s", code, out, errs)
			}
			code, rep, errs := replayJSON(t, f, "--", binPath, "demo", "--serve", "stdio")
			if code != exit.OK || !rep.Match {
				t.Fatalf("replay against the demo over stdio: exit %d %+v %s", code, rep, errs)
			}

			code, rep, errs = replayJSON(t, append([]string{f}, alteredDemo(t)...)...)
			if code != exit.Differs || rep.Match || len(rep.Calls) != 1 || rep.Calls[0].Status != "differs" {
				t.Fatalf("replay against the altered demo: exit %d, report %+v, stderr %s", code, rep, errs)
			}
			var changed *replay.Difference
			for i, d := range rep.Calls[0].Differences {
				if d.What == "question changed" {
					changed = &rep.Calls[0].Differences[i]
				}
			}
			if changed == nil || changed.Path != "schema/properties/branch/enum/3" || changed.Replayed != "rollback" ||
				changed.Question != "Which branch should be deployed to production?" {
				t.Errorf("the changed question is not reported as such: %+v", rep.Calls[0].Differences)
			}
			code, out, _ = runCLI(t, append([]string{"replay", f}, alteredDemo(t)...)...)
			if code != exit.Differs || !strings.Contains(out, "✗ call 1 demo tools/call deploy") ||
				!strings.Contains(out, `question changed (question "Which branch should be deployed to production?") schema/properties/branch/enum/3: added; recorded (none), now "rollback"`) {
				t.Errorf("the text report does not say what changed:\n%s", out)
			}
		})
	}
}

// TestReplayReportsEachDifference replays recordings edited the way a
// server's change would show: another result, a question that does not
// come and one that does instead, another outcome.
func TestReplayReportsEachDifference(t *testing.T) {
	f := filepath.Join(t.TempDir(), "deploy.jsonl")
	if code, _, errs := runCLI(t, "call", "deploy", "--protocol", "2025-11-25", "--record", f); code != exit.OK {
		t.Fatalf("call --record: exit %d: %s", code, errs)
	}
	orig, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name string, fn func(line map[string]any)) string {
		var out bytes.Buffer
		sc := bufio.NewScanner(bytes.NewReader(orig))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var line map[string]any
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				t.Fatal(err)
			}
			fn(line)
			b, _ := json.Marshal(line)
			out.Write(append(b, '\n'))
		}
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name string
		fn   func(line map[string]any)
		want []string // What of each difference, in order
	}{
		{"result", func(l map[string]any) {
			if l["type"] == "result" {
				l["result"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": "Deploying web from main."}}}
			}
		}, []string{"result"}},
		{"question", func(l map[string]any) {
			if q, ok := l["question"].(map[string]any); ok {
				q["message"] = "Which branch, again?"
			}
		}, []string{"question extra", "question missing", "result"}},
		{"outcome", func(l map[string]any) {
			if l["type"] == "answer" {
				// The answer given stays accept: the server ended it otherwise.
				l["outcome"], l["sent"] = "decline", "decline"
			}
		}, []string{"outcome"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, rep, errs := replayJSON(t, edit(tc.name+".jsonl", tc.fn))
			if code != exit.Differs || len(rep.Calls) != 1 {
				t.Fatalf("exit %d, %+v, %s", code, rep, errs)
			}
			var got []string
			for _, d := range rep.Calls[0].Differences {
				got = append(got, d.What)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("differences %q, want %q: %+v", got, tc.want, rep.Calls[0].Differences)
			}
		})
	}
}

// TestRecordMasksSecrets: header values, query values and secret
// arguments and environment values never reach the file; their names do.
func TestRecordMasksSecrets(t *testing.T) {
	srv := httptest.NewServer(demo.HTTPHandler(nil))
	defer srv.Close()
	dir := t.TempDir()
	f := filepath.Join(dir, "http.jsonl")
	code, _, errs := runCLI(t, "tools", "--url", srv.URL+"/?token=SEKRIT1", "--header", "Authorization: Bearer SEKRIT2",
		"--header", "X-Api-Key: SEKRIT3", "--record", f)
	if code != exit.OK {
		t.Fatalf("tools --url: exit %d: %s", code, errs)
	}
	g := filepath.Join(dir, "stdio.jsonl")
	code, _, errs = runCLI(t, "tools", "--record", g, "--", "env", "API_TOKEN=SEKRIT4", binPath, "demo", "--serve", "stdio")
	if code != exit.OK {
		t.Fatalf("tools -- CMD: exit %d: %s", code, errs)
	}
	for _, p := range []string{f, g} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("SEKRIT")) {
			t.Errorf("%s holds a secret:\n%s", filepath.Base(p), b)
		}
	}
	rec, err := record.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	s := rec.Settings.Servers[0]
	if s.Kind != "http" || !strings.Contains(s.URL, "token=…") || strings.Join(s.HeaderNames, ",") != "Authorization,X-Api-Key" {
		t.Errorf("the http server is not described by names: %+v", s)
	}
	if len(rec.Calls) != 1 || rec.Calls[0].Method != "tools/list" || rec.Calls[0].Result == nil || rec.Frames == 0 || rec.End == nil {
		t.Errorf("the recording lacks its call, frames or end: %+v", rec)
	}
	// The masked URL cannot be replayed as recorded: the replay says so.
	if code, _, errs := runCLI(t, "replay", f); code != exit.Usage || !strings.Contains(errs, "give it with --url") {
		t.Errorf("replay of a masked URL: exit %d: %s", code, errs)
	}
	rec, err = record.ReadFile(g)
	if err != nil {
		t.Fatal(err)
	}
	if s := rec.Settings.Servers[0]; s.Kind != "stdio" || s.Command != "env" || s.Args[0] != "API_TOKEN=…" {
		t.Errorf("the stdio server's secret argument is not masked: %+v", s)
	}
}

// TestRecordUnwritablePath: --record to a path that cannot be written
// fails before the server is started.
func TestRecordUnwritablePath(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	bad := filepath.Join(dir, "no-such-dir", "r.jsonl")
	code, _, errs := runCLI(t, "tools", "--record", bad, "--", "sh", "-c", "touch "+marker)
	if code != exit.Usage || !strings.Contains(errs, "--record "+bad) || !strings.Contains(errs, "no such file or directory") {
		t.Errorf("exit %d, stderr %s", code, errs)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the server was started before the recording was refused")
	}
}

// TestRecordEndsOnEveryExit: the file is complete (its end line written)
// when the server dies in a call, and when elicit is interrupted (SIGINT)
// in the middle of one.
func TestRecordEndsOnEveryExit(t *testing.T) {
	dir := t.TempDir()
	dead := filepath.Join(dir, "dead.jsonl")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	code, _, _ := runCLI(t, "call", "die-on-call", "--record", dead, "--", "env", testServerEnv+"=die-on-call", exe)
	if code != exit.ToolError {
		t.Errorf("a server dying in the call: exit %d, want %d", code, exit.ToolError)
	}
	rec, err := record.ReadFile(dead)
	if err != nil {
		t.Fatal(err)
	}
	if rec.End == nil || len(rec.Calls) != 1 || rec.Calls[0].Result == nil || rec.Calls[0].Result.Error == nil {
		t.Errorf("the dead server's recording is not complete: %+v", rec)
	}

	intr := filepath.Join(dir, "interrupted.jsonl")
	cmd := exec.Command(binPath, "call", "slow", "--args", `{"seconds":60}`, "--record", intr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(intr)
		if bytes.Contains(b, []byte(`"type":"call"`)) {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the call never reached the recording:\n%s", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	rec, err = record.ReadFile(intr)
	if err != nil {
		t.Fatal(err)
	}
	if rec.End == nil || len(rec.Calls) != 1 || rec.Calls[0].Result == nil {
		t.Errorf("the interrupted recording is not complete: end %+v, calls %+v", rec.End, rec.Calls)
	}
}

// TestReplayAbandoned: a question whose call the person cancelled (in
// the TUI) cancels the call again in the replay, and replays green. The
// recording is a real one of deploy, edited to what the TUI records then:
// the question abandoned, the call cancelled. (A withdrawn question is
// replayed in TestTUIRecordReplay.)
func TestReplayAbandoned(t *testing.T) {
	dir := t.TempDir()
	g := filepath.Join(dir, "deploy.jsonl")
	if code, _, errs := runCLI(t, "call", "deploy", "--protocol", "2025-11-25", "--record", g); code != exit.OK {
		t.Fatalf("call deploy --record: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(g)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		switch m["type"] {
		case "answer":
			m["outcome"], m["sent"], m["given"], m["content"] = "abandoned", "cancel", nil, nil
		case "result":
			delete(m, "result")
			m["error"] = map[string]any{"message": "tools/call on demo: context canceled"}
		}
		out, _ := json.Marshal(m)
		lines = append(lines, string(out))
	}
	if err := os.WriteFile(g, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, rep, errs := replayJSON(t, g)
	if code != exit.OK || !rep.Match {
		t.Errorf("replay of an abandoned call: exit %d %+v %s", code, rep, errs)
	}
}

// TestReplaySampling: a sampling request is recorded with its params and
// the reply given, and replayed with that reply, in both eras.
func TestReplaySampling(t *testing.T) {
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "summarize.jsonl")
			code, _, errs := runCLI(t, "call", "summarize", "--args", `{"text":"The quick brown fox jumps over the lazy dog."}`,
				"--protocol", era, "--sample", "echo", "--record", f)
			if code != exit.OK {
				t.Fatalf("call summarize --record: exit %d: %s", code, errs)
			}
			rec, err := record.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Answers) != 1 || rec.Answers[0].Question.Kind != "sampling" || rec.Answers[0].Given == nil ||
				rec.Answers[0].Given.Sample == nil || !strings.Contains(string(rec.Answers[0].Question.Sampling), "quick brown fox") {
				t.Fatalf("the sampling answer: %+v", rec.Answers)
			}
			if code, rep, errs := replayJSON(t, f); code != exit.OK || !rep.Match {
				t.Errorf("replay: exit %d %+v %s", code, rep, errs)
			}
		})
	}
}
