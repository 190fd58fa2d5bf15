package client_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Each test: a lintPeer that commits one violation, and the one finding
// it must yield (TestLintDemoClean: the demo yields none).

const (
	flatSchema   = `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`
	nestedSchema = `{"type":"object","properties":{"addr":{"type":"object","properties":{"city":{"type":"string"}}}}}`
	secretSchema = `{"type":"object","properties":{"user":{"type":"string"},"apiKey":{"type":"string","title":"API key"}}}`
)

func elicitLine(id, params string) string {
	return `{"jsonrpc":"2.0","id":"` + id + `","method":"elicitation/create","params":` + params + `}`
}

func TestLintElicitation(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, params, rule string
	}{
		{"schema outside the subset", `{"message":"where?","requestedSchema":` + nestedSchema + `}`, findings.ElicitSchemaSubset},
		{"form asks for a secret", `{"mode":"form","message":"log in","requestedSchema":` + secretSchema + `}`, findings.ElicitFormSecret},
		{"url mode without url", `{"mode":"url","message":"open this","elicitationId":"e1"}`, findings.ElicitParams},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, rec := linted(t, &lintPeer{serve: askDuringCall(elicitLine("e1", c.params), true)}, nil)
			done := callTool(t, s, "x")
			got := expectFindings(t, s, rec, c.rule)
			<-done
			if f := got[0]; f.Frame.ID != "e1" || f.Frame.Method != "elicitation/create" || !f.Frame.In || f.Severity != findings.Error {
				t.Errorf("finding %+v: want an error at the request e1", f)
			}
		})
	}
}

// TestLintElicitationUnrelated: an elicitation while no request of ours is
// open (the peer sends it on a ping, which does not count) is tied to
// nothing.
func TestLintElicitationUnrelated(t *testing.T) {
	t.Parallel()
	var once sync.Once // expectFindings pings again: one question only
	s, rec := linted(t, &lintPeer{serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "ping" {
			once.Do(func() { p.line(elicitLine("u1", `{"message":"who?","requestedSchema":`+flatSchema+`}`)) })
			p.result(m.ID, `{}`)
		}
	}}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), liveness)
	defer cancel()
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	got := expectFindings(t, s, rec, findings.ElicitUnrelated)
	if got[0].Severity != findings.Warning {
		t.Errorf("severity %v, want warning (a SHOULD)", got[0].Severity)
	}
}

func TestLintCapabilityUndeclared(t *testing.T) {
	t.Parallel()
	req := `{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}`
	s, rec := linted(t, &lintPeer{serve: askDuringCall(req, true)}, nil) // sampling off
	done := callTool(t, s, "x")
	got := expectFindings(t, s, rec, findings.CapabilityUndeclared)
	<-done
	if got[0].Frame.ID != "s1" {
		t.Errorf("frame %+v, want s1", got[0].Frame)
	}
}

func TestLintServerRequestStateless(t *testing.T) {
	t.Parallel()
	var call jsonrpc.ID
	s, rec := linted(t, &lintPeer{modern: true, caps: `{"tools":{}}`, serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "tools/call" {
			call = m.ID
			p.line(elicitLine("r1", `{"message":"old habits","requestedSchema":`+flatSchema+`}`))
			p.result(call, `{"resultType":"complete","content":[]}`)
		}
	}}, nil)
	if err := <-callTool(t, s, "x"); err != nil {
		t.Fatal(err)
	}
	expectFindings(t, s, rec, findings.ServerRequestStateless)
}

func TestLintBeforeInitialized(t *testing.T) {
	t.Parallel()
	s, rec := linted(t, &lintPeer{preInit: `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`}, nil)
	got := expectFindings(t, s, rec, findings.BeforeInitialized)
	if got[0].Frame.Method != "notifications/tools/list_changed" {
		t.Errorf("frame %+v", got[0].Frame)
	}
}

// toolsPeer answers tools/list with tools and tools/call with result.
func toolsPeer(tools, result string) *lintPeer {
	return &lintPeer{serve: func(p *lintPeer, m *jsonrpc.Message) {
		switch m.Method {
		case "tools/list":
			p.result(m.ID, `{"tools":`+tools+`}`)
		case "tools/call":
			p.result(m.ID, result)
		default:
			if m.ID.IsValid() && m.Method != "" {
				p.result(m.ID, `{}`)
			}
		}
	}}
}

const numberOut = `[{"name":"count","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}}]`

func TestLintTools(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, tools, result, rule string
	}{
		{"output schema mismatch", numberOut, `{"content":[],"structuredContent":{"n":"seven"}}`, findings.OutputSchema},
		{"structured content missing", numberOut, `{"content":[{"type":"text","text":"7"}]}`, findings.OutputMissing},
		{"duplicate name", `[{"name":"a","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]`, `{"content":[]}`, findings.ToolNameDuplicate},
		{"invalid name", `[{"name":"count me in!","inputSchema":{"type":"object"}}]`, `{"content":[]}`, findings.ToolNameInvalid},
		{"tool without inputSchema", `[{"name":"count"}]`, `{"content":[]}`, findings.MembersRequired},
		{"call result without content", `[{"name":"count","inputSchema":{"type":"object"}}]`, `{"isError":false}`, findings.MembersRequired},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, rec := linted(t, toolsPeer(c.tools, c.result), nil)
			ctx, cancel := context.WithTimeout(t.Context(), liveness)
			defer cancel()
			if _, err := s.ListTools(ctx); err != nil {
				t.Fatal(err)
			}
			_, _ = s.CallTool(ctx, "count", nil, nil)
			got := expectFindings(t, s, rec, c.rule)
			if got[0].Frame.ID == "" {
				t.Errorf("finding %+v names no frame", got[0])
			}
		})
	}
}

// TestLintOutputSchemaLate: a result that came before any tools/list is
// judged when the first one brings its outputSchema (headless call).
func TestLintOutputSchemaLate(t *testing.T) {
	t.Parallel()
	s, rec := linted(t, toolsPeer(numberOut, `{"content":[],"structuredContent":{"n":"seven"}}`), nil)
	ctx, cancel := context.WithTimeout(t.Context(), liveness)
	defer cancel()
	if _, err := s.CallTool(ctx, "count", nil, nil); err != nil {
		t.Fatal(err)
	}
	if len(rec.All()) != 0 {
		t.Fatalf("judged without a schema: %v", rec.All())
	}
	if _, err := s.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	got := expectFindings(t, s, rec, findings.OutputSchema)
	if got[0].Frame.ID == "" || !strings.Contains(got[0].Detail, `tool "count"`) {
		t.Errorf("finding %+v", got[0])
	}
}

func TestLintResultMalformed(t *testing.T) {
	t.Parallel()
	s, rec := linted(t, &lintPeer{caps: `{"resources":{}}`, serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "resources/read" {
			p.result(m.ID, `{"contents":"not a list"}`)
		}
	}}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), liveness)
	defer cancel()
	if _, err := s.ReadResource(ctx, "file:///x"); err == nil {
		t.Fatal("a malformed result was taken")
	}
	expectFindings(t, s, rec, findings.ResultMalformed)
}

func TestLintResponses(t *testing.T) {
	t.Parallel()
	t.Run("unknown id", func(t *testing.T) {
		t.Parallel()
		s, rec := linted(t, &lintPeer{serve: func(p *lintPeer, m *jsonrpc.Message) {
			p.line(`{"jsonrpc":"2.0","id":999,"result":{}}`)
			p.result(m.ID, `{}`)
		}}, nil)
		_ = s.Ping(t.Context())
		got := expectFindings(t, s, rec, findings.UnknownResponseID)
		if got[0].Frame.ID != "999" {
			t.Errorf("frame %+v", got[0].Frame)
		}
	})
	t.Run("duplicate response", func(t *testing.T) {
		t.Parallel()
		s, rec := linted(t, &lintPeer{serve: func(p *lintPeer, m *jsonrpc.Message) {
			if m.Method == "tools/list" {
				p.result(m.ID, `{"tools":[]}`)
				p.result(m.ID, `{"tools":[]}`)
				return
			}
			p.result(m.ID, `{}`)
		}}, nil)
		if _, err := s.ListTools(t.Context()); err != nil {
			t.Fatal(err)
		}
		got := expectFindings(t, s, rec, findings.DuplicateResponse)
		if !strings.Contains(got[0].Detail, "tools/list") {
			t.Errorf("detail %q names not the request", got[0].Detail)
		}
	})
	t.Run("json-rpc shape", func(t *testing.T) {
		t.Parallel()
		s, rec := linted(t, &lintPeer{serve: func(p *lintPeer, m *jsonrpc.Message) {
			p.line(`{"jsonrpc":"1.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)
			p.result(m.ID, `{}`)
		}}, nil)
		_ = s.Ping(t.Context())
		expectFindings(t, s, rec, findings.JSONRPCShape)
	})
}

// holdingPrompter keeps every question open until its context ends.
var holdingPrompter = question.PrompterFunc(func(ctx context.Context, _ *question.Question) question.Outcome {
	<-ctx.Done()
	return question.Outcome{Kind: question.Cancel}
})

func TestLintDuplicateRequestID(t *testing.T) {
	t.Parallel()
	req := elicitLine("d1", `{"message":"twice","requestedSchema":`+flatSchema+`}`)
	s, rec := linted(t, &lintPeer{serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "tools/call" {
			p.line(req)
			p.line(req)
			p.result(m.ID, `{"content":[]}`)
		}
	}}, &client.Options{Prompter: holdingPrompter})
	<-callTool(t, s, "x")
	expectFindings(t, s, rec, findings.DuplicateRequestID)
}

func TestLintRepeatedCursor(t *testing.T) {
	t.Parallel()
	s, rec := linted(t, &lintPeer{serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "tools/list" {
			p.result(m.ID, `{"tools":[],"nextCursor":"again"}`)
			return
		}
		p.result(m.ID, `{}`)
	}}, nil)
	if _, err := s.ListTools(t.Context()); err == nil {
		t.Fatal("a looping list ended well")
	}
	expectFindings(t, s, rec, findings.RepeatedCursor)
}

// notifyOnPing sends the raw notification n when pinged.
func notifyOnPing(caps, n string) *lintPeer {
	return &lintPeer{caps: caps, serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "ping" {
			p.line(n)
		}
		if m.ID.IsValid() && m.Method != "" {
			p.result(m.ID, `{}`)
		}
	}}
}

func TestLintNotifications(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, caps, n, rule string
	}{
		{"progress for a token never sent", "", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"zzz","progress":1}}`, findings.ProgressUnknownToken},
		{"progress without a token", "", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`, findings.MembersRequired},
		{"list_changed without listChanged", `{"tools":{}}`, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, findings.ListChangedUndeclared},
		{"logging without logging", `{"tools":{}}`, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`, findings.LoggingUndeclared},
		{"resources/updated without subscribe", `{"resources":{}}`, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///x"}}`, findings.SubscribeUndeclared},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, rec := linted(t, notifyOnPing(c.caps, c.n), &client.Options{Observer: client.ObserverFunc(func(client.Event) {})})
			_ = s.Ping(t.Context())
			got := expectFindings(t, s, rec, c.rule)
			if got[0].Frame.Method == "" {
				t.Errorf("frame %+v names no method", got[0].Frame)
			}
		})
	}
}

// modernTools is a 2026-07-28 peer that answers each method with a raw
// result.
func modernPeerOf(results map[string]string) *lintPeer {
	return &lintPeer{modern: true, caps: `{"tools":{}}`, serve: func(p *lintPeer, m *jsonrpc.Message) {
		if r, ok := results[m.Method]; ok {
			p.result(m.ID, r)
			return
		}
		if m.ID.IsValid() && m.Method != "" {
			p.result(m.ID, `{"resultType":"complete"}`)
		}
	}}
}

func TestLintModern(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		results map[string]string
		call    func(ctx context.Context, s *client.Session) error
		rule    string
	}{
		{"result without resultType", map[string]string{"tools/list": `{"tools":[]}`},
			func(ctx context.Context, s *client.Session) error { _, err := s.ListTools(ctx); return err }, findings.ResultTypeMissing},
		{"unknown resultType", map[string]string{"tools/list": `{"resultType":"partial","tools":[]}`},
			func(ctx context.Context, s *client.Session) error { _, err := s.ListTools(ctx); return err }, findings.ResultTypeInvalid},
		{"input_required on tools/list", map[string]string{"tools/list": `{"resultType":"input_required","inputRequests":{}}`},
			func(ctx context.Context, s *client.Session) error { _, err := s.ListTools(ctx); return err }, findings.InputRequiredMethod},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, rec := linted(t, modernPeerOf(c.results), nil)
			ctx, cancel := context.WithTimeout(t.Context(), liveness)
			defer cancel()
			_ = c.call(ctx, s)
			expectFindings(t, s, rec, c.rule)
		})
	}
}

// TestLintRequestState: requestState that is no string (the client echoes
// it all the same, byte for byte).
func TestLintRequestState(t *testing.T) {
	t.Parallel()
	rounds := 0
	s, rec := linted(t, &lintPeer{modern: true, caps: `{"tools":{}}`, serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "tools/call" {
			if rounds++; rounds == 1 {
				p.result(m.ID, `{"resultType":"input_required","requestState":{"step":1}}`)
				return
			}
			p.result(m.ID, `{"resultType":"complete","content":[]}`)
		}
	}}, nil)
	<-callTool(t, s, "x")
	expectFindings(t, s, rec, findings.RequestStateType)
}

func TestLintCancelledStateless(t *testing.T) {
	t.Parallel()
	s, rec := linted(t, &lintPeer{modern: true, caps: `{"tools":{}}`, serve: func(p *lintPeer, m *jsonrpc.Message) {
		if m.Method == "tools/call" {
			p.line(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + m.ID.String() + `}}`)
			p.result(m.ID, `{"resultType":"complete","content":[]}`)
		}
	}}, nil)
	<-callTool(t, s, "x")
	expectFindings(t, s, rec, findings.CancelledStateless)
}

// TestLintDiscoverResult: a discover answer that lists 2026-07-28 without
// capabilities or resultType; the session still speaks that era.
func TestLintDiscoverResult(t *testing.T) {
	t.Parallel()
	s, rec := linted(t, &lintPeer{modern: true, discover: `{"supportedVersions":["2026-07-28"]}`}, nil)
	if s.Protocol() != "2026-07-28" {
		t.Fatalf("protocol %q", s.Protocol())
	}
	got := expectFindings(t, s, rec, findings.DiscoverResult)
	if len(got) != 2 {
		t.Errorf("findings %v: want capabilities and resultType missing", got)
	}
}
