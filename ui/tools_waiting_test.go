package ui

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
)

// TestCallWaitingOnThePersonDoesNotSpin: a running call whose question is
// open waits on the person, not on the machine: the tools view says so
// and runs no spinner for it (a spinner's tick redrew the screen ten
// times a second for as long as the question stayed open). Another call
// that runs without a question spins again, and so does the first once
// its question is answered.
func TestCallWaitingOnThePersonDoesNotSpin(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// Each tool's calls end when its channel is closed.
		started, release := make(chan string, 2), map[string]chan struct{}{"deploy": make(chan struct{}), "other": make(chan struct{})}
		call := func(ctx context.Context, tool string, _ map[string]any, _ func(client.CallProgress)) (*wire.CallToolResult, error) {
			started <- tool
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-release[tool]:
				return &wire.CallToolResult{}, nil
			}
		}
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "deploy"}, wire.Tool{Name: "other"}),
			func(e *fakeEngine) { e.callFn = call })
		defer close(release["deploy"])
		d.keys(keyF5, keyEnter)
		recv(t, started, "the deploy call")
		if !d.m.spin.running {
			t.Fatal("no spinner while the call works")
		}
		q := formPrompt(t, "demo", 1, "Which branch?", nameSchema) // asked by tool deploy, call 3
		reply := d.open(q)
		d.send(spinTickMsg{gen: d.m.spin.gen})
		if d.m.spin.running {
			t.Fatal("the spinner still runs for a call that waits on the person")
		}
		if s := d.screen(); !strings.Contains(s, "demo/deploy  waiting for your answer — F4") {
			t.Fatalf("the call does not say it waits on the person:\n%s", s)
		}

		d.keys(keyDown, keyEnter) // other: runs, asks nothing
		recv(t, started, "the other call")
		if !d.m.spin.running {
			t.Fatal("no spinner for a call that works while another waits")
		}
		close(release["other"])
		d.awaitLate(isCallDone)
		d.send(spinTickMsg{gen: d.m.spin.gen})
		if d.m.spin.running {
			t.Fatal("the spinner runs on with only the waiting call left")
		}

		d.send(tea.KeyPressMsg{Code: tea.KeyF4})
		d.m.prompts.byID[d.m.prompts.focus].answer(question.Outcome{Kind: question.Decline})
		<-reply
		d.keys(keyF5)
		if !d.m.spin.running {
			t.Fatalf("the question answered, the call works again and no spinner turns:\n%s", d.screen())
		}
	})
}
