package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/elicit-dev/elicit/client/wire"
)

var (
	keyCtrlN = tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl}
)

// withCompletions makes the demo server declare completions.
func withCompletions(e *fakeEngine) { e.servers[0].Caps.Completions = true }

// team answers like server-everything's completable-prompt: departments
// by prefix, and names that depend on the department given as context.
func team(_ context.Context, ref wire.CompleteRef, arg, value string, others map[string]string) (*wire.Completion, error) {
	var all []string
	switch arg {
	case "name":
		all = map[string][]string{"Engineering": {"Alice", "Alina", "Bob"}, "Sales": {"David", "Eve"}}[others["style"]]
	case "style":
		all = []string{"Engineering", "Sales", "Marketing", "Support"}
	case "id":
		all = []string{"7", "70", "71"}
	}
	var out []string
	for _, v := range all {
		if strings.HasPrefix(v, value) {
			out = append(out, v)
		}
	}
	total := len(out) + 10
	return &wire.Completion{Values: out, Total: &total, HasMore: true}, nil
}

// openGreet opens the argument form of withTemplates' greet prompt.
func openGreet(t *testing.T, setup ...func(*fakeEngine)) *driver {
	t.Helper()
	d := newDriver(t, Options{}, append([]func(*fakeEngine){withTemplates}, setup...)...)
	d.keys(keyF10, keyEnter)
	mustShow(t, d, "arguments for greet")
	return d
}

// due delivers the debounce timer's message of the form's latest change,
// as the 250 ms tick would, and the answer to the request it sends.
func (d *driver) due(h *argHost[wire.Prompt]) {
	d.t.Helper()
	d.dueOnly(h.args.id, h.args.comp)
	d.settle(h.args.comp)
}

// dueOnly delivers the timer's message of the latest change of form id
// and leaves the request it sends (if any) running.
func (d *driver) dueOnly(id int, p *completer) {
	d.t.Helper()
	if p == nil {
		d.t.Fatal("no form with completions is open")
	}
	d.send(routedMsg{id: id, msg: completeDueMsg{gen: p.gen}})
}

// settle feeds the answer to the request still out, which a slow fake
// server (a gate) held past the driver's take: it comes late.
func (d *driver) settle(p *completer) {
	d.t.Helper()
	if p.inflight == nil {
		return
	}
	d.awaitLate(func(msg tea.Msg) bool {
		r, ok := msg.(routedMsg)
		got, isGot := r.msg.(completeGotMsg)
		return ok && isGot && p.inflight != nil && got.gen == p.inflight.gen
	})
}

// isGot matches a completion answer (routed to its form).
func isGot(msg tea.Msg) bool {
	r, ok := msg.(routedMsg)
	_, got := r.msg.(completeGotMsg)
	return ok && got
}

// TestCompleteDebouncedAndPicked: keys typed in a burst make one request,
// for the text after the last key, once the timer for that key is due
// (the timers of the earlier keys are dropped); the values are listed with
// how many there are, sanitized, the first highlighted; ↓/ctrl+n move the
// highlight, tab takes it, and the other arguments go as context.
func TestCompleteDebouncedAndPicked(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := openGreet(t, withCompletions, func(e *fakeEngine) {
			e.completeFn = func(ctx context.Context, ref wire.CompleteRef, arg, value string, others map[string]string) (*wire.Completion, error) {
				if arg == "name" && value == "Al" {
					return &wire.Completion{Values: []string{"Alice", "Al\x1b[31mred", "", "Alina"}}, nil
				}
				return team(ctx, ref, arg, value, others)
			}
		})
		h := &d.templates().argHost
		mustShow(t, d, "suggestions as you type")
		first := h.args.comp.gen // armed when the form focused its first field
		d.typeText("Al")
		// The earlier timers come due: each is for a text that is gone.
		for g := first; g < h.args.comp.gen; g++ {
			d.send(routedMsg{id: h.args.id, msg: completeDueMsg{gen: g}})
		}
		if got := d.eng.completesAsked(); len(got) != 0 {
			t.Fatalf("stale timers asked: %+v", got)
		}
		d.due(h)
		want := []fakeComplete{{server: "demo", ref: wire.CompleteRef{Type: wire.RefPrompt, Name: "greet"}, arg: "name", value: "Al", others: map[string]string{}}}
		if got := d.eng.completesAsked(); !cmp.Equal(got, want, cmp.AllowUnexported(fakeComplete{})) {
			t.Fatalf("asked %+v, want %+v", got, want)
		}
		mustShow(t, d, "suggestions 3", "Alice", "Alina")
		s := d.m.View().Content
		assertNoHostile(t, s)
		if strings.Contains(s, "\x1b[31mred") {
			t.Fatal("a value's escape reached the screen")
		}
		if !strings.Contains(d.screen(), "› Alice") || !strings.Contains(d.screen(), "tab/enter take") {
			t.Fatalf("the first value is not highlighted from the start:\n%s", d.screen())
		}

		d.keys(keyDown, keyCtrlN, keyUp) // from Alice: the sanitized one, Alina, back
		if s := d.screen(); !strings.Contains(s, "› Al") || strings.Contains(s, "› Alice") || strings.Contains(s, "› Alina") {
			t.Fatalf("the second value is not the highlighted one:\n%s", s)
		}
		d.keys(keyCtrlN, keyTab) // Alina
		if name, text, _ := h.args.form.FocusedText(); name != "name" || text != "Alina" {
			t.Fatalf("after tab the field holds %q = %q, want name = Alina", name, text)
		}
		if h.args.comp.list != nil {
			t.Fatal("the list stayed open after a value was taken")
		}
		d.due(h) // the taken text is not asked about again
		if n := len(d.eng.completesAsked()); n != 1 {
			t.Fatalf("%d requests after taking a value, want 1", n)
		}

		// Enter with the list closed is the form's: on to style, which asks
		// with name as context.
		d.keys(keyEnter)
		d.typeText("S")
		d.due(h)
		asked := d.eng.completesAsked()
		last := asked[len(asked)-1]
		if last.arg != "style" || last.value != "S" || !cmp.Equal(last.others, map[string]string{"name": "Alina"}) {
			t.Fatalf("style asked %+v, want S with name=Alina", last)
		}
		mustShow(t, d, "suggestions 2 of 12", "Sales", "Support")
	})
}

// TestCompleteKeysLeaveTheFormItsOwn: with nothing highlighted, enter is
// the form's (next field); esc closes the list and leaves the form open,
// a second esc closes the form.
func TestCompleteKeysLeaveTheFormItsOwn(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := openGreet(t, withCompletions, func(e *fakeEngine) { e.completeFn = team })
		h := &d.templates().argHost
		d.keys(key1('E'))
		d.keys(keyEnter) // the name field's own Enter: on to style
		if name, _, _ := h.args.form.FocusedText(); name != "style" {
			t.Fatalf("focus on %q after enter, want style", name)
		}
		d.typeText("S")
		d.due(h)
		mustShow(t, d, "Sales", "Support")
		d.keys(keyEsc)
		if h.args == nil {
			t.Fatal("esc with the list open closed the form")
		}
		if strings.Contains(d.screen(), "Support") {
			t.Fatalf("esc left the list shown:\n%s", d.screen())
		}
		d.keys(keyEsc)
		if h.args != nil {
			t.Fatal("esc with no list did not close the form")
		}
	})
}

// TestCompleteOneRequestAtATime: a newer text due while a request is out
// cancels it and waits for it to end before asking again; the late answer
// for the old text is never shown. An answer that comes after the text
// changed, before that text's timer, is dropped too.
func TestCompleteOneRequestAtATime(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		cancelled := make(chan string, 4)
		d := openGreet(t, withCompletions, func(e *fakeEngine) {
			e.completeFn = func(ctx context.Context, ref wire.CompleteRef, arg, value string, others map[string]string) (*wire.Completion, error) {
				switch value {
				case "A", "B":
					select { // a slow server
					case <-ctx.Done():
						cancelled <- value
						return &wire.Completion{Values: []string{"OLD-" + value}}, ctx.Err()
					case <-release:
						return &wire.Completion{Values: []string{"OLD-" + value}}, nil
					}
				}
				return &wire.Completion{Values: []string{"NEW-" + value}}, nil
			}
		})
		h := &d.templates().argHost
		d.typeText("A")
		d.dueOnly(h.args.id, h.args.comp) // asks for "A"; the answer is slow
		d.typeText("l")
		d.dueOnly(h.args.id, h.args.comp) // "Al" is due while "A" is out: cancels it, does not ask yet
		if got := <-cancelled; got != "A" {
			t.Fatalf("cancelled %q, want A", got)
		}
		if n := len(d.eng.completesAsked()); n != 1 {
			t.Fatalf("%d requests out at once, want 1", n)
		}
		d.awaitLate(isGot) // the cancelled request ends: "Al" is asked
		d.settle(h.args.comp)
		if asked := d.eng.completesAsked(); len(asked) != 2 || asked[1].value != "Al" {
			t.Fatalf("asked %+v, want A then Al", asked)
		}
		mustShow(t, d, "NEW-Al")
		if strings.Contains(d.screen(), "OLD-") {
			t.Fatalf("the answer for the old text was shown:\n%s", d.screen())
		}

		// An answer that ends after the text changed, before its timer.
		d.keys(keyCtrlU) // clears the field (the list's keys are only ↓↑ tab enter esc)
		d.typeText("B")
		d.dueOnly(h.args.id, h.args.comp) // asks for "B", slow
		d.typeText("o")
		close(release) // "B" is answered now, with "Bo" in the field
		d.awaitLate(isGot)
		if strings.Contains(d.screen(), "OLD-B") {
			t.Fatalf("the answer for B was shown with Bo in the field:\n%s", d.screen())
		}
		d.due(h)
		mustShow(t, d, "NEW-Bo")
	})
}

// TestCompleteFocusMoveDropsTheAnswer: an answer for a field the focus
// has left is dropped.
func TestCompleteFocusMoveDropsTheAnswer(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		hold := make(chan struct{})
		d := openGreet(t, withCompletions, func(e *fakeEngine) {
			e.completeFn = func(_ context.Context, _ wire.CompleteRef, arg, _ string, _ map[string]string) (*wire.Completion, error) {
				if arg == "name" {
					<-hold
				}
				return &wire.Completion{Values: []string{"for-" + arg}}, nil
			}
		})
		h := &d.templates().argHost
		d.typeText("x")
		d.dueOnly(h.args.id, h.args.comp) // out, held
		d.keys(keyEnter)
		close(hold)
		d.awaitLate(isGot)
		if strings.Contains(d.screen(), "for-name") {
			t.Fatalf("name's answer shown with style focused:\n%s", d.screen())
		}
	})
}

// TestCompleteRealTimer: the debounce is a real timer: after the last key
// its tick comes (through the form's tag) and the request goes.
func TestCompleteRealTimer(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := openGreet(t, withCompletions, func(e *fakeEngine) { e.completeFn = team })
		h := &d.templates().argHost
		d.typeText("Q")
		d.awaitLate(func(msg tea.Msg) bool {
			r, ok := msg.(routedMsg)
			due, isDue := r.msg.(completeDueMsg)
			return ok && isDue && due.gen == h.args.comp.gen
		})
		d.settle(h.args.comp)
		if asked := d.eng.completesAsked(); len(asked) != 1 || asked[0].value != "Q" {
			t.Fatalf("asked %+v, want one request for Q", asked)
		}
		mustShow(t, d, "no suggestions for name")
	})
}

// TestCompleteNeedsTheCapability: a server that declared no completions
// is never asked, and the form says nothing of suggestions.
func TestCompleteNeedsTheCapability(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := openGreet(t, func(e *fakeEngine) { e.completeFn = team })
		h := &d.templates().argHost
		if h.args.comp != nil {
			t.Fatal("a completer for a server without completions")
		}
		if strings.Contains(d.screen(), "suggestions") {
			t.Fatalf("the form offers suggestions:\n%s", d.screen())
		}
		d.typeText("Al")
		d.send(routedMsg{id: h.args.id, msg: completeDueMsg{gen: 0}})
		d.send(routedMsg{id: h.args.id, msg: completeDueMsg{gen: 1}})
		d.keys(keyEnter, keyEnter)
		if asked := d.eng.completesAsked(); len(asked) != 0 {
			t.Fatalf("asked a server without completions: %+v", asked)
		}
		if len(d.eng.gets) != 1 {
			t.Fatalf("gets %+v", d.eng.gets)
		}
	})
}

// TestCompleteErrorsAreSaid: a failed request says why, sanitized; the
// form goes on.
func TestCompleteErrorsAreSaid(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := openGreet(t, withCompletions, func(e *fakeEngine) {
			e.completeFn = func(context.Context, wire.CompleteRef, string, string, map[string]string) (*wire.Completion, error) {
				return nil, errors.New("Invalid params \x1b]0;pwned\x07")
			}
		})
		h := &d.templates().argHost
		d.typeText("z")
		d.due(h)
		mustShow(t, d, "suggestions failed: Invalid params")
		assertNoHostile(t, d.m.View().Content)
		if strings.Contains(d.m.View().Content, "\x1b]0;") {
			t.Fatal("the error's escape reached the screen")
		}
	})
}

// TestCompleteResourceTemplateVariables: a template's variables complete
// against ref/resource with the URI template; the other variables go as
// context, and a taken value is expanded into the URI read.
func TestCompleteResourceTemplateVariables(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withResources, withResTemplates, withCompletions, func(e *fakeEngine) { e.completeFn = team })
		d.keys(keyF9)
		for range 4 {
			d.keys(keyDown)
		}
		d.keys(keyEnter)
		mustShow(t, d, "variables of text", "suggestions as you type")
		r := screenOf[*resourcesView](d.m)
		d.typeText("7")
		d.dueOnly(r.args.id, r.args.comp)
		d.settle(r.args.comp)
		mustShow(t, d, "suggestions 3 of 13", "70", "71")
		asked := d.eng.completesAsked()
		if len(asked) != 1 || asked[0].ref != (wire.CompleteRef{Type: wire.RefResource, URI: "demo://text/{id}{?lang}"}) || asked[0].arg != "id" {
			t.Fatalf("asked %+v", asked)
		}
		d.keys(keyTab)   // "7", highlighted from the start
		d.keys(keyEnter) // on to lang
		d.typeText("e")
		d.dueOnly(r.args.id, r.args.comp)
		d.settle(r.args.comp)
		asked = d.eng.completesAsked()
		if last := asked[len(asked)-1]; last.arg != "lang" || !cmp.Equal(last.others, map[string]string{"id": "7"}) {
			t.Fatalf("lang asked %+v, want id=7 as context", last)
		}
		d.typeText("n")
		d.keys(keyEnter)
		mustShow(t, d, "resources/read demo://text/7?lang=en", "text seven in en")
	})
}

// TestCompleteHighlightFollowsTheText: while the answer for a new text is
// on its way, the list of the old one keeps its highlight only on a value
// that still starts with the text; with none highlighted, the list's
// head no longer offers tab and enter (they are the form's).
func TestCompleteHighlightFollowsTheText(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := openGreet(t, withCompletions, func(e *fakeEngine) { e.completeFn = team })
		h := &d.templates().argHost
		d.typeText("E")
		d.keys(keyTab) // the form's: name has no list yet
		d.typeText("S")
		d.due(h)
		mustShow(t, d, "› Sales", "tab/enter take")
		d.typeText("u") // "Su": Support is still listed, and starts with it
		mustShow(t, d, "› Support", "tab/enter take")
		d.typeText("x") // "Sux": none does
		if s := d.screen(); strings.Contains(s, "› S") || strings.Contains(s, "tab/enter take") {
			t.Fatalf("a value that does not start with the text is highlighted, or the head offers tab/enter:\n%s", s)
		}
		d.keys(keyBackspace, keyTab) // "Su" again: Support highlighted, and taken
		if name, text, _ := h.args.form.FocusedText(); name != "style" || text != "Support" {
			t.Fatalf("tab took %s = %q, want style = Support", name, text)
		}
	})
}
