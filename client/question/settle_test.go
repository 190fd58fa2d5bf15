package question_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/forms/schema"
)

func noClaim(ctx context.Context) (string, error) {
	if ctx.Err() != nil {
		return "gone", context.Cause(ctx)
	}
	return "", nil
}

// TestSettleEndedNeverShown: a question whose context ended before it was
// settled never reaches the Prompter, and ends with that cause.
func TestSettleEndedNeverShown(t *testing.T) {
	t.Parallel()
	var shown atomic.Int32
	a := &question.Asker{Prompter: question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
		shown.Add(1)
		return question.Outcome{Kind: question.Accept}
	})}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(question.ErrWithdrawn)
	d := a.Settle(ctx, &question.Question{}, noClaim)
	if d.Outcome.Kind != question.Withdrawn || d.Outcome.Reason != "gone" || shown.Load() != 0 {
		t.Errorf("decision %+v, shown %d times; want withdrawn with the reason, never shown", d, shown.Load())
	}
}

// TestSettleCauseWinsOverLateAnswer: the Prompter that has not answered
// when the context ends loses; its answer is discarded.
func TestSettleCauseWinsOverLateAnswer(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	release := make(chan struct{})
	a := &question.Asker{WG: &wg, Prompter: question.PrompterFunc(func(ctx context.Context, _ *question.Question) question.Outcome {
		<-release
		return question.Outcome{Kind: question.Accept}
	})}
	ctx, cancel := context.WithCancelCause(context.Background())
	go cancel(question.ErrDisconnected)
	wg.Add(1) // the caller's own count, as an engine holds one
	d := a.Settle(ctx, &question.Question{}, noClaim)
	close(release)
	wg.Done()
	wg.Wait()
	if d.Outcome.Kind != question.Disconnected {
		t.Errorf("decision %+v, want disconnected", d)
	}
}

// TestSettlePanicIsCancel: a Prompter that panics ends its question
// Cancel and is reported, and the engine goes on.
func TestSettlePanicIsCancel(t *testing.T) {
	t.Parallel()
	var reported atomic.Int32
	a := &question.Asker{
		Prompter: question.PrompterFunc(func(context.Context, *question.Question) question.Outcome { panic("boom") }),
		OnPanic:  func(*question.Question, any) { reported.Add(1) },
	}
	d := a.Settle(context.Background(), &question.Question{}, noClaim)
	if d.Outcome.Kind != question.Cancel || reported.Load() != 1 {
		t.Errorf("decision %+v, reported %d; want cancel, reported once", d, reported.Load())
	}
}

// TestJudgeChecksContent: accept content failing the schema is Invalid
// with the property named; a non-answer from a Prompter is Cancel.
func TestJudgeChecksContent(t *testing.T) {
	t.Parallel()
	var cache question.SchemaCache
	q := &question.Question{Mode: question.ModeForm}
	perr := question.Parse(q, []byte(`{"message":"m","requestedSchema":{"type":"object","properties":{"n":{"type":"integer","minimum":3}},"required":["n"]}}`),
		question.Modes{Form: true}, schema.Subset2025_11_25, &cache)
	if perr != nil {
		t.Fatal(perr)
	}
	d := question.Judge(q, question.Outcome{Kind: question.Accept, Content: map[string]any{"n": 1}})
	if d.Outcome.Kind != question.Invalid || d.Data == nil {
		t.Errorf("judge of n=1: %+v, want invalid with data", d)
	}
	if d := question.Judge(q, question.Outcome{Kind: question.Withdrawn}); d.Outcome.Kind != question.Cancel {
		t.Errorf("a prompter's withdrawn: %+v, want cancel", d)
	}
}
