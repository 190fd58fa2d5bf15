package acp_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
)

// TestPermissionAfterTurnRefused: a permission request the agent sends
// after it answered the prompt belongs to no turn (tool calls are a
// turn's): it is refused -32602 without being asked, not answered by a
// policy that allows the turn's tool calls (elicit acp --permission allow
// allowed it when it came before the turn was forgotten).
func TestPermissionAfterTurnRefused(t *testing.T) {
	var asked atomic.Int32
	allow := question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
		asked.Add(1)
		return question.Outcome{Kind: question.Accept, Option: q.Permission.Options[0].ID}
	})
	ended := make(chan question.JournalEntry, 1)
	c := start(t, "plain", allow, func(o *acp.Options) {
		o.OnResolved = func(e question.JournalEntry) { ended <- e }
	})
	res, err := turn(t, c, "afterturn")
	if err != nil || res.StopReason != acp.StopEndTurn {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	select {
	case e := <-ended:
		if e.Kind != question.Invalid || e.Sent != "error -32602" || !strings.Contains(e.Reason, "no prompt turn") {
			t.Errorf("entry %+v: want refused -32602", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the late permission request did not end")
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the Prompter was asked %d times", n)
	}
}
