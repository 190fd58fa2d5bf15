package question

import (
	"context"
	"testing"
)

// TestTapKeepsImmediacy: a tapped policy is still answered on the
// prompt's own goroutine, a tapped person still is not, and the tap hears
// exactly what was answered.
func TestTapKeepsImmediacy(t *testing.T) {
	q := &Question{Kind: KindElicitation, Mode: ModeForm, Message: "m"}
	var heard []OutcomeKind
	f := func(got *Question, out Outcome) {
		if got != q {
			t.Errorf("the tap heard another question")
		}
		heard = append(heard, out.Kind)
	}
	if !isImmediate(Tap(DeclineAll, f), q) {
		t.Error("a tapped policy is no longer immediate")
	}
	person := PrompterFunc(func(context.Context, *Question) Outcome { return Outcome{Kind: Cancel} })
	if isImmediate(Tap(person, f), q) {
		t.Error("a tapped person became immediate")
	}
	if out := Tap(DeclineAll, f).Prompt(t.Context(), q); out.Kind != Decline {
		t.Errorf("the tap changed the answer: %v", out.Kind)
	}
	_ = Tap(person, f).Prompt(t.Context(), q)
	if len(heard) != 2 || heard[0] != Decline || heard[1] != Cancel {
		t.Errorf("heard %v", heard)
	}
}
