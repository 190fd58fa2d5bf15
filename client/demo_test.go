package client_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/transport"
)

// connectDemo connects a session to the demo server in the 2026-07-28 era:
// over its stateless HTTP handler, or over in-memory stdio (demo.ServeIO,
// which speaks both eras; the probe picks 2026-07-28).
func connectDemo(t *testing.T, kind string, p question.Prompter, rec *recorder) *client.Session {
	t.Helper()
	opts := &client.Options{Prompter: p, Observer: rec}
	if kind == "http" {
		return connectHTTP(t, demo.HTTPHandlerStateless(nil), opts, rec)
	}
	return demoOverPipe(t, nil, opts, rec)
}

// demoOverPipe runs the demo (demo.ServeIO, both eras) at the far end of
// in-memory stdio pipes and connects a session to it with opts.
func demoOverPipe(t *testing.T, dopts *demo.Options, opts *client.Options, rec *recorder) *client.Session {
	t.Helper()
	conn, sr, sw := transport.PipeIO(rec)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- demo.ServeIO(ctx, sr, sw, dopts) }()
	s, err := client.Connect(t.Context(), connTransport{conn}, opts)
	if err != nil {
		cancel()
		<-served
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Close()
		cancel()
		if err := <-served; err != nil {
			t.Errorf("demo.ServeIO: %v", err)
		}
	})
	return s
}

// script is a Prompter that answers each question by its message and
// records what it was asked, in order.
type script struct {
	mu      sync.Mutex
	answers map[string]map[string]any // message -> accepted content
	asked   []*question.Question
}

func (sc *script) Prompt(_ context.Context, p *question.Question) question.Outcome {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.asked = append(sc.asked, p)
	content, ok := sc.answers[p.Message]
	if !ok {
		return question.Outcome{Kind: question.Decline}
	}
	return question.Outcome{Kind: question.Accept, Content: content}
}

func (sc *script) prompts() []*question.Question {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return append([]*question.Question(nil), sc.asked...)
}

// echoedStates checks that every input_required result's requestState went
// back in the next tools/call byte for byte, in the frames as they crossed
// the wire, and returns how many rounds carried one.
func echoedStates(t *testing.T, rec *recorder) int {
	t.Helper()
	var states [][]byte
	for _, m := range rec.in() {
		if m.Result != nil && bytes.Contains(m.Result, []byte(`"input_required"`)) {
			states = append(states, member(t, m.Result, "requestState"))
		}
	}
	calls := rec.toolCalls()
	if len(calls) != len(states)+1 {
		t.Fatalf("%d input_required results but %d tools/call", len(states), len(calls))
	}
	if member(t, calls[0].Params, "requestState") != nil {
		t.Errorf("the first attempt carried requestState: %s", calls[0].Params)
	}
	for i, st := range states {
		if len(st) == 0 {
			t.Fatalf("round %d: input_required without requestState", i+1)
		}
		if got := member(t, calls[i+1].Params, "requestState"); !bytes.Equal(got, st) {
			t.Errorf("round %d: requestState %s went back as %s", i+1, st, got)
		}
	}
	return len(states)
}

// TestDemoWizard plays the demo's two-round wizard through a Session: round
// 1 asks the environment, and the answer "staging" decides round 2's
// question (the slot), which the server can only know from requestState.
func TestDemoWizard(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"http", "stdio"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			sc := &script{answers: map[string]map[string]any{
				"What kind of environment?": {"environment": "staging"},
				"Which staging slot?":       {"slot": "slot-b"},
			}}
			s := connectDemo(t, kind, sc, rec)
			if s.Era() != "2026-07-28 stateless" {
				t.Fatalf("Era %q", s.Era())
			}
			res, err := s.CallTool(t.Context(), "wizard", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := res.Text(), "Wizard done: environment staging, slot slot-b."; got != want || res.IsError {
				t.Errorf("result %q (isError %v), want %q", got, res.IsError, want)
			}
			asked := sc.prompts()
			if len(asked) != 2 {
				t.Fatalf("%d prompts, want 2", len(asked))
			}
			for i, want := range []string{"environment", "slot"} {
				p := asked[i]
				if p.Key.Delivery != question.InputRequest || p.Key.Input != want || p.Origin.Name != "wizard" {
					t.Errorf("prompt %d: key %v, origin %+v; want input %q of wizard", i+1, p.Key, p.Origin, want)
				}
			}
			// Both prompts belong to the one call, across its rounds.
			if asked[0].Key.CallID != asked[1].Key.CallID {
				t.Errorf("call ids %v and %v differ", asked[0].Key.CallID, asked[1].Key.CallID)
			}
			if n := echoedStates(t, rec); n != 2 {
				t.Errorf("%d rounds with requestState, want 2", n)
			}
			calls := rec.toolCalls()
			if !strings.Contains(string(calls[1].Params), `"environment":"staging"`) ||
				!strings.Contains(string(calls[2].Params), `"slot":"slot-b"`) {
				t.Errorf("answers not sent: %s / %s", calls[1].Params, calls[2].Params)
			}
		})
	}
}

// TestDemoNeedsStateOnly: the first attempt gets input_required asking
// nothing; the session retries at once with requestState alone, asking no
// one, and the retry completes.
func TestDemoNeedsStateOnly(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"http", "stdio"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			sc := &script{}
			s := connectDemo(t, kind, sc, rec)
			res, err := s.CallTool(t.Context(), "needs_state_only", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			const want = "Done on round 2: the server was busy on the first attempt and finished when the client retried."
			if got := res.Text(); got != want {
				t.Errorf("result %q, want %q", got, want)
			}
			if n := len(sc.prompts()); n != 0 {
				t.Errorf("%d prompts, want none", n)
			}
			if n := echoedStates(t, rec); n != 1 {
				t.Errorf("%d rounds with requestState, want 1", n)
			}
			if retry := rec.toolCalls()[1]; member(t, retry.Params, "inputResponses") != nil {
				t.Errorf("the retry carried inputResponses: %s", retry.Params)
			}
		})
	}
}
