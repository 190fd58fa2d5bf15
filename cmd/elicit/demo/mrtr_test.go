package demo_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestModernDeploy: in 2026-07-28 deploy asks through input_required, and
// accept, decline and cancel still end with their own texts. go-sdk's client
// runs the retry loop with the same elicitation handler as in 2025-11-25.
func TestModernDeploy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		res  *mcp.ElicitResult
		want string
	}{
		{"accept", accept(map[string]any{"branch": "release", "confirm": true}), "Deploying web from release."},
		{"decline", &mcp.ElicitResult{Action: "decline"}, "Deployment declined by the user: nothing was deployed."},
		{"cancel", &mcp.ElicitResult{Action: "cancel"}, "Deployment cancelled: the question was dismissed without an answer; ask again later."},
	}
	for _, kind := range modernTransports {
		for _, c := range cases {
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				cs := connectModern(t, kind, nil, answer(c.res))
				if got := okText(t, cs, "deploy", nil); got != c.want {
					t.Errorf("deploy = %q, want %q", got, c.want)
				}
			})
		}
	}
}

// TestModernDeployByHand checks the round itself: one question under the key
// "deploy", and an answer that is not the form's refused by the server (the
// client's own check is bypassed by answering by hand).
func TestModernDeployByHand(t *testing.T) {
	t.Parallel()
	cs := connectModern(t, "stateless", nil, byHand())
	r1 := retry(t, cs, "deploy", map[string]any{"service": "api"}, nil, "")
	q := asked(t, r1, "deploy")["deploy"]
	if q.Message != "Which branch should be deployed to production?" {
		t.Errorf("question = %q", q.Message)
	}
	if diff := cmp.Diff([]any{"main", "release", "hotfix"}, enumOf(t, q, "branch")); diff != "" {
		t.Errorf("branch enum (-want +got):\n%s", diff)
	}
	// Defaults are filled in on the server, as Session.Elicit does: confirm
	// is absent and defaults to false.
	got := done(t, retry(t, cs, "deploy", map[string]any{"service": "api"},
		mcp.InputResponseMap{"deploy": accept(map[string]any{"branch": "hotfix"})}, r1.RequestState))
	if got != "Deployment of api from hotfix not confirmed: nothing was deployed." {
		t.Errorf("deploy = %q", got)
	}
	bad := retry(t, cs, "deploy", map[string]any{"service": "api"},
		mcp.InputResponseMap{"deploy": accept(map[string]any{"branch": "friday-evening", "confirm": true})}, r1.RequestState)
	if !bad.IsError || !strings.Contains(textOf(t, bad), "branch") {
		t.Errorf("a branch outside the enum was not refused: %+v", bad)
	}
}

// TestModernTicketsInParallel: two create_ticket calls at once, each with its
// question open at the same time, answered in reverse order; each call gets
// its own priority.
func TestModernTicketsInParallel(t *testing.T) {
	t.Parallel()
	priorityFor := map[string]string{"alpha": "P1", "beta": "P4"}
	for _, kind := range modernTransports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			copts, arrived := holdQuestions()
			cs := connectModern(t, kind, nil, copts)
			results := map[string]chan string{}
			for title := range priorityFor {
				ch := make(chan string, 1)
				results[title] = ch
				go func() {
					res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{
						Name: "create_ticket", Arguments: map[string]any{"title": title},
					})
					switch {
					case err != nil:
						ch <- "error: " + err.Error()
					case len(res.Content) == 0:
						ch <- "no content"
					default:
						ch <- res.Content[0].(*mcp.TextContent).Text
					}
				}()
			}
			first := within(t, 5*time.Second, arrived, "the first question")
			second := within(t, 5*time.Second, arrived, "the second question")
			for _, q := range []pendingQuestion{second, first} {
				title := strings.TrimSuffix(strings.TrimPrefix(q.params.Message, "Priority for ticket '"), "'?")
				want, ok := priorityFor[title]
				if !ok {
					t.Fatalf("unexpected question %q", q.params.Message)
				}
				q.reply <- accept(map[string]any{"priority": want})
				got := within(t, 5*time.Second, results[title], "the result for "+title)
				if wantText := "Created ticket '" + title + "' with priority " + want + "."; got != wantText {
					t.Errorf("%s: got %q, want %q", title, got, wantText)
				}
			}
		})
	}
}

// TestRequestStateRefused: a requestState the client changed, or one taken
// from another call, ends the call with a clear tool error.
func TestRequestStateRefused(t *testing.T) {
	t.Parallel()
	cs := connectModern(t, "stateless", nil, byHand())
	alpha := map[string]any{"title": "alpha"}
	beta := map[string]any{"title": "beta"}
	stateA := retry(t, cs, "create_ticket", alpha, nil, "").RequestState
	stateB := retry(t, cs, "create_ticket", beta, nil, "").RequestState
	wizard := retry(t, cs, "wizard", nil, nil, "").RequestState
	p1 := mcp.InputResponseMap{"priority": accept(map[string]any{"priority": "P1"})}

	// Flip one character of the signed payload.
	body, sig, _ := strings.Cut(stateA, ".")
	flipped := []byte(body)
	flipped[len(flipped)/2] ^= 'a' ^ 'b'
	if flipped[len(flipped)/2] == body[len(body)/2] {
		t.Fatal("the edit did not change the state")
	}

	cases := []struct {
		name, tool string
		args       any
		state      string
		want       string
	}{
		{"edited", "create_ticket", alpha, string(flipped) + "." + sig, "not issued by this server, or it was changed"},
		{"garbage", "create_ticket", alpha, "not-a-state", "not issued by this server, or it was changed"},
		{"another call's", "create_ticket", alpha, stateB, "other arguments"},
		{"another tool's", "create_ticket", alpha, wizard, `issued for the tool "wizard"`},
	}
	for _, c := range cases {
		res := retry(t, cs, c.tool, c.args, p1, c.state)
		if !res.IsError || !strings.Contains(textOf(t, res), "requestState refused") || !strings.Contains(textOf(t, res), c.want) {
			t.Errorf("%s requestState: got %s, want a tool error saying %q", c.name, asJSON(res), c.want)
		}
	}
	// The genuine state still works.
	if got := done(t, retry(t, cs, "create_ticket", alpha, p1, stateA)); got != "Created ticket 'alpha' with priority P1." {
		t.Errorf("genuine state: %q", got)
	}
}

// TestModernShowcase: the showcase form arrives whole in 2026-07-28, its
// defaults come back as structured content, and out-of-bounds answers sent
// by hand are refused by the server.
func TestModernShowcase(t *testing.T) {
	t.Parallel()
	cs := connectModern(t, "memory", nil, answer(nil))
	res := call(t, cs, "showcase", nil)
	if diff := cmp.Diff(demo.ShowcaseDefaults(), res.StructuredContent); diff != "" {
		t.Errorf("structured content (-want +got):\n%s", diff)
	}

	hand := connectModern(t, "pipes", nil, byHand())
	r1 := retry(t, hand, "showcase", nil, nil, "")
	if diff := cmp.Diff(demo.ShowcaseSchema(), asked(t, r1, "showcase")["showcase"].RequestedSchema); diff != "" {
		t.Errorf("requested schema (-want +got):\n%s", diff)
	}
	for name, bad := range map[string]map[string]any{
		"age above maximum":   {"age": float64(151)},
		"name too short":      {"name": "A"},
		"too many languages":  {"languages": []any{"go", "rust", "python", "zig"}},
		"unknown oneOf value": {"size": "xl"},
		"bad email":           {"email": "not an address"},
		"missing required":    {"email": nil},
	} {
		content := demo.ShowcaseDefaults()
		for k, v := range bad {
			if v == nil {
				delete(content, k)
			} else {
				content[k] = v
			}
		}
		res := retry(t, hand, "showcase", nil, mcp.InputResponseMap{"showcase": accept(content)}, r1.RequestState)
		if !res.IsError {
			t.Errorf("%s: accepted: %+v", name, res.StructuredContent)
		}
	}
}

// TestNeedsStateOnly: the first attempt is input_required with no question
// and only requestState; the retry that echoes it completes. go-sdk's client
// retries by itself, and in 2025-11-25 the server retries in-process.
func TestNeedsStateOnly(t *testing.T) {
	t.Parallel()
	const want = "Done on round 2: the server was busy on the first attempt and finished when the client retried."
	for _, kind := range modernTransports {
		t.Run("by hand/"+kind, func(t *testing.T) {
			t.Parallel()
			cs := connectModern(t, kind, nil, byHand())
			r1 := retry(t, cs, "needs_state_only", nil, nil, "")
			asked(t, r1) // no keys
			if got := done(t, retry(t, cs, "needs_state_only", nil, nil, r1.RequestState)); got != want {
				t.Errorf("retry = %q, want %q", got, want)
			}
			// Without the state it is a first attempt again.
			asked(t, retry(t, cs, "needs_state_only", nil, nil, ""))
		})
		t.Run("go-sdk client/"+kind, func(t *testing.T) {
			t.Parallel()
			if got := okText(t, connectModern(t, kind, nil, nil), "needs_state_only", nil); got != want {
				t.Errorf("needs_state_only = %q", got)
			}
		})
	}
	for _, kind := range transports {
		t.Run("2025-11-25/"+kind, func(t *testing.T) {
			t.Parallel()
			if got := okText(t, connect(t, kind, nil, nil, pinned), "needs_state_only", nil); got != want {
				t.Errorf("needs_state_only = %q", got)
			}
		})
	}
}

// TestModernNoElicitationCapability: a 2026-07-28 client that declares no
// elicitation gets -32021 with the capability it lacks, not a question it
// cannot answer.
func TestModernNoElicitationCapability(t *testing.T) {
	t.Parallel()
	for _, kind := range modernTransports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			cs := connectModern(t, kind, nil, nil)
			_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "deploy"})
			var werr *jsonrpc.Error
			if !errors.As(err, &werr) || werr.Code != mcp.CodeMissingRequiredClientCapabilities {
				t.Fatalf("err = %v, want code -32021", err)
			}
			if !strings.Contains(string(werr.Data), `"requiredCapabilities":{"elicitation":{"form":{}}}`) {
				t.Errorf("error data = %s", werr.Data)
			}
			// Tools that ask nothing still work for it.
			if got := okText(t, cs, "echo", map[string]any{"text": "hi"}); got != "hi" {
				t.Errorf("echo = %q", got)
			}
		})
	}
}

// TestModernStorm: in 2026-07-28 the storm's questions arrive together in one
// input_required result, keyed q1..qn, and every answer finds its question.
func TestModernStorm(t *testing.T) {
	t.Parallel()
	const n = 50
	for _, kind := range modernTransports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			s := stormSummary(t, call(t, connectModern(t, kind, nil, answer(nil)), "storm", map[string]any{"n": n}))
			if s.N != n || s.Accepted != n || s.Declined+s.Cancelled+s.Errors != 0 || len(s.Mismatched) != 0 {
				t.Fatalf("summary = %+v", s)
			}
			for i, v := range s.Values {
				if v == nil || *v != i+1 {
					t.Errorf("question %d got value %v", i+1, v)
				}
			}
		})
	}
	t.Run("by hand", func(t *testing.T) {
		t.Parallel()
		cs := connectModern(t, "stateless", nil, byHand())
		r1 := retry(t, cs, "storm", map[string]any{"n": 3}, nil, "")
		q := asked(t, r1, "q1", "q2", "q3")
		if q["q2"].Message != "Storm question 2 of 3" {
			t.Errorf("q2 = %q", q["q2"].Message)
		}
		// q1 wrong, q2 declined, q3 unanswered.
		s := stormSummary(t, retry(t, cs, "storm", map[string]any{"n": 3}, mcp.InputResponseMap{
			"q1": accept(map[string]any{"value": float64(7)}),
			"q2": &mcp.ElicitResult{Action: "decline"},
		}, r1.RequestState))
		if s.Accepted != 1 || s.Declined != 1 || s.Errors != 1 || !cmp.Equal(s.Mismatched, []int{1}) {
			t.Errorf("summary = %+v", s)
		}
	})
}

// TestModernWithdrawnSaysItsEra: on a server of both eras, withdrawn in a
// 2026-07-28 session explains that it needs the old era instead of failing
// obscurely (a 2026-07-28-only server does not list it: TestModernOnlyServer).
func TestModernWithdrawnSaysItsEra(t *testing.T) {
	t.Parallel()
	cs := connectModern(t, "memory", nil, answer(nil))
	res := call(t, cs, "withdrawn", nil)
	if !res.IsError || !strings.Contains(textOf(t, res), "needs a 2025-11-25 session") {
		t.Errorf("withdrawn in 2026-07-28 = %s", asJSON(res))
	}
}
