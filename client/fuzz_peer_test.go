package client_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// End-to-end fuzzing of MRTR and task input handling: a scripted server
// over transport.PipeIO (stdio framing) answers tools/call, and then
// every retry, tasks/get and tasks/result, with the script's next line as
// the result (or, after a leading '!', as the error object), in order.
// Past the script a retry is answered complete, a tasks/get or
// tasks/result "unknown task" (-32602), so every run has an end.
//
//	go test -run '^$' -fuzz FuzzCallToolPeer -fuzztime 3m ./client

// fuzzCallBound is the call's own deadline; fuzzReturnBound is how soon
// after it started CallTool must have returned.
const (
	fuzzCallBound   = 250 * time.Millisecond
	fuzzReturnBound = 2 * time.Second
	// fuzzMaxLines bounds the script, so that one run stays cheap.
	fuzzMaxLines = 8
)

// fuzzDiscover is a 2026-07-28 server that declares the tasks extension.
const fuzzDiscover = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"fuzz-peer","version":"0"}}}`

// fuzzInitialize is a 2025-11-25 server with task-augmented tools/call.
const fuzzInitialize = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"fuzz-peer","version":"0"}}`

// scriptPeer is the scripted server. Unlike hostilePeer it speaks either
// era and answers by itself from its script.
type scriptPeer struct {
	w    io.WriteCloser
	r    io.ReadCloser
	done chan struct{}

	mu     sync.Mutex
	script [][]byte
	bad    []string          // frames of the client's that did not decode
	calls  []json.RawMessage // params of each tools/call, in order
}

func newScriptPeer(script [][]byte) (*scriptPeer, transport.Conn) {
	conn, sr, sw := transport.PipeIO(nil)
	p := &scriptPeer{w: sw, r: sr, done: make(chan struct{}), script: script}
	go p.readLoop()
	return p, conn
}

func (p *scriptPeer) close() {
	_ = p.w.Close()
	_ = p.r.Close()
	<-p.done
}

// next pops the script's next line; ok is false past its end.
func (p *scriptPeer) next() (line []byte, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.script) == 0 {
		return nil, false
	}
	line, p.script = p.script[0], p.script[1:]
	return line, true
}

func (p *scriptPeer) readLoop() {
	defer close(p.done)
	br := bufio.NewReaderSize(p.r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return
		}
		m, err := jsonrpc.Decode(line)
		if err != nil {
			p.mu.Lock()
			p.bad = append(p.bad, string(line))
			p.mu.Unlock()
			continue
		}
		if m.Kind() != jsonrpc.KindRequest {
			continue // notifications/initialized, cancelled, stray answers
		}
		id, _ := json.Marshal(m.ID)
		switch m.Method {
		case "server/discover":
			p.result(id, []byte(fuzzDiscover))
		case "initialize":
			p.result(id, []byte(fuzzInitialize))
		case "ping":
			p.result(id, []byte(`{}`))
		case "tools/call", "tasks/get", "tasks/result":
			if m.Method == "tools/call" {
				p.mu.Lock()
				p.calls = append(p.calls, m.Params)
				p.mu.Unlock()
			}
			line, ok := p.next()
			switch {
			case !ok && m.Method == "tools/call":
				p.result(id, []byte(`{"resultType":"complete","content":[{"type":"text","text":"end of script"}]}`))
			case !ok:
				p.raw(id, `"error":{"code":-32602,"message":"unknown task"}`)
			case len(line) > 0 && line[0] == '!':
				p.raw(id, `"error":`+string(line[1:]))
			default:
				p.result(id, line)
			}
		case "tasks/update", "tasks/cancel":
			p.result(id, []byte(`{"resultType":"complete"}`))
		default:
			p.raw(id, `"error":{"code":-32601,"message":"method not found"}`)
		}
	}
}

func (p *scriptPeer) result(id, result []byte) { p.raw(id, `"result":`+string(result)) }

// raw writes one response frame around member, whatever its bytes.
func (p *scriptPeer) raw(id []byte, member string) {
	_, _ = p.w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(id) + `,` + member + "}\n"))
}

// connectScript connects a session, of 2026-07-28 when modern or else
// 2025-11-25, to a scriptPeer playing script. Both end when t does.
func connectScript(t testing.TB, script [][]byte, modern bool, prompter question.Prompter) (*client.Session, *scriptPeer) {
	t.Helper()
	p, conn := newScriptPeer(script)
	t.Cleanup(p.close)
	opts := &client.Options{Name: "fuzz", Protocol: wire.Protocol2025_11_25, Prompter: prompter}
	if modern {
		opts.Protocol = wire.Protocol2026_07_28
	}
	ctx, cancel := context.WithTimeout(context.Background(), fuzzReturnBound)
	defer cancel()
	s, err := client.Connect(ctx, connTransport{conn}, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, p
}

// lines splits a script written one answer per line.
func lines(script ...string) [][]byte {
	out := make([][]byte, len(script))
	for i, l := range script {
		out[i] = []byte(l)
	}
	return out
}

// peerSeeds are scripts, one answer per line: an MRTR call of two
// rounds, one that only sheds load, the extension's task with a question
// then a result, a failed one, a 2025-11-25 task, and broken answers.
var peerSeeds = []string{
	`{"resultType":"input_required","inputRequests":{"dates":{"method":"elicitation/create","params":{"mode":"form","message":"question dates","requestedSchema":{"type":"object","properties":{"dates":{"type":"string","default":"tomorrow"}},"required":["dates"]}}},"room":{"method":"elicitation/create","params":{"message":"question room","requestedSchema":{"type":"object","properties":{"room":{"type":"string"}},"required":["room"]}}}},"requestState":"round-1 <&> \"quoted\" é ☃"}
{"resultType":"input_required","inputRequests":{"confirm":{"method":"elicitation/create","params":{"mode":"url","message":"confirm","url":"https://example.com/c"}}},"requestState":{ "r" : 2 }}
{"resultType":"complete","content":[{"type":"text","text":"booked"}]}`,
	`{"resultType":"input_required","requestState":"shed"}
{"resultType":"input_required","requestState":"shed"}
{"resultType":"input_required","inputRequests":{"s":{"method":"sampling/createMessage","params":{}}}}`,
	`{"resultType":"task","taskId":"t1","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":60000,"pollIntervalMs":10}
{"resultType":"complete","taskId":"t1","status":"input_required","lastUpdatedAt":"2026-07-28T10:00:01Z","pollIntervalMs":10,"inputRequests":{"name":{"method":"elicitation/create","params":{"mode":"form","message":"Please enter your name.","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"Luca"}},"required":["name"]}}}}}
{"resultType":"complete","taskId":"t1","status":"input_required","lastUpdatedAt":"2026-07-28T10:00:02Z","pollIntervalMs":10,"inputRequests":{"name":{"method":"elicitation/create","params":{"mode":"form","message":"Please enter your name.","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"Luca"}},"required":["name"]}}}}}
{"resultType":"complete","taskId":"t1","status":"completed","lastUpdatedAt":"2026-07-28T10:00:03Z","pollIntervalMs":10,"result":{"content":[{"type":"text","text":"Hello, Luca!"}],"isError":false}}`,
	`{"resultType":"task","taskId":"t2","status":"working","pollIntervalMs":1}
{"resultType":"complete","taskId":"t2","status":"failed","statusMessage":"boom","error":{"code":-32603,"message":"internal"}}`,
	`{"resultType":"task","taskId":"t3","status":"working","pollIntervalMs":1}
!{"code":-32603,"message":"flaky"}
{"resultType":"complete","taskId":"t3","status":"cancelled"}`,
	`{"task":{"taskId":"c1","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":60000,"pollInterval":10},"_meta":{"io.modelcontextprotocol/model-immediate-response":"started"}}
{"taskId":"c1","status":"completed","lastUpdatedAt":"2025-11-25T10:30:01Z","ttl":60000,"pollInterval":10}
{"content":[{"type":"text","text":"core done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"c1"}}}`,
	`{"task":{"taskId":"c2","status":"working","ttl":"60000","pollInterval":10}}
{"taskId":"c2","status":"failed","pollInterval":10}
!{"code":-32000,"message":"tool failed"}`,
	`!{"code":-32602,"message":"no such tool"}`,
	`{"resultType":"input_required","inputRequests":{"a":`,
	`{"resultType":"mystery"}`,
}

// FuzzCallToolPeer runs CallTool against a scripted server of either
// era, with AcceptDefaults or DeclineAll. Properties: no panic; CallTool
// returns within fuzzReturnBound with a result or an error, never both
// and never neither; an error names the server; a deadline is never
// reported as a cancel; afterwards no request is left pending either way
// and the session lives; every frame the client wrote decodes.
func FuzzCallToolPeer(f *testing.F) {
	for _, s := range peerSeeds {
		for _, modern := range []bool{true, false} {
			f.Add([]byte(s), modern, true)
		}
	}
	f.Add([]byte(peerSeeds[0]), true, false)
	f.Add([]byte(peerSeeds[2]), true, false)
	f.Fuzz(func(t *testing.T, script []byte, modern, accept bool) {
		steps := bytes.Split(script, []byte("\n"))
		if len(steps) > fuzzMaxLines {
			steps = steps[:fuzzMaxLines]
		}
		prompter := question.DeclineAll
		if accept {
			prompter = question.AcceptDefaults
		}
		s, p := connectScript(t, steps, modern, prompter)

		ctx, cancel := context.WithTimeout(context.Background(), fuzzCallBound)
		defer cancel()
		type outcome struct {
			res *wire.CallToolResult
			err error
		}
		done := make(chan outcome, 1)
		go func() {
			res, err := s.CallTool(ctx, "fuzz", nil, &client.CallOptions{TaskSupport: client.TaskSupportRequired})
			done <- outcome{res, err}
		}()
		var out outcome
		select {
		case out = <-done:
		case <-time.After(fuzzReturnBound):
			t.Fatalf("CallTool did not return within %v", fuzzReturnBound)
		}
		switch {
		case out.err == nil && out.res == nil:
			t.Fatal("CallTool returned neither a result nor an error")
		case out.err != nil && out.res != nil:
			t.Fatalf("CallTool returned a result and %v", out.err)
		case out.err != nil && !strings.Contains(out.err.Error(), " on fuzz"):
			t.Fatalf("CallTool failed without context: %v", out.err)
		case errors.Is(out.err, context.Canceled):
			t.Fatalf("a deadline reported as a cancel: %v", out.err)
		}
		if testing.Verbose() && out.res != nil {
			t.Logf("result %q", out.res.Text())
		} else if testing.Verbose() {
			t.Logf("error: %v", out.err)
		}

		deadline := time.Now().Add(fuzzReturnBound)
		for {
			o, i := s.Pending()
			if o == 0 && i == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("Pending (%d, %d) %v after CallTool returned", o, i, fuzzReturnBound)
			}
			time.Sleep(time.Millisecond) // the interval of a poll of Pending
		}
		if err := s.Err(); err != nil {
			t.Fatalf("the session ended: %v", err)
		}
		_ = s.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.bad) > 0 {
			t.Fatalf("the client wrote frames that do not decode: %q", p.bad)
		}
	})
}
