package hub

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// asked is one question handed to an attached prompter.
type asked struct {
	ctx context.Context
	q   *question.Question
}

// handedTo is an attached prompter that hands each question to the test
// and answers what the test says (or nothing, once its context ends).
type handedTo struct {
	got     chan asked
	answers chan question.Outcome
}

func (h *handedTo) Prompt(ctx context.Context, q *question.Question) question.Outcome {
	h.got <- asked{ctx, q}
	select {
	case out := <-h.answers:
		return out
	case <-ctx.Done():
		return question.Outcome{Kind: question.Cancel}
	}
}

func openQuestion(t *testing.T, p *Prompter, id int64) <-chan question.Outcome {
	t.Helper()
	q := &question.Question{Key: question.Key{Server: "s", RequestID: jsonrpc.IntID(id)}, Server: "s",
		Mode: question.ModeForm, Message: "m", Arrived: time.Now()}
	out := make(chan question.Outcome, 1)
	go func() { out <- p.Prompt(context.Background(), q) }()
	return out
}

// TestAttach: an attached prompter gets the questions already open and
// those opened later; its answer settles one (the first answer wins); a
// question answered elsewhere ends its context with ErrSettled; detach
// ends the rest with ErrDetached and leaves them open.
func TestAttach(t *testing.T) { synctest.Test(t, testAttach) }

func testAttach(t *testing.T) {
	p := newPrompter(&Session{calls: map[string]*Call{}})
	first := openQuestion(t, p, 1)
	synctest.Wait() // it is open, waiting
	h := &handedTo{got: make(chan asked, 4), answers: make(chan question.Outcome, 1)}
	detach := p.Attach(h)
	a1 := <-h.got
	if a1.q.Key.String() != "s#1" {
		t.Fatalf("handed %s", a1.q.Key)
	}
	h.answers <- question.Outcome{Kind: question.Decline}
	if out := <-first; out.Kind != question.Decline {
		t.Fatalf("the attached answer did not settle the question: %v", out.Kind)
	}
	if _, err := p.claim("s#1", question.Outcome{Kind: question.Accept}); err == nil {
		t.Fatal("a second answer was taken")
	}

	second := openQuestion(t, p, 2)
	a2 := <-h.got
	if _, err := p.claim("s#2", question.Outcome{Kind: question.Cancel}); err != nil {
		t.Fatal(err)
	}
	<-second
	<-a2.ctx.Done()
	if cause := context.Cause(a2.ctx); !errors.Is(cause, ErrSettled) {
		t.Errorf("a question settled elsewhere ended the attached one with %v", cause)
	}

	third := openQuestion(t, p, 3)
	a3 := <-h.got
	detach()
	<-a3.ctx.Done()
	if cause := context.Cause(a3.ctx); !errors.Is(cause, ErrDetached) {
		t.Errorf("detach ended the attached question with %v", cause)
	}
	if p.count() != 1 {
		t.Errorf("detach left %d questions open, want 1", p.count())
	}
	if _, err := p.claim("s#3", question.Outcome{Kind: question.Decline}); err != nil {
		t.Fatal(err)
	}
	<-third
	p.nexts.Wait()
}
