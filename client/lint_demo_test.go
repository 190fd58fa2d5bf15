package client_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/transport"
)

// TestLintDemoClean: the demo, a go-sdk server, yields no finding in
// either era over stdio and over HTTP while a session lists everything,
// reads the resources, gets a prompt and calls the tools that ask
// questions, answered by their defaults.
func TestLintDemoClean(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, protocol string
		http           bool
	}{
		{"2026-07-28 stdio", "", false},
		{"2025-11-25 stdio", "2025-11-25", false},
		{"2026-07-28 http", "", true},
		{"2025-11-25 http", "2025-11-25", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := findings.NewRecorder(nil)
			frames := transport.ObserverFuncs{OnFrame: func(f transport.Frame) { rec.Frame("demo", "", f.Dir == transport.In, f.Err, f.Time) }}
			opts := &client.Options{Name: "demo", Protocol: c.protocol, Prompter: question.AcceptDefaults, Findings: rec,
				Observer: client.ObserverFunc(func(client.Event) {})}
			var s *client.Session
			if c.http {
				h := demo.HTTPHandlerStateless(nil)
				if c.protocol != "" {
					h = demo.HTTPHandler(nil) // sessions, as 2025-11-25 has them
				}
				ts := httptest.NewServer(h)
				t.Cleanup(ts.Close)
				var err error
				s, err = client.Connect(t.Context(), &transport.HTTP{URL: ts.URL, Observer: frames}, opts)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = s.Close() })
			} else {
				s = demoOverPipeObserved(t, opts, frames)
			}
			exercise(t, s)
			if n := len(s.Journal().Entries()); n < 3 {
				t.Fatalf("only %d questions were asked: the tools did not run", n)
			}
			if all := rec.All(); len(all) != 0 {
				t.Fatalf("the demo yielded %d findings:\n%s", len(all), dump(rec))
			}
		})
	}
}

// demoOverPipeObserved is demoOverPipe with a frame observer of its own.
func demoOverPipeObserved(t *testing.T, opts *client.Options, obs transport.Observer) *client.Session {
	t.Helper()
	conn, sr, sw := transport.PipeIO(obs)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- demo.ServeIO(ctx, sr, sw, nil) }()
	s, err := client.Connect(t.Context(), connTransport{conn}, opts)
	if err != nil {
		cancel()
		<-served
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Close()
		cancel()
		<-served
	})
	return s
}

// exercise does what elicit check does with a server, and more calls.
func exercise(t *testing.T, s *client.Session) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 4*liveness)
	defer cancel()
	if _, err := s.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := s.ListResources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if _, err := s.ReadResource(ctx, r.URI); err != nil {
			t.Errorf("read %s: %v", r.URI, err)
		}
	}
	if _, err := s.ListResourceTemplates(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListPrompts(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetPrompt(ctx, "greet", map[string]string{"name": "Ada"}); err != nil {
		t.Errorf("greet: %v", err)
	}
	for _, tool := range []struct {
		name string
		args map[string]any
	}{
		{"echo", map[string]any{"text": "hi"}},
		{"add", map[string]any{"a": 1, "b": 2}},
		{"deploy", nil},
		{"wizard", nil},
		{"create_ticket", nil},
		{"showcase", nil},
		{"needs_state_only", nil},
		{"reflow_iserror", nil},
		{"slow", map[string]any{"seconds": 1}},     // progress for our token
		{"summarize", map[string]any{"text": "x"}}, // sampling not declared: the demo must not ask
	} {
		// Errors (a default the tool refuses) are the tool's business;
		// only findings count here.
		_, _ = s.CallTool(ctx, tool.name, tool.args, nil)
	}
}
