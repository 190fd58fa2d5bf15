package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestLintProgressCallerToken: a caller of Session.Request that puts its
// own progressToken in _meta (as the spec lets any request do) gets the
// server's progress for it, and progress that races the response is as
// harmless as for CallTool's tokens: none of it is a finding. It was
// reported as progress-unknown-token, the token being the client's own.
func TestLintProgressCallerToken(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		tok    string
		modern bool
	}{{`"mine-1"`, false}, {`9000`, false}, {`"mine-2"`, true}} {
		tok := c.tok
		t.Run(fmt.Sprintf("%s modern=%v", tok, c.modern), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var got []client.CallProgress
			obs := client.ObserverFunc(func(e client.Event) {
				if p, ok := e.(client.CallProgress); ok {
					mu.Lock()
					got = append(got, p)
					mu.Unlock()
				}
			})
			done := `{}`
			if c.modern {
				done = `{"resultType":"complete"}`
			}
			s, rec := linted(t, &lintPeer{modern: c.modern, caps: `{"tools":{}}`, serve: func(p *lintPeer, m *jsonrpc.Message) {
				if m.Method != "x/work" {
					if m.ID.IsValid() && m.Method != "" {
						p.result(m.ID, done)
					}
					return
				}
				var params struct {
					Meta struct {
						Token json.RawMessage `json:"progressToken"`
					} `json:"_meta"`
				}
				if err := json.Unmarshal(m.Params, &params); err != nil || string(params.Meta.Token) != tok {
					t.Errorf("params %s: want the caller's progressToken %s", m.Params, tok)
				}
				progress := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":%%d}}`, tok)
				p.line(fmt.Sprintf(progress, 1))
				p.result(m.ID, done)
				p.line(fmt.Sprintf(progress, 2)) // racing the response, as CallTool's may
			}}, &client.Options{Observer: obs})
			ctx, cancel := context.WithTimeout(t.Context(), liveness)
			defer cancel()
			params := map[string]any{"_meta": map[string]any{"progressToken": json.RawMessage(tok)}}
			if err := s.Request(ctx, "x/work", params, nil); err != nil {
				t.Fatal(err)
			}
			expectFindings(t, s, rec)
			waitFor(t, "the progress before the response reached the Observer", func() bool {
				mu.Lock()
				defer mu.Unlock()
				return len(got) > 0 && got[0].Progress == 1
			})
		})
	}
}

// TestLintProgressForeignToken: progress for a token no request carried
// is still a finding, after the caller's tokens are known.
func TestLintProgressForeignToken(t *testing.T) {
	t.Parallel()
	s, rec := linted(t, &lintPeer{serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "x/work" {
			p.line(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"theirs","progress":1}}`)
			p.result(m.ID, `{}`)
			return
		}
		if m.ID.IsValid() && m.Method != "" {
			p.result(m.ID, `{}`)
		}
	}}, &client.Options{Observer: client.ObserverFunc(func(client.Event) {})})
	ctx, cancel := context.WithTimeout(t.Context(), liveness)
	defer cancel()
	if err := s.Request(ctx, "x/work", map[string]any{"_meta": map[string]any{"progressToken": "mine"}}, nil); err != nil {
		t.Fatal(err)
	}
	expectFindings(t, s, rec, findings.ProgressUnknownToken)
}
