package question

import "context"

// Tap returns a Prompter that asks p and then tells f the question and
// what p answered, before the engine judges it: a recording keeps what a
// person or a policy gave, not only the outcome the engine decided (an
// accept whose content failed the schema ends Invalid). It is Immediate
// wherever p is, so tapping a policy does not change how it is run.
func Tap(p Prompter, f func(q *Question, out Outcome)) Prompter {
	return tap{p: p, f: f}
}

type tap struct {
	p Prompter
	f func(q *Question, out Outcome)
}

// Prompt implements Prompter.
func (t tap) Prompt(ctx context.Context, q *Question) Outcome {
	out := t.p.Prompt(ctx, q)
	t.f(q, out)
	return out
}

func (t tap) immediateFor(q *Question) bool { return isImmediate(t.p, q) }
