package app

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/redact"
)

// TestAgentWiringHooksEveryAgent: an agent started through the wiring
// (a real subprocess, the demo agent wanting a sign-in) has its secret
// argument joined to the run's set and masked in what it sends (frames,
// stderr) before the recording and the caller see it; its sign-in
// question is asked, journalled, and recorded as ended; its permission
// question is answered, journalled, recorded and told to OnResolved; the
// turn is recorded as one PromptMethod call with its TurnRecord.
func TestAgentWiringHooksEveryAgent(t *testing.T) {
	const secret = "tok-5f3a9c1e7b2d4a6c"
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sec := redact.NewSecrets()
	var buf bytes.Buffer
	rec, err := record.New(&buf, "test", record.Settings{Command: "acp"}, record.Redact(sec.Bytes))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var frames, stderr []string
	var resolved []question.JournalEntry
	journal := question.NewJournal(0)
	w := &AgentWiring{
		Name: "agent", Version: "test", Command: exe, Args: []string{"--token", secret},
		Env:     append(os.Environ(), agentEnv+"=1"),
		Secrets: sec, SecretValues: []string{secret}, Recorder: rec, Journal: journal,
		Prompter: question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
			if o, ok := q.Permission.OfKind(question.OptionAllowOnce); ok {
				return question.Outcome{Kind: question.Accept, Option: o.ID}
			}
			return question.Outcome{Kind: question.Decline}
		}),
		AskAuth: question.AcceptDefaults,
		OnFrame: func(f transport.Frame) {
			mu.Lock()
			frames = append(frames, string(f.Raw))
			mu.Unlock()
		},
		OnStderr: func(line string) {
			mu.Lock()
			stderr = append(stderr, line)
			mu.Unlock()
		},
		OnResolved: func(e question.JournalEntry) {
			mu.Lock()
			resolved = append(resolved, e)
			mu.Unlock()
		},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := w.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	prompt := "permission " + secret
	res, err := w.Turn(PromptParams{Prompt: prompt, Cwd: "."}, func() (acp.TurnResult, error) {
		defer c.Close()
		sid, err := c.NewSession(ctx, ".")
		if err != nil {
			return acp.TurnResult{}, err
		}
		return c.Prompt(ctx, sid, prompt)
	})
	if err != nil {
		t.Fatalf("turn: %v", err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	<-c.Done()

	mu.Lock()
	defer mu.Unlock()
	if sec.Len() == 0 {
		t.Error("the agent's secret did not join the run's set")
	}
	if strings.Contains(buf.String(), secret) {
		t.Errorf("the recording holds the agent's secret:\n%s", buf.String())
	}
	if !slices.ContainsFunc(frames, func(f string) bool { return strings.Contains(f, "permission "+redact.Mask) }) {
		t.Errorf("no frame the caller saw has the prompt with its secret masked: %q", frames)
	}
	if slices.ContainsFunc(frames, func(f string) bool { return strings.Contains(f, secret) }) {
		t.Error("a frame the caller saw holds the secret")
	}
	if !slices.ContainsFunc(stderr, func(l string) bool { return strings.Contains(l, "started with") }) ||
		slices.ContainsFunc(stderr, func(l string) bool { return strings.Contains(l, secret) }) {
		t.Errorf("the agent's stderr, its secret masked, did not reach OnStderr: %q", stderr)
	}

	got, err := record.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Calls) != 1 || got.Calls[0].Method != PromptMethod || got.Calls[0].Result == nil || got.Calls[0].Result.Error != nil {
		t.Fatalf("recorded calls = %+v, want one %s ended with a result", got.Calls, PromptMethod)
	}
	var turn TurnRecord
	if err := wire.DecodeExact(got.Calls[0].Result.Result, &turn); err != nil || turn.StopReason != res.StopReason || turn.StopReason == "" {
		t.Errorf("recorded turn = %+v (%v), want stopReason %q", turn, err, res.StopReason)
	}
	if got.Frames < 6 {
		t.Errorf("recorded %d frames, want every frame both ways", got.Frames)
	}
	var kinds []string
	for _, a := range got.Answers {
		kinds = append(kinds, a.Key+" "+a.Outcome)
		if a.Outcome == "" || a.Outcome == "open" {
			t.Errorf("answer %s recorded as not ended: %+v", a.Key, a)
		}
	}
	if len(got.Answers) != 2 {
		t.Errorf("recorded answers %q, want the sign-in and the permission", kinds)
	}
	entries := journal.Entries()
	if len(entries) != 2 || !slices.ContainsFunc(entries, func(e question.JournalEntry) bool { return e.Key.Delivery == question.AuthChoice }) {
		t.Errorf("journal = %+v, want the sign-in and the permission", entries)
	}
	if len(resolved) != 2 {
		t.Errorf("OnResolved heard %d ends, want 2 (the sign-in's too)", len(resolved))
	}
}
