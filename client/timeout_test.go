package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// fakeTimePeer runs a session against a hand-driven peer inside a synctest
// bubble, so hours pass instantly; it sends one elicitation and returns the
// peer.
func fakeTimePeer(t *testing.T, opts *client.Options) (*client.Session, *peer) {
	cc, sc := transport.Pipe(nil)
	go func() {
		m, err := readSkippingProbe(sc)
		if err != nil {
			return
		}
		_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"x","version":"1"}}`)}, nil)
	}()
	s, err := client.Connect(t.Context(), connTransport{cc}, opts)
	if err != nil {
		t.Fatal(err)
	}
	p := &peer{t: t, conn: sc}
	p.expect("notifications/initialized")
	p.sendRaw(jsonrpc.IntID(1), "elicitation/create", `{"message":"slow person","requestedSchema":{"type":"object","properties":{}}}`)
	t.Cleanup(func() { _ = s.Close(); _ = sc.Close() })
	return s, p
}

func TestNoHiddenTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(func(*question.Question) question.Outcome { return question.Outcome{Kind: question.Decline} })
		s, p := fakeTimePeer(t, &client.Options{Prompter: g})
		time.Sleep(72 * time.Hour) // the bubble's clock: the person went away for a long weekend
		synctest.Wait()
		if g.count() != 1 || g.cause("slow person") != nil {
			t.Fatalf("prompt ended by itself: count %d cause %v", g.count(), g.cause("slow person"))
		}
		if _, in := s.Pending(); in != 1 {
			t.Errorf("incoming %d", in)
		}
		g.release("slow person")
		if m := p.read(); string(m.Result) != `{"action":"decline"}` {
			t.Errorf("answer %s", m.Result)
		}
	})
}

func TestPromptTimeoutExact(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(func(*question.Question) question.Outcome { return question.Outcome{Kind: question.Decline} })
		start := time.Now()
		_, p := fakeTimePeer(t, &client.Options{Prompter: g, PromptTimeout: time.Hour})
		time.Sleep(time.Hour - time.Nanosecond) // the bubble's clock: a nanosecond short of the timeout
		synctest.Wait()
		if g.cause("slow person") != nil {
			t.Fatalf("ended before the timeout: %v", g.cause("slow person"))
		}
		m := p.read() // blocks until the timeout fires
		synctest.Wait()
		if d := time.Since(start); d != time.Hour {
			t.Errorf("answered after %v, want exactly 1h", d)
		}
		if string(m.Result) != `{"action":"cancel"}` || !errors.Is(g.ended("slow person"), question.ErrTimeout) {
			t.Errorf("answer %s, cause %v", m.Result, g.cause("slow person"))
		}
	})
}
