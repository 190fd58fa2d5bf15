package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// methods lists the methods of our frames, in order.
func (r *recorder) methods() []string {
	var out []string
	for _, m := range r.out() {
		if m.Method != "" {
			out = append(out, m.Method)
		}
	}
	return out
}

func TestEraDetectionWithGoSDK(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		srv      *mcp.Server
		pin      string
		era      string
		first    []string // our first methods
		delivery question.Delivery
	}{
		{"2026 server", newBookServer(nil), "", "2026-07-28 stateless",
			[]string{"server/discover", "tools/call"}, question.InputRequest},
		{"2025-only server", newBookServer(legacyOpts(nil)), "", "2025-11-25 stateful",
			[]string{"server/discover", "initialize", "notifications/initialized", "tools/call"}, question.ServerRequest},
		{"2026 server, 2025-11-25 pinned", newBookServer(nil), "2025-11-25", "2025-11-25 stateful",
			[]string{"initialize", "notifications/initialized", "tools/call"}, question.ServerRequest},
		{"2026 server, 2026-07-28 pinned", newBookServer(nil), "2026-07-28", "2026-07-28 stateless",
			[]string{"server/discover", "tools/call"}, question.InputRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			s := servePipe(t, tc.srv, &client.Options{Protocol: tc.pin, Prompter: question.PrompterFunc(func(_ context.Context, p *question.Question) question.Outcome {
				return answerField(p)
			})}, rec)
			if s.Era() != tc.era {
				t.Errorf("Era %q, want %q", s.Era(), tc.era)
			}
			// The same tool works in both eras: go-sdk turns inputRequests
			// into elicitation/create requests for a stateful session.
			res, err := s.CallTool(t.Context(), "pair", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Text(); got != "a=accept:answer-a b=accept:answer-b" {
				t.Errorf("result %q", got)
			}
			if got := rec.methods(); len(got) < len(tc.first) || strings.Join(got[:len(tc.first)], " ") != strings.Join(tc.first, " ") {
				t.Errorf("methods %v, want them to start with %v", got, tc.first)
			}
			for _, e := range waitJournal(t, s, 2) {
				if e.Key.Delivery != tc.delivery || e.Kind != question.Accept {
					t.Errorf("entry %+v", e)
				}
			}
			waitEvent(t, rec, func(e client.ServerStateChanged) bool { return e.State == client.StateReady && e.Era == tc.era })
		})
	}
}

func TestPinned2026AgainstA2025Server(t *testing.T) {
	t.Parallel()
	conn, sr, sw := transport.PipeIO(nil)
	srv := newBookServer(legacyOpts(nil))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Run(ctx, &mcp.IOTransport{Reader: sr, Writer: sw})
	}()
	_, err := client.Connect(t.Context(), connTransport{conn}, &client.Options{Protocol: "2026-07-28"})
	if err == nil || !strings.Contains(err.Error(), "2026-07-28 was pinned") || !strings.Contains(err.Error(), "does not speak protocol 2026-07-28") {
		t.Errorf("Connect error %v", err)
	}
	cancel()
	_ = sr.Close()
	<-served
}

func TestEraDetectionWithHandDrivenPeers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		answer  string // to server/discover: a result, or an error object
		era     string
		failure string
	}{
		{"method not found", `{"code":-32601,"message":"method not found"}`, "2025-11-25 stateful", ""},
		{"not initialized", `{"code":-32600,"message":"session not initialized"}`, "2025-11-25 stateful", ""},
		{"unsupported version, stateful listed", `{"code":-32022,"message":"no","data":{"supported":["2025-06-18"],"requested":"2026-07-28"}}`, "2025-11-25 stateful", ""},
		{"result listing stateful versions only", `{"supportedVersions":["2025-11-25"],"capabilities":{}}`, "2025-11-25 stateful", ""},
		{"missing capability", `{"code":-32021,"message":"url needed","data":{"requiredCapabilities":{"elicitation":{"url":{}}}}}`, "", "requires client capability elicitation.url"},
		{"unsupported version, nothing we speak", `{"code":-32022,"message":"no","data":{"supported":["2030-01-01"]}}`, "", "does not speak protocol"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cc, sc := transport.Pipe(nil)
			defer sc.Close()
			go func() {
				m, err := sc.Read(context.Background())
				if err != nil || m.Method != "server/discover" {
					return
				}
				reply := &jsonrpc.Message{ID: m.ID}
				if strings.Contains(tc.answer, `"code"`) {
					reply.Error = &jsonrpc.Error{}
					_ = json.Unmarshal([]byte(tc.answer), reply.Error)
				} else {
					reply.Result = json.RawMessage(tc.answer)
				}
				_ = sc.Write(context.Background(), reply)
				if m, err = sc.Read(context.Background()); err != nil || m.Method != "initialize" {
					return
				}
				_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"old","version":"1"}}`)})
			}()
			s, err := client.Connect(t.Context(), connTransport{cc}, nil)
			if tc.failure != "" {
				if err == nil || !strings.Contains(err.Error(), tc.failure) {
					t.Fatalf("Connect error %v, want %q", err, tc.failure)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Era() != tc.era || s.ServerInfo().Name != "old" {
				t.Errorf("Era %q, server %+v", s.Era(), s.ServerInfo())
			}
		})
	}
}

func TestSilentProbeFallsBackAfterFiveSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cc, sc := transport.Pipe(nil)
		defer sc.Close()
		start := time.Now()
		var fellBack time.Duration
		go func() {
			// A server that ignores what it does not know before
			// initialize, as some stateful servers do.
			for {
				m, err := sc.Read(context.Background())
				if err != nil {
					return
				}
				if m.Method == "initialize" {
					fellBack = time.Since(start)
					_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"quiet","version":"1"}}`)})
				}
			}
		}()
		s, err := client.Connect(t.Context(), connTransport{cc}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if fellBack != 5*time.Second || s.Era() != "2025-06-18 stateful" {
			t.Errorf("fell back after %v to %q; want 5s, 2025-06-18 stateful", fellBack, s.Era())
		}
	})
}

func TestConnectCancelledDuringProbe(t *testing.T) {
	t.Parallel()
	cc, sc := transport.Pipe(nil)
	defer sc.Close()
	ctx, cancel := context.WithCancelCause(t.Context())
	why := errors.New("gave up")
	go func() {
		if m, err := sc.Read(context.Background()); err == nil && m.Method == "server/discover" {
			cancel(why)
		}
	}()
	_, err := client.Connect(ctx, connTransport{cc}, nil)
	if !errors.Is(err, why) {
		t.Errorf("Connect error %v, want the ctx cause", err)
	}
}
