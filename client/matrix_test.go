package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The terminal-path matrix (docs/terminal-paths.md): one prompt, in each
// delivery, over each transport, ended in each way a wait can end. Every
// cell checks the journal bucket, what went on the wire for the prompt
// (and that nothing went where nothing may), that the call ends within
// matrixBound of the event that ends it, and that nothing is held after
// (Pending, and goleak in TestMain).

// matrixEnv makes this test binary the matrix server over stdio ("request"
// or "mrtr") instead of running tests; see init.
const matrixEnv = "ELICIT_MATRIX_SERVER"

// init turns the binary into a server before TestMain runs, so that the
// stdio rows talk to a real subprocess without touching main_test.go.
func init() {
	kind := os.Getenv(matrixEnv)
	if kind == "" {
		return
	}
	if err := newMatrixServer(context.Background(), kind == "mrtr").Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// matrixBound is how soon after the event that ends a prompt the call must
// return.
const matrixBound = 2 * time.Second

// matrixLinger keeps a tool alive after it withdrew its question: go-sdk
// drops the notifications/cancelled over HTTP when the tool's POST stream
// is already gone.
const matrixLinger = 200 * time.Millisecond

const matrixQuestion = "matrix question"

var matrixSchema = json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}`)

type matrixArgs struct {
	// WithdrawMS makes the server withdraw its question after that long
	// (server requests only).
	WithdrawMS int `json:"withdrawMs,omitempty"`
}

func matrixText(s string) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}, nil, nil
}

// newMatrixServer's tool "ask" asks one question ("matrix question", field
// "answer") and reports what it got: "<action> <answer>". With mrtr it is
// a 2026-07-28 server asking in an input_required result (key "q");
// otherwise a stateful one sending elicitation/create. A question still
// open when life ends is given up: go-sdk's SSE handler waits for its
// tools on shutdown, and its Elicit does not end when the stream does.
func newMatrixServer(life context.Context, mrtr bool) *mcp.Server {
	impl := &mcp.Implementation{Name: "matrix", Version: "1"}
	if mrtr {
		srv := mcp.NewServer(impl, nil)
		mcp.AddTool(srv, &mcp.Tool{Name: "ask"}, func(_ context.Context, req *mcp.CallToolRequest, _ matrixArgs) (*mcp.CallToolResult, any, error) {
			if req.Params.InputResponses == nil {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
					"q": &mcp.ElicitParams{Message: matrixQuestion, RequestedSchema: matrixSchema},
				}, RequestState: "s1"}, nil, nil
			}
			r, _ := req.Params.InputResponses["q"].(*mcp.ElicitResult)
			if r == nil {
				return matrixText("no answer")
			}
			return matrixText(fmt.Sprintf("%s %v", r.Action, r.Content["answer"]))
		})
		return srv
	}
	srv := mcp.NewServer(impl, legacyOpts(nil))
	mcp.AddTool(srv, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, in matrixArgs) (*mcp.CallToolResult, any, error) {
		ectx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(life, cancel)()
		if in.WithdrawMS > 0 {
			t := time.AfterFunc(time.Duration(in.WithdrawMS)*time.Millisecond, cancel)
			defer t.Stop()
		}
		res, err := req.Session.Elicit(ectx, &mcp.ElicitParams{Message: matrixQuestion, RequestedSchema: matrixSchema})
		if err != nil {
			if in.WithdrawMS > 0 && ctx.Err() == nil {
				time.Sleep(matrixLinger) // a deliberately lingering tool (matrixLinger)
				return matrixText("withdrawn")
			}
			return matrixText("error " + err.Error())
		}
		return matrixText(fmt.Sprintf("%s %v", res.Action, res.Content["answer"]))
	})
	return srv
}

// fixture is one session to a matrix server and the means to kill the
// server's side of the transport.
type fixture struct {
	s    *client.Session
	rec  *recorder
	kill func()
}

// matrixTransport starts a session to a matrix server of one delivery.
type matrixTransport struct {
	name  string
	start func(t *testing.T, mrtr bool, opts *client.Options, rec *recorder) *fixture
}

func connectFixture(t *testing.T, tr transport.Transport, opts *client.Options, rec *recorder) *client.Session {
	t.Helper()
	opts.Observer = rec
	ctx, cancel := context.WithTimeout(t.Context(), liveness)
	defer cancel()
	s, err := client.Connect(ctx, tr, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// stdioPipe: stdio framing over in-memory pipes, go-sdk at the far end.
var stdioPipe = matrixTransport{name: "stdio pipe", start: func(t *testing.T, mrtr bool, opts *client.Options, rec *recorder) *fixture {
	return pipeFixture(t, func(life context.Context) *mcp.Server { return newMatrixServer(life, mrtr) }, opts, rec)
}}

// pipeFixture runs the server made by newServer at the far end of
// in-memory stdio pipes.
func pipeFixture(t *testing.T, newServer func(life context.Context) *mcp.Server, opts *client.Options, rec *recorder) *fixture {
	conn, sr, sw := transport.PipeIO(rec)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		ss, err := newServer(ctx).Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
		if err != nil {
			return
		}
		go func() { <-ctx.Done(); _ = ss.Close() }()
		_ = ss.Wait()
	}()
	t.Cleanup(func() { cancel(); _ = sr.Close(); _ = sw.Close(); <-done })
	s := connectFixture(t, connTransport{conn}, opts, rec)
	// Closing the server's ends is what a dying server process does to
	// the pipes.
	return &fixture{s: s, rec: rec, kill: func() { _ = sw.Close(); _ = sr.Close() }}
}

// processDialer keeps the Conn of a transport.Stdio, for its process.
type processDialer struct {
	transport.Stdio
	proc *os.Process
}

func (d *processDialer) Dial(ctx context.Context) (transport.Conn, error) {
	c, err := d.Stdio.Dial(ctx)
	if p, ok := c.(interface{ Process() *os.Process }); ok {
		d.proc = p.Process()
	}
	return c, err
}

// stdioProcess: this test binary as the server, over transport.Stdio.
var stdioProcess = matrixTransport{name: "stdio process", start: func(t *testing.T, mrtr bool, opts *client.Options, rec *recorder) *fixture {
	kind := "request"
	if mrtr {
		kind = "mrtr"
	}
	d := &processDialer{Stdio: transport.Stdio{
		Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: []string{matrixEnv + "=" + kind},
		Observer: rec, ShutdownGrace: 500 * time.Millisecond,
	}}
	s := connectFixture(t, d, opts, rec)
	return &fixture{s: s, rec: rec, kill: func() { _ = d.proc.Kill() }}
}}

// streamableHTTP: go-sdk's Streamable HTTP handler, stateful for server
// requests, stateless for MRTR.
var streamableHTTP = matrixTransport{name: "streamable http", start: func(t *testing.T, mrtr bool, opts *client.Options, rec *recorder) *fixture {
	life, stop := context.WithCancel(context.Background())
	srv := newMatrixServer(life, mrtr)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: mrtr})
	// After a kill our DELETE cannot arrive, so the server's session
	// would outlive the test (the handler has no Close of its own): close
	// it last, once its tools have ended (cleanups run last-first).
	t.Cleanup(func() {
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	})
	return httpFixture(t, h, &transport.HTTP{Observer: rec}, opts, rec, stop)
}}

// legacySSE: go-sdk's HTTP+SSE handler (2024-11-05 transport).
var legacySSE = matrixTransport{name: "legacy sse", start: func(t *testing.T, mrtr bool, opts *client.Options, rec *recorder) *fixture {
	life, stop := context.WithCancel(context.Background())
	srv := newMatrixServer(life, mrtr)
	h := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	return httpFixture(t, h, &transport.SSE{Observer: rec}, opts, rec, stop)
}}

func httpFixture(t *testing.T, h http.Handler, tr transport.Transport, opts *client.Options, rec *recorder, stop context.CancelFunc) *fixture {
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	t.Cleanup(stop) // cleanups run last-first: the tools end before Close waits for them
	switch tr := tr.(type) {
	case *transport.HTTP:
		tr.URL = ts.URL
	case *transport.SSE:
		tr.URL = ts.URL
	}
	s := connectFixture(t, tr, opts, rec)
	return &fixture{s: s, rec: rec, kill: func() { ts.CloseClientConnections(); ts.Listener.Close() }}
}

// matrixEnd is one way the wait for an answer can end.
type matrixEnd struct {
	name string
	// answer is the Prompter's answer; nil blocks until the prompt's ctx
	// ends (and then answers late, which must be discarded).
	answer *question.Outcome
	// timeout is Options.PromptTimeout.
	timeout time.Duration
	// withdrawMS asks the server to withdraw its question.
	withdrawMS int
	// trigger runs once the prompt is open: it kills the transport or
	// cancels the call.
	trigger func(f *fixture, cancelCall context.CancelCauseFunc)
}

var errPersonCancelled = errors.New("the person cancelled the call")

var matrixEnds = []matrixEnd{
	{name: "accept", answer: &question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "yes"}}},
	{name: "decline", answer: &question.Outcome{Kind: question.Decline}},
	{name: "cancel", answer: &question.Outcome{Kind: question.Cancel}},
	{name: "withdrawn", withdrawMS: 50},
	{name: "transport closed", trigger: func(f *fixture, _ context.CancelCauseFunc) { f.kill() }},
	{name: "invalid content", answer: &question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": 5}}},
	{name: "call cancelled", trigger: func(_ *fixture, cancel context.CancelCauseFunc) { cancel(errPersonCancelled) }},
	{name: "prompt timeout", timeout: 100 * time.Millisecond},
}

// cellWant is what one cell must show.
type cellWant struct {
	na     string // why the cell does not apply; the rest is unused
	kind   question.OutcomeKind
	wire   string // what went out for the prompt; "" is nothing at all
	sent   string // PromptResolved.Sent
	result string // the call's result text, or "error: <substring of the error>"
	// cancelled: the call was given up with notifications/cancelled.
	cancelled bool
	// bug names a known defect that makes the cell fail (see knownBug).
	bug string
}

// knownBugsEnv runs the tests of known, reported, unfixed defects, which
// otherwise skip so that the package stays green for everyone.
const knownBugsEnv = "ELICIT_KNOWN_BUGS"

// knownBug skips t unless knownBugsEnv is set; with it set, t runs and
// fails until the defect is fixed (then delete the call).
func knownBug(t *testing.T, what string) {
	t.Helper()
	if os.Getenv(knownBugsEnv) == "" {
		t.Skipf("KNOWN BUG (run with %s=1 to see it fail): %s", knownBugsEnv, what)
	}
}

// matrixDelivery is one way a question reaches us. The task deliveries
// are in matrix_tasks_test.go.
type matrixDelivery struct {
	name string
	// mrtr picks the 2026-07-28 server (for the task rows: the extension).
	mrtr       bool
	transports []matrixTransport
	// call is CallTool's options (the core task rows ask for a task).
	call *client.CallOptions
	// wire renders what went out for the prompt.
	wire func(t *testing.T, f *fixture, e question.JournalEntry) string
	want func(tr string, end string) cellWant
}

var (
	wireAccept  = `{"action":"accept","content":{"answer":"yes"}}`
	wireDecline = `{"action":"decline"}`
	wireCancel  = `{"action":"cancel"}`
)

var serverRequestDelivery = matrixDelivery{
	name:       "server request (2025-11-25)",
	transports: []matrixTransport{stdioPipe, stdioProcess, streamableHTTP, legacySSE},
	wire: func(t *testing.T, f *fixture, e question.JournalEntry) string {
		var parts []string
		for _, m := range f.rec.responsesTo(e.Key.RequestID.String()) {
			if m.Error != nil {
				parts = append(parts, fmt.Sprintf("error %d", m.Error.Code))
				continue
			}
			parts = append(parts, compactJSON(t, m.Result))
		}
		return strings.Join(parts, " | ")
	},
	want: func(tr, end string) cellWant {
		switch end {
		case "accept":
			return cellWant{kind: question.Accept, wire: wireAccept, sent: "accept", result: "accept yes"}
		case "decline":
			return cellWant{kind: question.Decline, wire: wireDecline, sent: "decline", result: "decline <nil>"}
		case "cancel":
			return cellWant{kind: question.Cancel, wire: wireCancel, sent: "cancel", result: "cancel <nil>"}
		case "withdrawn":
			return cellWant{kind: question.Withdrawn, result: "withdrawn"}
		case "transport closed":
			if tr == streamableHTTP.name {
				// HTTP has no connection to lose: the call fails when its
				// stream breaks and cannot be resumed, and the prompt that
				// came on that stream ends with it.
				return cellWant{kind: question.Disconnected, result: "error: stream ended before the response"}
			}
			// On legacy SSE the call's own POST may still be in flight
			// when the server goes: its write fails, and the call still
			// reports the session's end.
			return cellWant{kind: question.Disconnected, result: "error: " + question.ErrDisconnected.Error()}
		case "invalid content":
			return cellWant{kind: question.Invalid, wire: "error -32602", sent: "error -32602", result: "error "}
		case "call cancelled":
			return cellWant{kind: question.Abandoned, wire: wireCancel, sent: "cancel", result: "error: " + errPersonCancelled.Error(), cancelled: true}
		case "prompt timeout":
			return cellWant{kind: question.Timeout, wire: wireCancel, sent: "cancel", result: "cancel <nil>"}
		}
		panic("unknown end " + end)
	},
}

var mrtrDelivery = matrixDelivery{
	name:       "MRTR (2026-07-28)",
	mrtr:       true,
	transports: []matrixTransport{stdioPipe, stdioProcess, streamableHTTP},
	wire: func(t *testing.T, f *fixture, _ question.JournalEntry) string {
		// The answer travels in the retry's inputResponses["q"].
		var parts []string
		for i, m := range f.rec.toolCalls() {
			if i == 0 {
				if len(member(t, m.Params, "inputResponses")) != 0 {
					t.Errorf("the first tools/call carried inputResponses: %s", m.Params)
				}
				continue
			}
			parts = append(parts, compactJSON(t, member(t, member(t, m.Params, "inputResponses"), "q")))
			if got := string(member(t, m.Params, "requestState")); got != `"s1"` {
				t.Errorf("retry requestState %s, want \"s1\"", got)
			}
		}
		return strings.Join(parts, " | ")
	},
	want: func(tr, end string) cellWant {
		switch end {
		case "accept":
			return cellWant{kind: question.Accept, wire: wireAccept, sent: "accept", result: "accept yes"}
		case "decline":
			return cellWant{kind: question.Decline, wire: wireDecline, sent: "decline", result: "decline <nil>"}
		case "cancel":
			return cellWant{kind: question.Cancel, wire: wireCancel, sent: "cancel", result: "cancel <nil>"}
		case "withdrawn":
			return cellWant{na: "a 2026-07-28 server sends no requests, so it has none to withdraw (notifications/cancelled from a server only ends subscriptions/listen)"}
		case "transport closed":
			if tr == streamableHTTP.name {
				return cellWant{na: "stateless HTTP holds no connection while a round is open: a dead server shows only when the retry is POSTed (see TestMatrixStatelessHTTPServerGoneDuringRound)"}
			}
			return cellWant{kind: question.Disconnected, result: "error: " + question.ErrDisconnected.Error()}
		case "invalid content":
			// MRTR has no per-key error: the key is answered cancel.
			return cellWant{kind: question.Invalid, wire: wireCancel, sent: "cancel", result: "cancel <nil>"}
		case "call cancelled":
			// No retry at all; there is no request in flight to cancel.
			return cellWant{kind: question.Abandoned, result: "error: " + errPersonCancelled.Error()}
		case "prompt timeout":
			return cellWant{kind: question.Timeout, wire: wireCancel, sent: "cancel", result: "cancel <nil>"}
		}
		panic("unknown end " + end)
	},
}

func compactJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if len(raw) == 0 {
		return "<absent>"
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Errorf("not JSON: %s", raw)
		return string(raw)
	}
	return b.String()
}

func TestTerminalPathMatrix(t *testing.T) {
	t.Parallel()
	for _, d := range []matrixDelivery{serverRequestDelivery, mrtrDelivery, coreTaskDelivery, extTaskDelivery} {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			for _, tr := range d.transports {
				t.Run(tr.name, func(t *testing.T) {
					t.Parallel()
					for _, end := range matrixEnds {
						t.Run(end.name, func(t *testing.T) {
							want := d.want(tr.name, end.name)
							if want.na != "" {
								t.Skip("N/A: " + want.na)
							}
							if want.bug != "" {
								knownBug(t, want.bug)
							}
							t.Parallel()
							runCell(t, d, tr, end, want)
						})
					}
				})
			}
		})
	}
}

type callResult struct {
	text string
	err  error
}

func runCell(t *testing.T, d matrixDelivery, tr matrixTransport, end matrixEnd, want cellWant) {
	rec := &recorder{}
	opened := make(chan *question.Question, 1)
	pr := question.PrompterFunc(func(ctx context.Context, p *question.Question) question.Outcome {
		select {
		case opened <- p:
		default:
		}
		if end.answer != nil {
			return *end.answer
		}
		<-ctx.Done()
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "too late"}}
	})
	f := tr.start(t, d.mrtr, &client.Options{Name: "matrix", Prompter: pr, PromptTimeout: end.timeout}, rec)

	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	done := make(chan callResult, 1)
	go func() {
		res, err := f.s.CallTool(ctx, "ask", matrixArgs{WithdrawMS: end.withdrawMS}, d.call)
		if err != nil {
			done <- callResult{err: err}
			return
		}
		done <- callResult{text: res.Text()}
	}()
	var p *question.Question
	select {
	case p = <-opened:
	case <-time.After(liveness):
		t.Fatal("the prompt never opened")
	}
	if p.Message != matrixQuestion {
		t.Errorf("prompt message %q", p.Message)
	}
	from := time.Now()
	if end.trigger != nil {
		end.trigger(f, cancel)
	}
	if end.withdrawMS > 0 {
		// The withdrawal is timed by the server from its send.
		from = p.Arrived.Add(time.Duration(end.withdrawMS) * time.Millisecond)
	}
	if end.timeout > 0 {
		from = p.Arrived.Add(end.timeout)
	}
	var r callResult
	select {
	case r = <-done:
	case <-time.After(time.Until(from.Add(matrixBound))):
		// Late is a failure, but the rest is still checked once it ends.
		t.Errorf("the call did not end within %v", matrixBound)
		select {
		case r = <-done:
		case <-time.After(time.Minute):
			t.Fatal("the call did not end within a minute")
		}
	}

	// The call's end, as the caller sees it.
	switch got := r.text; {
	case strings.HasPrefix(want.result, "error: "):
		// "error: a|b": the error must contain a or b.
		alts := strings.Split(strings.TrimPrefix(want.result, "error: "), "|")
		if r.err == nil || !slices.ContainsFunc(alts, func(a string) bool { return strings.Contains(r.err.Error(), a) }) {
			t.Errorf("call = %q, %v; want an error containing %q", r.text, r.err, alts)
		}
	case r.err != nil:
		t.Errorf("call failed: %v; want %q", r.err, want.result)
	case strings.HasSuffix(want.result, " ") && !strings.HasPrefix(got, want.result):
		t.Errorf("call result %q, want it to start with %q", got, want.result)
	case !strings.HasSuffix(want.result, " ") && got != want.result:
		t.Errorf("call result %q, want %q", got, want.result)
	}

	// The journal: exactly one entry, in the right bucket.
	entries := waitJournal(t, f.s, 1)
	if len(entries) != 1 {
		t.Fatalf("journal %+v, want one entry", entries)
	}
	e := entries[0]
	if e.Kind != want.kind || e.Key != p.Key {
		t.Errorf("journal entry %v (%s) for %s, want %v for %s", e.Kind, e.Reason, e.Key, want.kind, p.Key)
	}
	res := waitEvent(t, rec, func(ev client.PromptResolved) bool { return ev.Key == p.Key })
	if res.Sent != want.sent {
		t.Errorf("PromptResolved.Sent %q, want %q", res.Sent, want.sent)
	}

	// Nothing is held.
	waitFor(t, "Pending to empty", func() bool { o, i := f.s.Pending(); return o == 0 && i == 0 })

	// The wire: give a late frame (one that must not exist) a moment to
	// show, then read what went out for the prompt.
	time.Sleep(20 * time.Millisecond) // a window in which a frame that must not exist may show
	if got := d.wire(t, f, e); got != want.wire {
		t.Errorf("on the wire for the prompt: %q, want %q", got, want.wire)
	}
	cancels := 0
	for _, m := range rec.out() {
		if m.Method == "notifications/cancelled" {
			cancels++
		}
	}
	if want.cancelled != (cancels == 1) || cancels > 1 {
		t.Errorf("sent %d notifications/cancelled, want cancelled=%v", cancels, want.cancelled)
	}
}

// TestMatrixStatelessHTTPServerGoneDuringRound is the "transport closed"
// cell of MRTR over Streamable HTTP, which cannot be driven like the
// others: between rounds no request is open, so a dead server is noticed
// only when the person's answers are POSTed. The call then fails within
// the bound, the prompt is journalled Undelivered, saying what the
// person answered and why it never arrived, and nothing is held.
func TestMatrixStatelessHTTPServerGoneDuringRound(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	release := make(chan struct{})
	pr := question.PrompterFunc(func(ctx context.Context, p *question.Question) question.Outcome {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "yes"}}
	})
	f := streamableHTTP.start(t, true, &client.Options{Name: "matrix", Prompter: pr}, rec)
	done := make(chan callResult, 1)
	go func() {
		_, err := f.s.CallTool(context.Background(), "ask", nil, nil)
		done <- callResult{err: err}
	}()
	waitEvent(t, rec, func(e client.PromptOpened) bool { return true })
	f.kill()
	close(release)
	select {
	case r := <-done:
		if r.err == nil {
			t.Errorf("the call succeeded against a dead server")
		}
	case <-time.After(matrixBound):
		t.Fatalf("the call did not end within %v of the answer", matrixBound)
	}
	e := waitJournal(t, f.s, 1)
	if len(e) != 1 || e[0].Kind != question.Undelivered || !strings.Contains(e[0].Reason, "accept not delivered") {
		t.Errorf("journal %+v", e)
	}
	res := waitEvent(t, rec, func(e client.PromptResolved) bool { return true })
	if res.Sent != "" {
		t.Errorf("PromptResolved.Sent %q for an answer that never arrived", res.Sent)
	}
	waitFor(t, "Pending to empty", func() bool { o, i := f.s.Pending(); return o == 0 && i == 0 })
}
