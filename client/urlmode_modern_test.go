package client_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

// TestModernURLQuestionAnsweredInRetry: in 2026-07-28 what was a -32042
// (a URL the person must open) comes as a URL-mode question inside an
// input_required result, here the embedded demo's consent tool over both
// its transports: the person's accept goes back in the retry's
// inputResponses (no content, no elicitationId, which that version does
// not have) with the server's requestState byte for byte, and the server
// takes it as consent.
func TestModernURLQuestionAnsweredInRetry(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"pipe", "http"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			var asked []*question.Question
			p := question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
				asked = append(asked, q)
				return question.Outcome{Kind: question.Accept}
			})
			s := connectDemo(t, kind, p, rec)
			res, err := s.CallTool(t.Context(), "consent", map[string]any{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if txt := res.Text(); !strings.Contains(txt, "The user consented to open https://example.com/consent?session=") {
				t.Errorf("result %q", txt)
			}
			if len(asked) != 1 {
				t.Fatalf("%d questions", len(asked))
			}
			q := asked[0]
			if q.Mode != question.ModeURL || !strings.HasPrefix(q.URL, "https://example.com/consent?session=") ||
				q.Key.Delivery != question.InputRequest || q.Key.Input != "consent" || q.ElicitationID != "" {
				t.Errorf("question %+v", q)
			}
			if n := echoedStates(t, rec); n != 1 {
				t.Errorf("%d rounds with requestState", n)
			}
			calls := rec.toolCalls()
			var retry struct {
				InputResponses map[string]json.RawMessage `json:"inputResponses"`
			}
			if err := json.Unmarshal(calls[len(calls)-1].Params, &retry); err != nil {
				t.Fatal(err)
			}
			if got := string(retry.InputResponses["consent"]); got != `{"action":"accept"}` {
				t.Errorf("inputResponses.consent = %s", got)
			}
			if e := waitJournal(t, s, 1); e[0].Kind != question.Accept || e[0].Sent != "accept" {
				t.Errorf("journal %+v", e)
			}
			for _, e := range rec.Events() {
				if _, ok := e.(client.URLRetry); ok {
					t.Errorf("a -32042 retry in 2026-07-28: %+v", e)
				}
			}
		})
	}
}
