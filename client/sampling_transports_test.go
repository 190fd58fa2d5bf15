package client_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSamplingGoSDKTransportsAndEras: a go-sdk server's sampling reaches
// the person and their reply reaches the server over a real stdio
// subprocess and over HTTP, in 2025-11-25 (a sampling/createMessage
// request: go-sdk's stateful server, the "sample" tool) and in 2026-07-28
// (an input_required result answered in the retry: the stateless HTTP
// handler, the "summarize" tool). The journal keeps each in the sampling
// buckets, keyed as its era delivers it.
func TestSamplingGoSDKTransportsAndEras(t *testing.T) {
	t.Parallel()
	httpServer := func(t *testing.T, stateless bool) string {
		opts := legacyOpts(nil)
		if stateless {
			opts = nil
		}
		srv := newSampleServer(opts)
		ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
			&mcp.StreamableHTTPOptions{Stateless: stateless}))
		t.Cleanup(ts.Close)
		t.Cleanup(func() {
			for ss := range srv.Sessions() {
				_ = ss.Close()
			}
		})
		return ts.URL
	}
	for _, tc := range []struct {
		name, protocol, tool, want string
		delivery                   question.Delivery
		connect                    func(t *testing.T, opts *client.Options, rec *recorder) *client.Session
	}{
		{"stdio/2025-11-25", wire.Protocol2025_11_25, "sample", "model=person-1 role=assistant stop=endTurn text=typed reply", question.ServerRequest,
			func(t *testing.T, opts *client.Options, rec *recorder) *client.Session {
				s, _ := startServer(t, "sample-legacy", opts, rec)
				return s
			}},
		{"stdio/2026-07-28", wire.Protocol2026_07_28, "summarize", "summary model=person-1 role=assistant stop=endTurn text=typed reply", question.InputRequest,
			func(t *testing.T, opts *client.Options, rec *recorder) *client.Session {
				s, _ := startServer(t, "sample", opts, rec)
				return s
			}},
		{"http/2025-11-25", wire.Protocol2025_11_25, "sample", "model=person-1 role=assistant stop=endTurn text=typed reply", question.ServerRequest,
			func(t *testing.T, opts *client.Options, rec *recorder) *client.Session {
				return connectFixture(t, &transport.HTTP{URL: httpServer(t, false), Observer: rec}, opts, rec)
			}},
		{"http/2026-07-28", wire.Protocol2026_07_28, "summarize", "summary model=person-1 role=assistant stop=endTurn text=typed reply", question.InputRequest,
			func(t *testing.T, opts *client.Options, rec *recorder) *client.Session {
				return connectFixture(t, &transport.HTTP{URL: httpServer(t, true), Observer: rec}, opts, rec)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			p := &sampler{reply: replyText("typed reply")}
			s := tc.connect(t, &client.Options{Name: "sampler", Sampling: client.SamplingOn, Prompter: p}, rec)
			if s.Protocol() != tc.protocol {
				t.Fatalf("protocol %s, want %s", s.Protocol(), tc.protocol)
			}
			var args any = map[string]any{}
			if tc.tool == "sample" {
				args = map[string]any{"tools": false}
			}
			got, err := callText(t, s, tc.tool, args)
			if err != nil || got != tc.want {
				t.Fatalf("tool said %q (%v), want %q", got, err, tc.want)
			}
			qs := p.questions()
			if len(qs) != 1 || qs[0].Kind != question.KindSampling || qs[0].Sampling == nil ||
				qs[0].Sampling.Params.SystemPrompt != "You are terse." || qs[0].Origin.Name != tc.tool {
				t.Fatalf("questions %+v", qs)
			}
			e := waitSampling(t, s, 1)[0]
			if e.Key.Delivery != tc.delivery || e.Kind != question.Accept || e.Sent != "result" {
				t.Errorf("journal %+v", e)
			}
			if c := s.Journal().SamplingCounts(); c.Total() != 1 || s.Journal().Counts().Total() != 0 {
				t.Errorf("sampling counts %+v, elicitation counts %+v", c, s.Journal().Counts())
			}
		})
	}
}
