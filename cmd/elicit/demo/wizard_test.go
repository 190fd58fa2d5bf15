package demo_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestWizardByHand drives both branches of the wizard round by round in the
// 2026-07-28 era: the keys of each round, the questions, and the final result,
// which names round 1's answer although only requestState carried it (over
// stateless HTTP every round is a fresh server session).
func TestWizardByHand(t *testing.T) {
	t.Parallel()
	cases := []struct {
		env, key, question string
		answer             map[string]any
		want               string
	}{
		{"staging", "slot", "Which staging slot?", map[string]any{"slot": "slot-b"},
			"Wizard done: environment staging, slot slot-b."},
		{"production", "service", "Type the service name to confirm", map[string]any{"service": "checkout"},
			"Wizard done: environment production, service 'checkout' confirmed."},
	}
	for _, kind := range modernTransports {
		for _, c := range cases {
			t.Run(kind+"/"+c.env, func(t *testing.T) {
				t.Parallel()
				cs := connectModern(t, kind, nil, byHand())

				r1 := retry(t, cs, "wizard", nil, nil, "")
				q1 := asked(t, r1, "environment")["environment"]
				if q1.Message != "What kind of environment?" || (q1.Mode != "" && q1.Mode != "form") {
					t.Errorf("round 1 question = %q (mode %q)", q1.Message, q1.Mode)
				}
				if diff := cmp.Diff([]any{"staging", "production"}, enumOf(t, q1, "environment")); diff != "" {
					t.Errorf("environment enum (-want +got):\n%s", diff)
				}

				r2 := retry(t, cs, "wizard", nil, mcp.InputResponseMap{
					"environment": accept(map[string]any{"environment": c.env}),
				}, r1.RequestState)
				q2 := asked(t, r2, c.key)[c.key]
				if q2.Message != c.question {
					t.Errorf("round 2 question = %q, want %q", q2.Message, c.question)
				}
				if r2.RequestState == r1.RequestState {
					t.Error("round 2 reissued round 1's requestState; it must carry the first answer")
				}
				props := q2.RequestedSchema.(map[string]any)["properties"].(map[string]any)
				if c.env == "staging" {
					if diff := cmp.Diff([]any{"slot-a", "slot-b"}, enumOf(t, q2, "slot")); diff != "" {
						t.Errorf("slot enum (-want +got):\n%s", diff)
					}
				} else if props["service"].(map[string]any)["type"] != "string" ||
					!cmp.Equal([]any{"service"}, q2.RequestedSchema.(map[string]any)["required"]) {
					t.Errorf("service question schema = %v", q2.RequestedSchema)
				}

				// A retry without the answer is asked again, not failed (mrtr.mdx).
				again := retry(t, cs, "wizard", nil, nil, r2.RequestState)
				if q := asked(t, again, c.key)[c.key]; q.Message != c.question {
					t.Errorf("unanswered retry asked %q, want %q again", q.Message, c.question)
				}

				r3 := retry(t, cs, "wizard", nil, mcp.InputResponseMap{c.key: accept(c.answer)}, r2.RequestState)
				if got := done(t, r3); got != c.want {
					t.Errorf("wizard = %q, want %q", got, c.want)
				}
			})
		}
	}
}

// TestWizardAbandoned: declining or cancelling either step ends the wizard
// with texts that tell the two apart.
func TestWizardAbandoned(t *testing.T) {
	t.Parallel()
	cs := connectModern(t, "stateless", nil, byHand())
	r1 := retry(t, cs, "wizard", nil, nil, "")
	r2 := retry(t, cs, "wizard", nil, mcp.InputResponseMap{
		"environment": accept(map[string]any{"environment": "staging"}),
	}, r1.RequestState)
	texts := map[string]string{}
	for _, step := range []struct {
		name, key string
		state     string
	}{{"environment", "environment", r1.RequestState}, {"slot", "slot", r2.RequestState}} {
		for _, action := range []string{"decline", "cancel"} {
			res := retry(t, cs, "wizard", nil, mcp.InputResponseMap{step.key: &mcp.ElicitResult{Action: action}}, step.state)
			got := done(t, res)
			if !strings.Contains(got, step.name) {
				t.Errorf("%s at %s = %q, want it to name the step", action, step.name, got)
			}
			texts[step.name+"/"+action] = got
		}
	}
	if texts["slot/decline"] == texts["slot/cancel"] || texts["environment/decline"] == texts["environment/cancel"] {
		t.Errorf("decline and cancel read alike: %q", texts)
	}
}

// wizardUser answers the wizard's questions by their message, as a person
// would, and counts them.
func wizardUser(env, second string, n *atomic.Int32) *mcp.ClientOptions {
	return elicitWith(func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		n.Add(1)
		switch req.Params.Message {
		case "What kind of environment?":
			return accept(map[string]any{"environment": env}), nil
		case "Which staging slot?":
			return accept(map[string]any{"slot": second}), nil
		case "Type the service name to confirm":
			return accept(map[string]any{"service": second}), nil
		default:
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}
	})
}

// TestWizardBothEras: one handler serves both eras. go-sdk's client answers
// input_required by itself in 2026-07-28; in 2025-11-25 the server asks two
// elicitation/create requests in a row. Either way the user sees two
// questions and the result names both answers.
func TestWizardBothEras(t *testing.T) {
	t.Parallel()
	run := func(t *testing.T, connectTo func(*mcp.ClientOptions) *mcp.ClientSession) {
		var n atomic.Int32
		cs := connectTo(wizardUser("production", "billing", &n))
		if got, want := okText(t, cs, "wizard", nil), "Wizard done: environment production, service 'billing' confirmed."; got != want {
			t.Errorf("wizard = %q, want %q", got, want)
		}
		if n.Load() != 2 {
			t.Errorf("the user was asked %d questions, want 2", n.Load())
		}
	}
	for _, kind := range modernTransports {
		t.Run("2026-07-28/"+kind, func(t *testing.T) {
			t.Parallel()
			run(t, func(copts *mcp.ClientOptions) *mcp.ClientSession { return connectModern(t, kind, nil, copts) })
		})
	}
	for _, kind := range transports {
		t.Run("2025-11-25/"+kind, func(t *testing.T) {
			t.Parallel()
			run(t, func(copts *mcp.ClientOptions) *mcp.ClientSession { return connect(t, kind, nil, copts, pinned) })
		})
	}
}
