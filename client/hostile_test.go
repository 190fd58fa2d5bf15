package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Hostile servers: every case is something a broken or malicious server
// can write, and each must end with a clear error or Notice while the
// session stays usable (or ends cleanly), within a bound, without a panic.

// hostileBound is how long a hostile case may take to be dealt with.
const hostileBound = 2 * time.Second

// frameErrs returns the incoming frames the transport refused.
func (r *recorder) frameErrs() []transport.Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []transport.Frame
	for _, f := range r.frames {
		if f.Dir == transport.In && f.Err != nil {
			out = append(out, f)
		}
	}
	return out
}

func TestHostileMalformedFrames(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := connectHostile(t, &client.Options{}, rec)
	bad := []string{
		`not json at all`,
		`{`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"`,
		`[]`,
		`{"jsonrpc":"1.0","id":1,"result":{}}`,
		`{"id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":{"obj":1},"result":{}}`,
		`{"jsonrpc":"2.0","id":1.5,"result":{}}`,
		`{"jsonrpc":"2.0"}`,
		"\x00\xff\xfe\x1b[2J\x1b]52;c;ZXZpbA==\x07",
		`"just a string"`,
		`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"both"}}`,
	}
	for _, line := range bad {
		if err := p.writeRaw([]byte(line)); err != nil {
			t.Fatalf("write %q: %v", line, err)
		}
		alive(t, s, hostileBound)
	}
	// Every line was refused visibly (an error frame for the traffic
	// view), and none reached the engine as a message.
	waitFor(t, "every bad line to be reported", func() bool { return len(rec.frameErrs()) >= len(bad) })
	for _, f := range rec.frameErrs() {
		if f.Err.Error() == "" {
			t.Errorf("frame %q refused without a reason", f.Raw)
		}
	}
	if s.Err() != nil {
		t.Errorf("session ended: %v", s.Err())
	}
	// The server's valid frames that are neither request nor response nor
	// notification do not exist past Decode; a valid response with an id
	// we never sent is the next case.
}

func TestHostileResponses(t *testing.T) {
	t.Parallel()

	t.Run("id never sent", func(t *testing.T) {
		t.Parallel()
		rec := &recorder{}
		s, p := connectHostile(t, &client.Options{}, rec)
		p.respond(jsonrpc.IntID(999), `{"tools":[]}`)
		p.respond(jsonrpc.StringID("\x1b[2Jnever"), `{}`)
		waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "unknown request id 999") })
		waitEvent(t, rec, func(n client.Notice) bool {
			return strings.Contains(n.Text, "unknown request id") && strings.Contains(n.Text, "never")
		})
		alive(t, s, hostileBound)
	})

	t.Run("duplicate response", func(t *testing.T) {
		t.Parallel()
		rec := &recorder{}
		s, p := connectHostile(t, &client.Options{}, rec)
		done := make(chan []wire.Tool, 1)
		go func() {
			tools, err := s.ListTools(context.Background())
			if err != nil {
				t.Errorf("ListTools: %v", err)
			}
			done <- tools
		}()
		req := p.next("tools/list")
		p.respond(req.ID, `{"tools":[{"name":"first","inputSchema":{"type":"object"}}]}`)
		p.respond(req.ID, `{"tools":[{"name":"second","inputSchema":{"type":"object"}}]}`)
		if tools := <-done; len(tools) != 1 || tools[0].Name != "first" {
			t.Errorf("tools %+v: the first response must win", tools)
		}
		waitEvent(t, rec, func(n client.Notice) bool {
			return strings.Contains(n.Text, "dropped a response for unknown request id "+req.ID.String())
		})
		if out, in := s.Pending(); out != 0 || in != 0 {
			t.Errorf("Pending %d, %d", out, in)
		}
	})

	t.Run("response after cancel", func(t *testing.T) {
		t.Parallel()
		rec := &recorder{}
		s, p := connectHostile(t, &client.Options{}, rec)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { _, err := s.ListTools(ctx); done <- err }()
		req := p.next("tools/list")
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("ListTools: %v", err)
		}
		n := p.next("notifications/cancelled")
		if !strings.Contains(string(n.Params), `"requestId":`+req.ID.String()) {
			t.Errorf("cancelled %s for request %s", n.Params, req.ID)
		}
		p.respond(req.ID, `{"tools":[]}`)
		waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "late response to tools/list") })
		alive(t, s, hostileBound)
		if out, in := s.Pending(); out != 0 || in != 0 {
			t.Errorf("Pending %d, %d", out, in)
		}
	})

	t.Run("request id reused while pending", func(t *testing.T) {
		t.Parallel()
		rec := &recorder{}
		g := newGate(func(*question.Question) question.Outcome { return question.Outcome{Kind: question.Decline} })
		s, p := connectHostile(t, &client.Options{Prompter: g}, rec)
		p.writeMsg(&jsonrpc.Message{ID: jsonrpc.IntID(7), Method: "elicitation/create", Params: json.RawMessage(`{"message":"first","requestedSchema":{"type":"object","properties":{}}}`)})
		g.waitOpen(t, "first")
		p.writeMsg(&jsonrpc.Message{ID: jsonrpc.IntID(7), Method: "elicitation/create", Params: json.RawMessage(`{"message":"second","requestedSchema":{"type":"object","properties":{}}}`)})
		waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "second elicitation/create with id 7") })
		g.release("first")
		m := p.nextResponse(liveness)
		if m.ID != jsonrpc.IntID(7) || string(m.Result) != `{"action":"decline"}` {
			t.Errorf("answer %+v %s", m, m.Result)
		}
		alive(t, s, hostileBound)
		if g.count() != 1 {
			t.Errorf("the prompter saw %d prompts, want 1", g.count())
		}
		if got := len(rec.responsesTo("7")); got != 1 {
			t.Errorf("%d responses to id 7, want 1", got)
		}
	})
}

// countingObserver keeps only counts, so that what it keeps does not
// weigh on the memory measure; slow makes each log event take that long,
// as a busy UI would.
type countingObserver struct {
	slow time.Duration
	// hold, when set, keeps every log event waiting until it is closed:
	// an observer that is stuck, whatever the machine's speed.
	hold    chan struct{}
	logs    atomic.Int64
	dropped atomic.Int64
	notices atomic.Int64
	// counted, when set, is signalled (without blocking) after each log
	// event is counted.
	counted chan struct{}
}

func (o *countingObserver) Event(e client.Event) {
	switch e := e.(type) {
	case client.LogMessage:
		o.logs.Add(1)
		o.dropped.Add(int64(e.Dropped))
		if o.counted != nil {
			select {
			case o.counted <- struct{}{}:
			default:
			}
		}
		if o.hold != nil {
			<-o.hold
		}
		if o.slow > 0 {
			time.Sleep(o.slow) // a deliberately slow observer
		}
	case client.Notice:
		o.notices.Add(1)
	}
}

// heapWatch samples the live heap until stopped and reports the peak.
func heapWatch() (stop func() uint64) {
	var peak uint64
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			select {
			case <-quit:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 { close(quit); <-done; return peak }
}

func baselineHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestHostileNotificationFlood: 50,000 log notifications, as fast as the
// pipe takes them, to a slow observer. The session keeps answering (pings
// round-trip during the flood), the excess is dropped and counted, and the
// heap stays bounded.
func TestHostileNotificationFlood(t *testing.T) {
	// Not parallel: it measures the heap.
	const n = 50_000
	// The observer is stuck until the flood is over: whether a merely
	// slow one falls behind depends on the machine (CI once saw the
	// flood go slower than a 50 µs observer, and nothing dropped).
	obs := &countingObserver{hold: make(chan struct{}), counted: make(chan struct{}, 1)}
	p, conn := newHostilePeer(t, nil, false)
	s, err := client.Connect(t.Context(), connTransport{conn}, &client.Options{Name: "flood", Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	base := baselineHeap()
	stopWatch := heapWatch()
	var sent atomic.Int64
	flooded := make(chan struct{})
	go func() {
		defer close(flooded)
		data := strings.Repeat("x", 200)
		for i := range n {
			line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"%d %s"}}`, i, data)
			if p.writeRaw([]byte(line)) != nil {
				return
			}
			sent.Add(1)
		}
	}()
	duringFlood, worst := 0, time.Duration(0)
	for {
		select {
		case <-flooded:
		default:
			start := time.Now()
			alive(t, s, hostileBound)
			worst = max(worst, time.Since(start))
			if sent.Load() < n {
				duringFlood++
			}
			continue
		}
		break
	}
	alive(t, s, hostileBound)
	peak := stopWatch()
	close(obs.hold)
	if sent.Load() != n {
		t.Fatalf("the flood stopped after %d", sent.Load())
	}
	if duringFlood == 0 {
		t.Errorf("no ping completed during the flood")
	}
	// Up to a full queue (1,024) is still to be delivered: a longer
	// bound than liveness.
	for timeout := time.After(30 * time.Second); obs.logs.Load()+obs.dropped.Load() != n; {
		select {
		case <-obs.counted:
		case <-timeout:
			t.Fatalf("after 30 s: %d logs delivered and %d counted dropped, want %d in all", obs.logs.Load(), obs.dropped.Load(), n)
		}
	}
	growth := int64(peak) - int64(base)
	t.Logf("pings during the flood %d (slowest %v); logs delivered %d, dropped %d; heap %d MB -> peak %d MB",
		duringFlood, worst, obs.logs.Load(), obs.dropped.Load(), base>>20, peak>>20)
	if growth > 64<<20 {
		t.Errorf("heap grew by %d MB during the flood, want < 64 MB", growth>>20)
	}
	if obs.dropped.Load() == 0 {
		t.Errorf("a slow observer dropped nothing: the queue is not bounded")
	}
}

func TestHostileHugeResult(t *testing.T) {
	t.Parallel()
	s, p := connectHostile(t, &client.Options{}, nil)
	big := strings.Repeat("a", 16<<20)
	done := make(chan string, 1)
	go func() {
		res, err := s.CallTool(context.Background(), "big", nil, nil)
		if err != nil {
			done <- "error " + err.Error()
			return
		}
		done <- res.Text()
	}()
	req := p.next("tools/call")
	p.respond(req.ID, `{"content":[{"type":"text","text":"`+big+`"}]}`)
	select {
	case got := <-done:
		if len(got) != len(big) {
			t.Errorf("result of %d bytes, want %d (%.40q)", len(got), len(big), got)
		}
	case <-time.After(6 * liveness): // liveness only: 16 MiB under -race on 2 busy cores
		t.Fatal("a 16 MiB result was not delivered")
	}
	alive(t, s, hostileBound)
}

// elicitAnswer sends one elicitation/create with params and returns the
// answer, which must come within hostileBound.
func elicitAnswer(t *testing.T, p *hostilePeer, id int64, params string) *jsonrpc.Message {
	t.Helper()
	return elicitAnswerWithin(t, p, id, params, hostileBound)
}

func elicitAnswerWithin(t *testing.T, p *hostilePeer, id int64, params string, bound time.Duration) *jsonrpc.Message {
	t.Helper()
	if err := p.writeRaw([]byte(`{"jsonrpc":"2.0","id":` + fmt.Sprint(id) + `,"method":"elicitation/create","params":` + params + `}`)); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	m := p.nextResponse(bound + liveness)
	if d := time.Since(start); d > bound {
		t.Errorf("answered after %v, want within %v", d, bound)
	}
	if m.ID != jsonrpc.IntID(id) {
		t.Fatalf("got %+v, want the answer to %d", m, id)
	}
	return m
}

// wideSchema is an elicitation's params whose form has n properties.
func wideSchema(n int) string {
	var b strings.Builder
	b.WriteString(`{"message":"wide","requestedSchema":{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string","title":"\u001b[31mP%d","default":"d"}`, i, i)
	}
	b.WriteString(`}}}`)
	return b.String()
}

// TestHostileWideSchema: a form 10,000 properties wide is refused with
// -32602 or opens; it never hangs. (Handled today: the form opens and
// AcceptDefaults answers; 0.5 s of schema compilation, 4 s under -race.)
func TestHostileWideSchema(t *testing.T) {
	t.Parallel()
	var opened atomic.Int64
	s, p := connectHostile(t, &client.Options{Prompter: question.PrompterFunc(func(ctx context.Context, pr *question.Question) question.Outcome {
		opened.Add(1)
		return question.AcceptDefaults.Prompt(ctx, pr)
	})}, nil)
	m := elicitAnswerWithin(t, p, 1, wideSchema(10_000), 6*liveness)
	switch {
	case m.Error != nil && m.Error.Code == jsonrpc.CodeInvalidParams:
		if opened.Load() != 0 {
			t.Errorf("refused, yet the prompter saw it")
		}
	case m.Error == nil && opened.Load() == 1:
		// Handled: the form opened and defaults were accepted.
	default:
		t.Errorf("answer %+v (%s), prompts opened %d", m, m.Result, opened.Load())
	}
	alive(t, s, hostileBound)
}

// TestHostileWiderSchemaBounded: schema compilation is quadratic in the
// number of properties (jsonschema's Compiler.enqueue scans its queue for
// every subschema: 16,000 properties take 1.3 s, 50,000 about 13 s), so a
// server could burn a core per elicitation; forms wider than
// schema.MaxProperties are refused with -32602 at once.
func TestHostileWiderSchemaBounded(t *testing.T) {
	t.Parallel()
	s, p := connectHostile(t, &client.Options{Prompter: question.AcceptDefaults}, nil)
	// A liveness bound, generous for -race on a loaded 2-core machine (the
	// 3 MB frame alone takes a while to decode there); unbounded parsing
	// took minutes under -race.
	m := elicitAnswerWithin(t, p, 1, wideSchema(50_000), 6*liveness)
	if m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("answer %+v, want -32602 (too many properties)", m)
	}
	alive(t, s, hostileBound)
}

func TestHostileDeepNesting(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := connectHostile(t, &client.Options{Prompter: question.AcceptDefaults}, rec)
	deep := strings.Repeat("[", 100_000)

	// A notification 100,000 levels deep, unterminated: refused, no
	// stack overflow.
	if err := p.writeRaw([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":` + deep + `}}`)); err != nil {
		t.Fatal(err)
	}
	alive(t, s, hostileBound)
	waitFor(t, "the deep frame to be refused", func() bool { return len(rec.frameErrs()) == 1 })

	// The response to a pending call, as deep: refused like any bad frame,
	// but it names the call's id, so the call fails at once saying why
	// (not when its context ends).
	done := make(chan error, 1)
	go func() { _, err := s.ListTools(t.Context()); done <- err }()
	req := p.next("tools/list")
	if err := p.writeRaw([]byte(`{"jsonrpc":"2.0","id":` + req.ID.String() + `,"result":{"tools":` + deep + strings.Repeat("]", 100_000) + `}}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var de *jsonrpc.DecodeError
		if err == nil || !errors.As(err, &de) || !strings.Contains(err.Error(), "the server's response to tools/list could not be decoded") {
			t.Errorf("ListTools: %v", err)
		}
	case <-time.After(hostileBound):
		t.Fatal("the call waited on after its response came undecodable")
	}
	waitFor(t, "the deep response to be refused", func() bool { return len(rec.frameErrs()) == 2 })
	if out, in := s.Pending(); out != 0 || in != 0 {
		t.Errorf("Pending %d, %d", out, in)
	}

	// 9,000 levels is within what JSON decoding takes: it reaches the
	// engine inside an elicitation's schema, which refuses it.
	nested := strings.Repeat("[", 9000) + strings.Repeat("]", 9000)
	m := elicitAnswer(t, p, 1, `{"message":"deep","requestedSchema":{"type":"object","properties":{"a":{"type":"string","default":`+nested+`}}}}`)
	if m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("answer %+v %s, want -32602", m, m.Result)
	}
	m = elicitAnswer(t, p, 2, `{"message":"deep","requestedSchema":`+nested+`}`)
	if m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("answer %+v %s, want -32602", m, m.Result)
	}
	alive(t, s, hostileBound)
}

func TestHostileNeverAnswersInitialize(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	_, conn := newHostilePeer(t, nil, true)
	ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	s, err := client.Connect(ctx, connTransport{conn}, &client.Options{Name: "mute", Observer: rec})
	if s != nil || err == nil {
		t.Fatalf("Connect to a mute server: %v, %v", s, err)
	}
	if d := time.Since(start); d > 500*time.Millisecond+hostileBound {
		t.Errorf("Connect took %v after its ctx ended", d)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "connect to mute") {
		t.Errorf("error %q does not say it timed out connecting", err)
	}
	ev := waitEvent(t, rec, func(e client.ServerStateChanged) bool { return e.State == client.StateFailed })
	if ev.Err == nil {
		t.Errorf("StateFailed without a reason")
	}
}

func TestHostileExitsMidPrompt(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(func(*question.Question) question.Outcome { return question.Outcome{Kind: question.Decline} })
	s, p := connectHostile(t, &client.Options{Prompter: g}, rec)
	p.writeMsg(&jsonrpc.Message{ID: jsonrpc.IntID(1), Method: "elicitation/create", Params: json.RawMessage(`{"message":"q","requestedSchema":{"type":"object","properties":{}}}`)})
	g.waitOpen(t, "q")
	p.close() // the process is gone
	select {
	case <-s.Done():
	case <-time.After(hostileBound):
		t.Fatal("the session outlived its server")
	}
	if !errors.Is(g.ended("q"), question.ErrDisconnected) {
		t.Errorf("prompt cause %v", g.cause("q"))
	}
	e := s.Journal().Entries()
	if len(e) != 1 || e[0].Kind != question.Disconnected {
		t.Errorf("journal %+v", e)
	}
	ev := waitEvent(t, rec, func(e client.ServerStateChanged) bool { return e.State == client.StateDisconnected })
	if !errors.Is(ev.Err, question.ErrDisconnected) {
		t.Errorf("state %+v", ev)
	}
	if got := rec.responsesTo("1"); len(got) != 0 {
		t.Errorf("answered a dead server: %+v", got)
	}
}

// TestHostileStdoutNoiseBeforeReady runs a real server process that prints
// a banner, an escape sequence and half a JSON object on stdout before it
// speaks MCP: the lines are refused as frames and the session works.
func TestHostileStdoutNoiseBeforeReady(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	tr := &transport.Stdio{
		Command: "/bin/sh",
		Args: []string{"-c", `echo "Server starting on stdio..."; printf '\033]52;c;ZXZpbA==\007\033[2J\n'; echo '{"jsonrpc":'; exec "$0" -test.run='^$'`,
			os.Args[0]},
		Env:      []string{matrixEnv + "=request"},
		Observer: rec, ShutdownGrace: 500 * time.Millisecond,
	}
	var mu sync.Mutex
	s := connectFixture(t, tr, &client.Options{Name: "noisy", Prompter: question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
		mu.Lock()
		defer mu.Unlock()
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"answer": "ok"}}
	})}, rec)
	res, err := s.CallTool(t.Context(), "ask", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text() != "accept ok" {
		t.Errorf("result %q", res.Text())
	}
	if n := len(rec.frameErrs()); n != 3 {
		t.Errorf("%d refused frames, want 3 (banner, escapes, half an object)", n)
	}
}
