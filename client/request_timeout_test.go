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
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Timeouts of the engine's own requests (the package doc, Timeouts),
// against hand-driven peers over transport.Pipe inside synctest bubbles:
// the clocks are fake, so a minute passes at once and the bounds can be
// checked exactly.

// awaitMethod reads sc until a message of method comes, with no deadline
// of its own (peer.read has one, of real-time length, which fake time
// would reach before the timeouts under test).
func awaitMethod(t *testing.T, sc transport.Conn, method string) *jsonrpc.Message {
	t.Helper()
	for {
		m, err := msgOf(sc.Read(context.Background()))
		if err != nil {
			t.Fatalf("waiting for %s: %v", method, err)
		}
		if m.Method == method {
			return m
		}
	}
}

// errAsync runs f in the background and hands back its error.
func errAsync(f func() error) chan error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	return done
}

// checkTimedOut fails unless err says it timed out, wrapping ErrTimeout
// and naming each of words.
func checkTimedOut(t *testing.T, err error, words ...string) {
	t.Helper()
	if !errors.Is(err, client.ErrTimeout) {
		t.Fatalf("error %v does not wrap ErrTimeout", err)
	}
	for _, w := range append(words, "timed out") {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}

// TestConnectTimeoutInitializeNeverAnswered: a server that refuses the
// probe and never answers initialize fails Connect at the default connect
// timeout, naming initialize.
func TestConnectTimeoutInitializeNeverAnswered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cc, sc := transport.Pipe(nil)
		go func() {
			for { // refuse server/discover, read initialize, answer nothing
				if _, err := readSkippingProbe(sc); err != nil {
					return
				}
			}
		}()
		start := time.Now()
		s, err := client.Connect(context.Background(), connTransport{cc}, &client.Options{Name: "mute"})
		if s != nil {
			t.Fatal("Connect to a server that never answers initialize succeeded")
		}
		if d := time.Since(start); d != client.DefaultConnectTimeout {
			t.Errorf("Connect failed after %v, want the connect timeout %v", d, client.DefaultConnectTimeout)
		}
		checkTimedOut(t, err, "connect to mute", "initialize", "30s")
		_ = sc.Close()
	})
}

// TestRequestTimeoutListNeverAnswered: a tools/list the server never
// answers fails at the request timeout (the default when Options leave it
// zero), and the server is told with notifications/cancelled.
func TestRequestTimeoutListNeverAnswered(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		want    time.Duration
	}{
		{"default", 0, client.DefaultRequestTimeout},
		{"set", 2 * time.Second, 2 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s, _, sc := pipePeer(t, "2025-11-25", &client.Options{RequestTimeout: tc.timeout}, nil)
				start := time.Now()
				done := errAsync(func() error { _, err := s.ListTools(context.Background()); return err })
				req := awaitMethod(t, sc, "tools/list")
				n := awaitMethod(t, sc, "notifications/cancelled")
				err := <-done
				if d := time.Since(start); d != tc.want {
					t.Errorf("tools/list failed after %v, want %v", d, tc.want)
				}
				checkTimedOut(t, err, "tools/list on peer", tc.want.String())
				var p struct {
					RequestID jsonrpc.ID `json:"requestId"`
					Reason    string     `json:"reason"`
				}
				if json.Unmarshal(n.Params, &p) != nil || p.RequestID != req.ID || !strings.Contains(p.Reason, "timed out") {
					t.Errorf("cancelled %s, want request %s with a reason that says it timed out", n.Params, req.ID)
				}
				if out, _ := s.Pending(); out != 0 {
					t.Errorf("%d requests still pending", out)
				}
			})
		})
	}
}

// progressToken reads params._meta.progressToken.
func progressToken(t *testing.T, m *jsonrpc.Message) json.RawMessage {
	t.Helper()
	var p struct {
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(m.Params, &p) != nil || p.Meta.Token == nil {
		t.Fatalf("no progress token in %s", m.Params)
	}
	return p.Meta.Token
}

func sendProgress(sc transport.Conn, token json.RawMessage, n int) error {
	msg, err := jsonrpc.NewNotification("notifications/progress", map[string]any{"progressToken": token, "progress": n})
	if err != nil {
		return err
	}
	return sc.Write(context.Background(), msg, nil)
}

// TestRequestTimeoutProgressKeepsAlive: progress resets the clock, so a
// tools/call that reports progress more often than the timeout lives on
// past it; yet only up to the cap, ten times the timeout, after which it
// is cancelled like any other.
func TestRequestTimeoutProgressKeepsAlive(t *testing.T) {
	const timeout = time.Second
	const every = 900 * time.Millisecond
	t.Run("answered", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s, _, sc := pipePeer(t, "2025-11-25", &client.Options{RequestTimeout: timeout}, nil)
			done := callAsync(context.Background(), s, "slow")
			req := awaitMethod(t, sc, "tools/call")
			for i := range 5 { // 4.5 s, four and a half timeouts
				time.Sleep(every) // the bubble's clock: a slow server between progress notes
				if err := sendProgress(sc, progressToken(t, req), i); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(every) // the bubble's clock: a slow server
			answer(t, sc, req.ID, `{"content":[{"type":"text","text":"slow but sure"}]}`)
			if got := <-done; got != "slow but sure" {
				t.Errorf("call %q", got)
			}
		})
	})
	t.Run("capped", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s, _, sc := pipePeer(t, "2025-11-25", &client.Options{RequestTimeout: timeout}, nil)
			start := time.Now()
			done := errAsync(func() error { _, err := s.CallTool(context.Background(), "forever", nil, nil); return err })
			req := awaitMethod(t, sc, "tools/call")
			stop := make(chan struct{})
			ticked := make(chan struct{})
			go func() { // progress until the cancel came (or, as a liveness bound, 1,000 times)
				defer close(ticked)
				for i := range 1000 {
					select {
					case <-stop:
						return
					case <-time.After(every):
					}
					if sendProgress(sc, progressToken(t, req), i) != nil {
						return
					}
				}
			}()
			n := awaitMethod(t, sc, "notifications/cancelled")
			close(stop)
			<-ticked
			err := <-done
			if d := time.Since(start); d != 10*timeout {
				t.Errorf("the call failed after %v, want the cap, %v", d, 10*timeout)
			}
			checkTimedOut(t, err, `tools/call "forever"`, "10s")
			if !strings.Contains(string(n.Params), req.ID.String()) {
				t.Errorf("cancelled %s, want request %s", n.Params, req.ID)
			}
		})
	})
}

// answer writes a response to id.
func answer(t *testing.T, sc transport.Conn, id jsonrpc.ID, result string) {
	t.Helper()
	if err := sc.Write(context.Background(), &jsonrpc.Message{ID: id, Result: json.RawMessage(result)}, nil); err != nil {
		t.Fatal(err)
	}
}

// TestRequestTimeoutNotWhileAsking: a tools/call whose question is open
// is not timed out, however long the person takes (five timeouts here);
// its clock starts again, from zero, once the question is answered.
func TestRequestTimeoutNotWhileAsking(t *testing.T) {
	const timeout = time.Second
	ask := `{"message":"take your time","requestedSchema":{"type":"object","properties":{}}}`
	for _, tc := range []struct {
		name   string
		answer bool // the server answers the call after the person
	}{{"answered", true}, {"clock restarts", false}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				g := newGate(func(*question.Question) question.Outcome { return question.Outcome{Kind: question.Decline} })
				s, _, sc := pipePeer(t, "2025-11-25", &client.Options{RequestTimeout: timeout, Prompter: g}, nil)
				done := callAsync(context.Background(), s, "ask")
				req := awaitMethod(t, sc, "tools/call")
				time.Sleep(timeout / 2) // the bubble's clock: half a timeout passes
				if err := sc.Write(context.Background(), &jsonrpc.Message{ID: jsonrpc.StringID("q1"), Method: "elicitation/create", Params: json.RawMessage(ask)}, nil); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				time.Sleep(5 * timeout) // the bubble's clock: the person thinks
				synctest.Wait()
				if g.cause("take your time") != nil {
					t.Fatalf("the question ended by itself: %v", g.cause("take your time"))
				}
				if out, _ := s.Pending(); out != 1 {
					t.Fatalf("the call is no longer pending (%d) while its question is open", out)
				}
				g.release("take your time")
				reply, err := msgOf(sc.Read(context.Background()))
				if err != nil || string(reply.Result) != `{"action":"decline"}` {
					t.Fatalf("answer %v %v", reply, err)
				}
				answered := time.Now()
				if tc.answer {
					time.Sleep(timeout - time.Millisecond) // the bubble's clock: just within the restarted timeout
					answer(t, sc, req.ID, `{"content":[{"type":"text","text":"thanks"}]}`)
					if got := <-done; got != "thanks" {
						t.Errorf("call %q", got)
					}
					return
				}
				awaitMethod(t, sc, "notifications/cancelled")
				got := <-done
				if d := time.Since(answered); d != timeout {
					t.Errorf("timed out %v after the answer, want %v", d, timeout)
				}
				if !strings.Contains(got, "timed out") {
					t.Errorf("call %q", got)
				}
			})
		})
	}
}

// TestRequestTimeoutNotDuringRound: an MRTR round (2026-07-28) stops the
// call's clock too; the retry is bounded again.
func TestRequestTimeoutNotDuringRound(t *testing.T) {
	const timeout = time.Second
	synctest.Test(t, func(t *testing.T) {
		g := newGate(func(*question.Question) question.Outcome { return question.Outcome{Kind: question.Decline} })
		s, p := modernPeer(t, &client.Options{RequestTimeout: timeout, Prompter: g}, nil)
		done := callAsync(context.Background(), s, "book")
		req := awaitMethod(t, p.conn, "tools/call")
		answer(t, p.conn, req.ID, `{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{"message":"slowly","requestedSchema":{"type":"object","properties":{}}}}}}`)
		synctest.Wait()
		time.Sleep(5 * timeout) // the bubble's clock: the person takes five timeouts
		synctest.Wait()
		if g.cause("slowly") != nil {
			t.Fatalf("the question ended by itself: %v", g.cause("slowly"))
		}
		g.release("slowly")
		retry := awaitMethod(t, p.conn, "tools/call")
		if !strings.Contains(string(retry.Params), `"inputResponses"`) {
			t.Fatalf("retry %s", retry.Params)
		}
		answer(t, p.conn, retry.ID, `{"resultType":"complete","content":[{"type":"text","text":"booked"}]}`)
		if got := <-done; got != "booked" {
			t.Errorf("call %q", got)
		}
	})
}

// TestRequestTimeoutTaskPolls: a task is bounded per poll, never overall:
// tasks/get polls that are never answered each time out, and five in a row
// lose the task; the call says why.
func TestRequestTimeoutTaskPolls(t *testing.T) {
	const timeout = time.Second
	synctest.Test(t, func(t *testing.T) {
		s, p := modernPeer(t, &client.Options{RequestTimeout: timeout}, nil)
		done := errAsync(func() error { _, err := s.CallTool(context.Background(), "job", nil, nil); return err })
		req := awaitMethod(t, p.conn, "tools/call")
		answer(t, p.conn, req.ID, `{"resultType":"task","taskId":"t1","status":"working","pollIntervalMs":10}`)
		for range 5 {
			awaitMethod(t, p.conn, "tasks/get") // and never answered
		}
		err := <-done
		if !errors.Is(err, client.ErrTaskLost) {
			t.Fatalf("call %v, want the task lost", err)
		}
		checkTimedOut(t, err, "tasks/get")
	})
}

// TestListenAckTimeout: a subscriptions/listen the server never
// acknowledges fails Listen at the request timeout, and the stream is
// cancelled; the stream itself, once acknowledged, has no timeout.
func TestListenAckTimeout(t *testing.T) {
	const timeout = time.Second
	synctest.Test(t, func(t *testing.T) {
		s, p := modernPeer(t, &client.Options{RequestTimeout: timeout}, nil)
		start := time.Now()
		done := errAsync(func() error {
			_, err := s.Listen(context.Background(), client.ListenOptions{ToolsListChanged: true})
			return err
		})
		req := awaitMethod(t, p.conn, "subscriptions/listen")
		n := awaitMethod(t, p.conn, "notifications/cancelled")
		err := <-done
		if d := time.Since(start); d != timeout {
			t.Errorf("Listen failed after %v, want %v", d, timeout)
		}
		checkTimedOut(t, err, "subscriptions/listen on modern", "acknowledged", "1s")
		if !strings.Contains(string(n.Params), req.ID.String()) {
			t.Errorf("cancelled %s, want %s", n.Params, req.ID)
		}
	})
}
