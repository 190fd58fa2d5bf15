package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// isResponse reports whether an HTTP body is one JSON-RPC response (no
// method): what the client POSTs to answer the server's request.
func isResponse(body []byte) bool {
	var m struct {
		Method *string         `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	return json.Unmarshal(body, &m) == nil && m.Method == nil && len(m.ID) > 0
}

// TestAnswerWriteIsBounded: the person answers an elicitation that came
// on a tool call's stream, and the server accepts the POST carrying our
// response but never answers it. Writing the response is the engine's own
// wait, so it ends after Options.WriteTimeout: the answer is journalled
// Undelivered and the call ends at once with ErrUndelivered and
// ErrTimeout, instead of both waiting for ever (the request's clock is an
// hour here).
func TestAnswerWriteIsBounded(t *testing.T) {
	t.Parallel()
	// The tool's question ends with the test too: go-sdk's session Close
	// waits for a tool handler, which would wait for our answer for ever
	// if the test failed.
	stop := make(chan struct{})
	srv := mcp.NewServer(&mcp.Implementation{Name: "held", Version: "1"}, legacyOpts(nil))
	mcp.AddTool(srv, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, in askArgs) (*mcp.CallToolResult, any, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-stop:
				cancel()
			case <-ctx.Done():
			}
		}()
		_, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "question " + in.Name, RequestedSchema: askSchema})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(err)}}}, nil, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if isResponse(body) {
				<-r.Context().Done() // taken, never answered
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() {
		close(stop)
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	})
	rec := &recorder{}
	opts := &client.Options{
		Name:           "held",
		WriteTimeout:   500 * time.Millisecond, // the handshake's own writes fit in it on a loaded machine
		RequestTimeout: time.Hour,
		Prompter: question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
			return question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "yes"}}
		}),
	}
	s := connectFixture(t, &transport.HTTP{URL: ts.URL, Observer: rec}, opts, rec)

	done := make(chan error, 1)
	go func() {
		_, err := s.CallTool(t.Context(), "ask", askArgs{Name: "a"}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, question.ErrUndelivered) || !errors.Is(err, client.ErrTimeout) {
			t.Fatalf("call ended with %v, want ErrUndelivered and ErrTimeout", err)
		}
	case <-time.After(4 * liveness):
		t.Fatal("the call still waits on a response the server never took")
	}
	e := waitJournal(t, s, 1)[0]
	if e.Kind != question.Undelivered || !strings.Contains(e.Reason, "timed out") {
		t.Fatalf("journal %+v, want Undelivered saying it timed out", e)
	}
}

// signingIn is an HTTP RoundTripper that says, as transport/oauth's does
// while someone authorizes in a browser, that a person is being waited on
// (transport.PersonWaiter): from when the answer's POST is held until it
// has been asked twice, that is until the write bound ran out twice.
type signingIn struct {
	held   atomic.Bool
	polls  atomic.Int32
	polled chan struct{} // closed at the second poll while held
}

func (s *signingIn) RoundTrip(r *http.Request) (*http.Response, error) {
	return http.DefaultTransport.RoundTrip(r)
}

func (s *signingIn) Waiting() bool {
	if !s.held.Load() {
		return false
	}
	if s.polls.Add(1) == 2 {
		close(s.polled)
	}
	return true
}

// TestAnswerWriteWaitsForThePerson: the POST of the person's answer waits
// on someone signing in (the bound ran out twice meanwhile). That is a
// person, not the server: the write bound stands still, and the answer
// is delivered once the sign-in is over.
func TestAnswerWriteWaitsForThePerson(t *testing.T) {
	t.Parallel()
	srv := newAskServer(nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	rt := &signingIn{polled: make(chan struct{})}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if isResponse(body) {
				rt.held.Store(true)
				select {
				case <-rt.polled:
				case <-r.Context().Done():
					return
				}
				rt.held.Store(false)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() {
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	})
	rec := &recorder{}
	opts := &client.Options{
		Name:         "signing-in",
		WriteTimeout: 500 * time.Millisecond, // the handshake's own writes fit in it on a loaded machine
		Prompter: question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
			return question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "yes"}}
		}),
	}
	s := connectFixture(t, &transport.HTTP{URL: ts.URL, Observer: rec, Client: &http.Client{Transport: rt}}, opts, rec)
	got, err := callText(t, s, "ask", askArgs{Name: "a"})
	if err != nil || got != "a: accept yes" {
		t.Fatalf("call: %q, %v", got, err)
	}
	if e := waitJournal(t, s, 1)[0]; e.Kind != question.Accept || e.Sent != "accept" {
		t.Fatalf("journal %+v, want the answer delivered", e)
	}
}
