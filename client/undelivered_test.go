package client_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// refuseReplies serves h, but answers every POSTed JSON-RPC response (our
// answer to the server's request) with 400 and a JSON-RPC error, as
// mcp-go's stateless Streamable HTTP does in 2025-11-25: the server asked,
// and will never hear the answer.
func refuseReplies(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if m, err := jsonrpc.Decode(body); err == nil && m.Kind() == jsonrpc.KindResponse {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"responses are not accepted"}}`)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	})
}

// TestAnswerRefusedByServer: the person accepts, the server refuses the
// POSTed answer with 400. The journal says undelivered (nothing sent,
// and why), not accept, and the call the question came on ends at once
// with that reason instead of waiting out its timeout.
func TestAnswerRefusedByServer(t *testing.T) {
	t.Parallel()
	srv := newAskServer(nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	rec := &recorder{}
	pr := question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "yes"}}
	})
	// A request timeout far beyond the test's bound: only the refusal can
	// end the call within it.
	s := connectHTTP(t, refuseReplies(h), &client.Options{Protocol: wire.Protocol2025_11_25, Prompter: pr, RequestTimeout: time.Hour}, rec)
	ctx, cancel := context.WithTimeout(t.Context(), liveness)
	defer cancel()
	_, err := s.CallTool(ctx, "ask", map[string]any{"name": "x"}, nil)
	if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "400") || !strings.Contains(err.Error(), "not delivered") {
		t.Fatalf("CallTool: %v; want it to end at once saying the answer was refused (400)", err)
	}
	res := waitEvent(t, rec, func(e client.PromptResolved) bool { return true })
	if e := res.Entry; e.Kind.String() != "undelivered" || res.Sent != "" || e.Sent != "" ||
		!strings.Contains(e.Reason, "accept not delivered") || !strings.Contains(e.Reason, "400") {
		t.Errorf("journal %s sent %q reason %q; want undelivered, nothing sent, saying the accept was refused with 400", e.Kind, res.Sent, e.Reason)
	}
	if out, in := s.Pending(); out != 0 || in != 0 {
		t.Errorf("pending (%d, %d) after the call ended", out, in)
	}
}

// TestTaskAnswerRefusedByServer: the same refusal of a 2025-11-25 task's
// question, the TypeScript SDK's simpleTaskInteractive behind a proxy that
// refuses our answers: the task would sit in input_required for ever, so
// it is given up at once, lost with the reason, and its call says so.
func TestTaskAnswerRefusedByServer(t *testing.T) {
	target, err := url.Parse(tsTaskInteractive(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	rec := &recorder{}
	pr := newTaskPrompter(func(context.Context, *question.Question) question.Outcome {
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"confirm": true}}
	})
	s := dialTasks(t, demoURL(t, refuseReplies(proxy))+target.Path, wire.Protocol2025_11_25,
		&client.Options{Prompter: pr, RequestTimeout: time.Hour}, rec)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	_, err = s.CallTool(ctx, "confirm_delete", map[string]any{"filename": "a.txt"}, nil)
	if !errors.Is(err, client.ErrTaskLost) || !errors.Is(err, question.ErrUndelivered) || !strings.Contains(err.Error(), "400") {
		t.Fatalf("CallTool: %v; want the task lost because the answer was refused (400)", err)
	}
	e := waitJournal(t, s, 1)
	if len(e) != 1 || e[0].Kind != question.Undelivered || e[0].Sent != "" || !strings.Contains(e[0].Reason, "accept not delivered") {
		t.Errorf("journal %+v", e)
	}
	if tk := lastTask(t, rec, "confirm_delete"); !tk.Lost || !errors.Is(tk.Err, question.ErrUndelivered) {
		t.Errorf("task %+v, want it lost, saying the answer was not delivered", tk)
	}
}

// TestTaskUpdateRefused: an extension task's answer that its server
// refuses (tasks/update answered with an error): the task, which would
// otherwise wait for ever for an answer it never took (its input is asked
// once), is given up at once with the server's reason. The answer did
// reach the server: it stays journalled as sent.
func TestTaskUpdateRefused(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	pr := newTaskPrompter(func(context.Context, *question.Question) question.Outcome {
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"a": "A"}}
	})
	s, p := modernPeer(t, &client.Options{Prompter: pr}, rec)
	done := callAsync(t.Context(), s, "job")
	call := p.expect("tools/call")
	p.respond(call.ID, `{"resultType":"task",`+extTask("t1", "working", "")+`}`)
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		for {
			m, err := msgOf(p.conn.Read(ctx))
			if err != nil {
				return
			}
			switch m.Method {
			case "tasks/get":
				p.respond(m.ID, `{"resultType":"complete",`+extTask("t1", "input_required", twoQuestions)+`}`)
			case "tasks/update":
				p.send(&jsonrpc.Message{ID: m.ID, Error: jsonrpc.NewError(jsonrpc.CodeInvalidParams, "input responses refused", nil)})
			}
		}
	}()
	got := recvWithin(t, done, "CallTool's return")
	stop()
	<-served
	if !strings.Contains(got, "task lost") || !strings.Contains(got, "the server refused the") || !strings.Contains(got, "input responses refused") {
		t.Fatalf("CallTool: %s; want the task lost because its answer was refused", got)
	}
	if tk, _ := s.Task("t1"); !tk.Lost || !tk.Ended {
		t.Errorf("task %+v, want it lost", tk)
	}
}
