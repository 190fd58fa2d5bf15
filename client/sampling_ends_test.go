package client_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// holdAll is a Prompter that never answers: every prompt ends when its
// ctx does, and the engine decides how.
type holdAll struct{}

func (holdAll) Prompt(ctx context.Context, _ *question.Question) question.Outcome {
	<-ctx.Done()
	return question.Outcome{Kind: question.Accept, Sample: &question.SampleReply{Text: "too late", Model: "m"}}
}

// TestSamplingTerminalPaths: a sampling question the person never
// answers ends as an elicitation would (withdrawn by the server's
// notifications/cancelled, timed out by PromptTimeout, disconnected when
// the server goes, abandoned when we close), journalled in the sampling
// buckets and not in elicitation's, with what went out for each: nothing
// for withdrawn and disconnected, the spec's -1 for a timeout or an
// abandon.
func TestSamplingTerminalPaths(t *testing.T) {
	t.Parallel()
	const req = `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}`
	for _, tc := range []struct {
		name string
		kind question.OutcomeKind
		sent string
		end  func(s *client.Session, p *peer, id jsonrpc.ID)
	}{
		{"withdrawn", question.Withdrawn, "", func(_ *client.Session, p *peer, id jsonrpc.ID) {
			p.sendRaw(jsonrpc.ID{}, "notifications/cancelled", `{"requestId":`+id.String()+`,"reason":"no longer needed"}`)
		}},
		{"timeout", question.Timeout, "error -1", nil},
		{"disconnected", question.Disconnected, "", func(_ *client.Session, p *peer, _ jsonrpc.ID) { _ = p.conn.Close() }},
		{"abandoned", question.Abandoned, "error -1", func(s *client.Session, _ *peer, _ jsonrpc.ID) {
			go func() { _ = s.Close() }()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			opts := &client.Options{Sampling: client.SamplingOn, Prompter: holdAll{}}
			if tc.kind == question.Timeout {
				opts.PromptTimeout = 100 * time.Millisecond
			}
			s, p, _ := pipePeer(t, "2025-11-25", opts, rec)
			id := jsonrpc.IntID(41)
			p.sendRaw(id, "sampling/createMessage", req)
			opened := waitEvent(t, rec, func(e client.PromptOpened) bool { return e.Prompt.Kind == question.KindSampling })
			if opened.Prompt.Key.RequestID != id {
				t.Fatalf("opened %+v", opened.Prompt.Key)
			}
			if tc.end != nil {
				tc.end(s, p, id)
			}
			resolved := waitEvent(t, rec, func(e client.PromptResolved) bool { return e.Key == opened.Prompt.Key })
			if e := resolved.Entry; e.Kind != tc.kind || e.Asked != question.KindSampling || resolved.Sent != tc.sent {
				t.Errorf("resolved %+v, sent %q; want %v, %q", e, resolved.Sent, tc.kind, tc.sent)
			}
			if c := s.Journal().SamplingCounts(); c[tc.kind] != 1 || c.Total() != 1 {
				t.Errorf("sampling counts %v", c)
			}
			if c := s.Journal().Counts(); c.Total() != 0 {
				t.Errorf("counted as elicitation: %v", c)
			}
			if tc.sent == "" {
				if got := rec.responsesTo(id.String()); len(got) != 0 {
					t.Errorf("answered a %s request: %+v", tc.name, got)
				}
				return
			}
			if tc.kind == question.Abandoned {
				return // the answer may or may not make it out before the pipe closes
			}
			waitFor(t, "the -1 answer", func() bool {
				for _, m := range rec.responsesTo(id.String()) {
					if m.Error != nil && m.Error.Code == -1 && strings.Contains(m.Error.Message, "rejected") {
						return true
					}
				}
				return false
			})
		})
	}
}
