package hub

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// proxyHub runs a hub and opens a proxied session p1 on it through a
// Link; seen gets each question as it opens in the session (the hub
// hands it to an attached prompter, as to a TUI).
func proxyHub(t *testing.T) (Paths, *Link, <-chan *question.Question) {
	t.Helper()
	p := testPaths(t)
	seen := make(chan *question.Question, 8)
	ready := make(chan struct{})
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		done <- Serve(ctx, Config{Paths: p, Code: func(error) int { return ExitConnect }, Log: io.Discard,
			Ready: func() { close(ready) },
			OpenProxy: func(pp ProxyParams, h Hooks) (*Opened, error) {
				detach := h.Prompter.(*Prompter).Attach(question.PrompterFunc(func(ctx context.Context, q *question.Question) question.Outcome {
					seen <- q
					<-ctx.Done()
					return question.Outcome{Kind: question.Cancel}
				}))
				return &Opened{Close: detach}, nil
			}})
	}()
	select {
	case <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("Serve: %v", err)
	}
	t.Cleanup(func() { cancel(); <-done })
	l, res, err := OpenLink(context.Background(), p, ProxyParams{Session: "p1", Server: "srv", Pid: 42})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	if res.Session != "p1" || res.Protocol != "proxy" {
		t.Fatalf("open: %+v", res)
	}
	return p, l, seen
}

const nameForm = `{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`

// askAsync asks a form question of id on l, as the proxy does, and
// settles it when answered (what went out: the outcome's kind).
func askAsync(ctx context.Context, l *Link, id int64) (*question.Question, <-chan error, <-chan question.Outcome) {
	q := &question.Question{Key: question.Key{Server: "srv", Delivery: question.ServerRequest, RequestID: jsonrpc.IntID(id)}, Arrived: time.Now()}
	errc := make(chan error, 1)
	outc := make(chan question.Outcome, 1)
	go func() {
		out, err := l.Ask(ctx, q, "elicitation/create", json.RawMessage(nameForm), question.Modes{Form: true, URL: true}, false)
		if err == nil {
			l.Settled(q, out, out.Kind.String())
		}
		errc <- err
		outc <- out
	}()
	return q, errc, outc
}

// opened waits until the question asked opened in the session (or its
// ask failed).
func opened(t *testing.T, seen <-chan *question.Question, errc <-chan error) {
	t.Helper()
	select {
	case <-seen:
	case err := <-errc:
		t.Fatalf("ask ended before the question opened: %v", err)
	}
}

func list(t *testing.T, p Paths) []SessionInfo {
	t.Helper()
	var all []SessionInfo
	if err := Request(context.Background(), p, MethodList, nil, &all); err != nil {
		t.Fatal(err)
	}
	return all
}

// TestProxiedAnswered: a proxied session is listed as one, with its
// host; a question the proxy asks is listed by elicit questions, an
// answer failing the schema is refused (exit 2, nothing sent), the first
// valid one goes back to the proxy, and a second is told it was answered
// (exit 5).
func TestProxiedAnswered(t *testing.T) {
	p, l, seen := proxyHub(t)
	l.Host("claude-ai") // told asynchronously: the list is polled (bounded) until it has it
	all := list(t, p)
	for deadline := time.Now().Add(10 * time.Second); len(all) == 1 && all[0].Host == "" && time.Now().Before(deadline); {
		all = list(t, p)
	}
	if len(all) != 1 || !all[0].Proxy || all[0].Host != "claude-ai" || all[0].Server != "srv" || all[0].Pid != 42 {
		t.Fatalf("session list: %+v", all)
	}
	q, errc, outc := askAsync(context.Background(), l, 7)
	opened(t, seen, errc)
	var qs []QuestionInfo
	if err := Request(context.Background(), p, MethodQuestions, NameParams{Session: "p1"}, &qs); err != nil || len(qs) != 1 || qs[0].Key != q.Key.String() || qs[0].Message != "Name?" {
		t.Fatalf("questions: %+v (%v)", qs, err)
	}
	err := Request(context.Background(), p, MethodAnswer, AnswerParams{Session: "p1", Key: q.Key.String(), Action: "accept", Content: map[string]any{"name": 5}}, nil)
	if ExitOf(err) != ExitUsage {
		t.Fatalf("an answer failing the schema: %v (exit %d)", err, ExitOf(err))
	}
	var ar AnswerResult
	if err := Request(context.Background(), p, MethodAnswer, AnswerParams{Session: "p1", Key: q.Key.String(), Action: "accept", Content: map[string]any{"name": "Ada"}}, &ar); err != nil {
		t.Fatal(err)
	}
	if ar.Outcome != "accept" || ar.Sent != "accept" {
		t.Errorf("answer: %+v", ar)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if out := <-outc; out.Kind != question.Accept || out.Content["name"] != "Ada" {
		t.Errorf("the proxy got %+v", out)
	}
	err = Request(context.Background(), p, MethodAnswer, AnswerParams{Session: "p1", Key: q.Key.String(), Action: "decline"}, nil)
	if ExitOf(err) != ExitNotAccepted {
		t.Errorf("a second answer: %v (exit %d)", err, ExitOf(err))
	}
}

// TestProxiedWithdrawn: a question whose request the proxy no longer
// waits for (its context ended withdrawn) leaves elicit questions, and an
// answer to it is told it ended withdrawn.
func TestProxiedWithdrawn(t *testing.T) {
	p, l, seen := proxyHub(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	q, errc, _ := askAsync(ctx, l, 1)
	opened(t, seen, errc)
	cancel(question.ErrWithdrawn)
	if err := <-errc; !errors.Is(err, question.ErrWithdrawn) {
		t.Fatalf("ask: %v", err)
	}
	err := Request(context.Background(), p, MethodAnswer, AnswerParams{Session: "p1", Key: q.Key.String(), Action: "decline"}, nil)
	var e *jsonrpc.Error
	var d ErrorData
	if !errors.As(err, &e) || json.Unmarshal(e.Data, &d) != nil || d.Ended != "withdrawn" || ExitOf(err) != ExitNotAccepted {
		t.Fatalf("an answer to a withdrawn question: %v", err)
	}
	var qs []QuestionInfo
	if err := Request(context.Background(), p, MethodQuestions, NameParams{Session: "p1"}, &qs); err != nil || len(qs) != 0 {
		t.Errorf("questions after the withdrawal: %+v (%v)", qs, err)
	}
}

// TestProxiedGoneAndStopped: the proxy gone (its link closed), its
// session leaves the hub with its questions; a session stopped ends its
// questions abandoned for the proxy, whose link says it stopped.
func TestProxiedGoneAndStopped(t *testing.T) {
	p, l, seen := proxyHub(t)
	_, errc, _ := askAsync(context.Background(), l, 1)
	opened(t, seen, errc)
	var sr StopResult
	if err := Request(context.Background(), p, MethodStop, NameParams{Session: "p1"}, &sr); err != nil || sr.Abandoned != 1 {
		t.Fatalf("stop: %+v (%v)", sr, err)
	}
	err := <-errc
	var e *jsonrpc.Error
	var d ErrorData
	if !errors.As(err, &e) || json.Unmarshal(e.Data, &d) != nil || d.Ended != "abandoned" {
		t.Fatalf("the proxy's question at the stop: %v", err)
	}
	<-l.Stopped()

	// Another proxy on the same name, once the first stopped; it dies.
	l2, _, err := OpenLink(context.Background(), p, ProxyParams{Session: "p1", Server: "srv"})
	if err != nil {
		t.Fatal(err)
	}
	_, errc, _ = askAsync(context.Background(), l2, 2)
	opened(t, seen, errc)
	l2.Close()
	if err := <-errc; err == nil {
		t.Fatal("an ask on a closed link answered")
	}
	// The hub sees the connection close on its own time: polled, bounded.
	for deadline := time.Now().Add(10 * time.Second); ; {
		err := Request(context.Background(), p, MethodQuestions, NameParams{Session: "p1"}, nil)
		if ExitOf(err) == ExitConnect {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("questions of a session whose proxy died: %v, want no session (exit 3)", err)
		}
	}
}

// TestProxiedDuplicateKey: a second question under a key still open (a
// server that reuses a request id) is refused, and the first stays
// answerable: it must not be shadowed in the session.
func TestProxiedDuplicateKey(t *testing.T) {
	p, l, seen := proxyHub(t)
	q, errc, outc := askAsync(context.Background(), l, 3)
	opened(t, seen, errc)
	_, errc2, _ := askAsync(context.Background(), l, 3)
	if err := <-errc2; ExitOf(err) != ExitUsage {
		t.Fatalf("a second question under an open key: %v", err)
	}
	if err := Request(context.Background(), p, MethodAnswer, AnswerParams{Session: "p1", Key: q.Key.String(), Action: "decline"}, nil); err != nil {
		t.Fatalf("the first question: %v", err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if out := <-outc; out.Kind != question.Decline {
		t.Errorf("the proxy got %+v", out)
	}
}
