package acp_test

import (
	"context"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
)

// TestTurnIdleStopped: an agent that says nothing and never answers the
// prompt is stopped after TurnIdle (session/cancel), and its "cancelled"
// ends the turn: a headless turn has a bound.
func TestTurnIdleStopped(t *testing.T) {
	c := start(t, "plain", nil, func(o *acp.Options) { o.TurnIdle = 300 * time.Millisecond })
	res, err := turn(t, c, "silent")
	if err != nil || !res.IdleStopped || !res.Stopped || res.StopReason != acp.StopCancelled {
		t.Fatalf("turn %+v, %v: want it stopped for being idle, cancelled", res, err)
	}
}

// TestTurnIdleNotWhileBusy: a turn is not idle while the agent streams
// (updates every 50ms against a TurnIdle of 1s), nor while one of its
// questions waits for a person slower than TurnIdle.
func TestTurnIdleNotWhileBusy(t *testing.T) {
	t.Run("streaming", func(t *testing.T) {
		c := start(t, "plain", nil, func(o *acp.Options) { o.TurnIdle = time.Second })
		res, err := turn(t, c, "long")
		if err != nil || res.IdleStopped || res.StopReason != acp.StopEndTurn {
			t.Fatalf("turn %+v, %v: want end_turn", res, err)
		}
	})
	t.Run("asking", func(t *testing.T) {
		slow := question.PrompterFunc(func(ctx context.Context, _ *question.Question) question.Outcome {
			select { // a person who takes longer than TurnIdle
			case <-time.After(time.Second):
			case <-ctx.Done():
			}
			return question.Outcome{Kind: question.Decline}
		})
		c := start(t, "plain", slow, func(o *acp.Options) { o.TurnIdle = 300 * time.Millisecond })
		res, err := turn(t, c, "question")
		if err != nil || res.IdleStopped || res.StopReason != acp.StopEndTurn || res.Message != "No answer (decline)." {
			t.Fatalf("turn %+v, %v: want the question answered, end_turn", res, err)
		}
	})
}
