package acp_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
)

// An agent deaf to session/cancel gets $/cancel_request for the prompt
// once CancelWait runs out; its -32800 is cancelled, not a failure.
func TestDeafAgentAbandonedWithCancelRequest(t *testing.T) {
	c := start(t, "plain", nil, func(o *acp.Options) { o.CancelWait = 300 * time.Millisecond })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sid, err := c.NewSession(ctx, ".")
	if err != nil {
		t.Fatal(err)
	}
	pctx, pcancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer pcancel()
	res, err := c.Prompt(pctx, sid, "deaf")
	if err != nil || !res.RequestCancelled || !res.Stopped || res.StopReason != "" {
		t.Fatalf("turn: %+v, %v; want cancelled by $/cancel_request", res, err)
	}
}

func TestAbandonSlowAuthenticate(t *testing.T) {
	c := start(t, "slowauth", nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := c.Authenticate(ctx, "demo-login"); !errors.Is(err, acp.ErrCancelled) {
		t.Fatalf("abandoned authenticate: %v, want ErrCancelled", err)
	}
}

func TestChooseAuth(t *testing.T) {
	var offered []acp.AuthMethod
	c := start(t, "auth", nil, func(o *acp.Options) {
		o.ChooseAuth = func(_ context.Context, ms []acp.AuthMethod) (string, error) {
			offered = ms
			return "demo-login", nil
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.NewSession(ctx, "."); err != nil {
		t.Fatalf("session/new with ChooseAuth: %v", err)
	}
	if len(offered) != 1 || offered[0].ID != "demo-login" {
		t.Errorf("offered %+v", offered)
	}
	bad := start(t, "auth", nil, func(o *acp.Options) {
		o.ChooseAuth = func(context.Context, []acp.AuthMethod) (string, error) { return "nope", nil }
	})
	var ae *acp.AuthRequiredError
	if _, err := bad.NewSession(ctx, "."); !errors.As(err, &ae) {
		t.Errorf("a method the agent did not offer: %v, want AuthRequiredError", err)
	}
}

// A question left unanswered past QuestionTimeout is internal
// cancellation: answered -32800.
func TestQuestionTimeoutAnswered32800(t *testing.T) {
	for _, tc := range []struct {
		prompt, message, bucket string
	}{
		{"question", "The question was refused: error -32800.", question.BucketTimeout},
		{"permission", "The permission request failed: error -32800.", question.BucketTimeout},
	} {
		t.Run(tc.prompt, func(t *testing.T) {
			c := start(t, "plain", hold, func(o *acp.Options) { o.QuestionTimeout = 200 * time.Millisecond })
			res, err := turn(t, c, tc.prompt)
			if err != nil || res.Message != tc.message {
				t.Fatalf("turn: %+v, %v", res, err)
			}
			e := onlyEntry(t, c)
			if e.Kind != question.Timeout || e.Sent != "error -32800" || e.Bucket != tc.bucket {
				t.Errorf("entry %+v", e)
			}
		})
	}
}

func TestElicitationBucketsJournalled(t *testing.T) {
	c := start(t, "plain", hold, nil)
	if _, err := turn(t, c, "withdraw"); err != nil {
		t.Fatal(err)
	}
	if got := c.Journal().AgentElicitationCounts(); got[question.BucketWithdrawn] != 1 || len(got) != 1 {
		t.Errorf("agent elicitation counts %v", got)
	}
}

// AskAuth asks the sign-in method as a form (question.AuthChoice): the
// same panes as any form; an accept authenticates, a decline does not.
func TestAskAuth(t *testing.T) {
	var asked *question.Question
	p := question.PrompterFunc(func(ctx context.Context, q *question.Question) question.Outcome {
		asked = q
		return question.AcceptDefaults.Prompt(ctx, q)
	})
	j := question.NewJournal(0)
	c := start(t, "auth", nil, func(o *acp.Options) { o.ChooseAuth = acp.AskAuth("demo-agent", p, j) })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.NewSession(ctx, "."); err != nil {
		t.Fatalf("session/new after signing in: %v", err)
	}
	if asked == nil || asked.Key.Delivery != question.AuthChoice || asked.Schema == nil || asked.Key.String() != "demo-agent (sign-in)" {
		t.Fatalf("question %+v", asked)
	}
	if es := j.Entries(); len(es) != 1 || es[0].Kind != question.Accept || es[0].Content["method"] != "demo-login" || es[0].Sent != "" {
		t.Errorf("journal %+v", es)
	}
	declined := start(t, "auth", nil, func(o *acp.Options) { o.ChooseAuth = acp.AskAuth("demo-agent", question.DeclineAll, nil) })
	var ae *acp.AuthRequiredError
	if _, err := declined.NewSession(ctx, "."); !errors.As(err, &ae) || !strings.Contains(err.Error(), "sign-in decline") {
		t.Errorf("declined: %v, want AuthRequiredError", err)
	}
}

// Answers no request of ours awaits (an id never sent, a second answer)
// are dropped, and said so on stderr once, as MCP's engine notices them,
// instead of vanishing; the turn is not disturbed.
func TestStrayAnswersReported(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	c := start(t, "plain", nil, func(o *acp.Options) {
		o.OnStderr = func(s string) {
			mu.Lock()
			lines = append(lines, s)
			mu.Unlock()
		}
	})
	res, err := turn(t, c, "stray")
	if err != nil || res.StopReason != "end_turn" {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	// The stray answers were read before the turn's own: reported by now.
	mu.Lock()
	defer mu.Unlock()
	var got []string
	for _, l := range lines {
		if strings.Contains(l, "no request of ours awaits") {
			got = append(got, l)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "424242") || !strings.Contains(got[0], "any more such") {
		t.Fatalf("stderr notices %q, want one naming 424242 and any more such (all stderr: %q)", got, lines)
	}
}
