package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// lintPeer is a hand-written server for the findings tests: raw JSON-RPC
// lines at the far end of transport.PipeIO (the stdio framing), each test
// committing one violation in its serve function. It answers the
// handshake of its era itself: a stateful one (server/discover refused,
// initialize answered with caps), or 2026-07-28 (server/discover answered).
type lintPeer struct {
	t        *testing.T
	w        io.WriteCloser
	r        io.ReadCloser
	mu       sync.Mutex
	modern   bool
	caps     string
	preInit  string // a raw line written before the initialize response
	discover string // the server/discover result, when not the usual one
	serve    func(p *lintPeer, m *jsonrpc.Message)
	grace    time.Duration // the Recorder's CancelGrace when set (50 ms when not)
	done     chan struct{}
}

// linted connects a session with a findings Recorder to a lintPeer; the
// transport's frames go to the Recorder too, as cmd/elicit wires them.
func linted(t *testing.T, p *lintPeer, opts *client.Options) (*client.Session, *findings.Recorder) {
	t.Helper()
	rec := findings.NewRecorder(nil)
	rec.CancelGrace = 50 * time.Millisecond
	if p.grace > 0 {
		rec.CancelGrace = p.grace
	}
	obs := transport.ObserverFuncs{OnFrame: func(f transport.Frame) { rec.Frame("lint", "", f.Dir == transport.In, f.Err, f.Time) }}
	conn, sr, sw := transport.PipeIO(obs)
	p.t, p.w, p.r, p.done = t, sw, sr, make(chan struct{})
	if p.caps == "" {
		p.caps = `{"tools":{"listChanged":true},"logging":{}}`
	}
	go p.readLoop()
	t.Cleanup(func() {
		_ = p.w.Close()
		_ = p.r.Close()
		<-p.done
	})
	if opts == nil {
		opts = &client.Options{}
	}
	opts.Name, opts.Findings = "lint", rec
	if opts.Prompter == nil {
		opts.Prompter = question.DeclineAll
	}
	ctx, cancel := context.WithTimeout(t.Context(), liveness)
	defer cancel()
	s, err := client.Connect(ctx, connTransport{conn}, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, rec
}

// lintedHTTP connects a session with a findings Recorder, over our HTTP
// transport, to a hand-written 2026-07-28 handler that answers each POST
// with JSON: server/discover with tools declared, tools/list with tools (a
// raw JSON array), anything else with an empty complete result. When twice,
// tools/list is answered with a JSON batch of two copies of its response.
// onFrame, when not nil, sees each frame after the Recorder did.
func lintedHTTP(t *testing.T, tools string, twice bool, onFrame func(transport.Frame)) (*client.Session, *findings.Recorder) {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m, err := jsonrpc.Decode(body)
		if err != nil || !m.ID.IsValid() {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := `{"resultType":"complete"}`
		switch m.Method {
		case "server/discover":
			result = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`
		case "tools/list":
			result = `{"resultType":"complete","tools":` + tools + `}`
		}
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": json.RawMessage(result)})
		if twice && m.Method == "tools/list" {
			b = []byte("[" + string(b) + "," + string(b) + "]")
		}
		_, _ = w.Write(b)
	})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	rec := findings.NewRecorder(nil)
	frames := transport.ObserverFuncs{OnFrame: func(f transport.Frame) {
		rec.Frame("lint", "", f.Dir == transport.In, f.Err, f.Time)
		if onFrame != nil {
			onFrame(f)
		}
	}}
	s, err := client.Connect(t.Context(), &transport.HTTP{URL: ts.URL, Observer: frames},
		&client.Options{Name: "lint", Findings: rec, Prompter: question.DeclineAll})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, rec
}

func (p *lintPeer) readLoop() {
	defer close(p.done)
	br := bufio.NewReaderSize(p.r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return
		}
		m, err := jsonrpc.Decode(line)
		if err != nil {
			p.t.Errorf("the client wrote a bad frame %q: %v", line, err)
			continue
		}
		switch {
		case m.Method == "server/discover" && p.discover != "":
			p.result(m.ID, p.discover)
		case m.Method == "server/discover" && p.modern:
			p.result(m.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":`+p.caps+`,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"lint","version":"1"}}}`)
		case m.Method == "server/discover":
			p.line(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, m.ID))
		case m.Method == "initialize":
			if p.preInit != "" {
				p.line(p.preInit)
			}
			p.result(m.ID, `{"protocolVersion":"2025-11-25","capabilities":`+p.caps+`,"serverInfo":{"name":"lint","version":"1"}}`)
		case m.Method == "notifications/initialized":
		case m.Method == "ping":
			if p.serve != nil {
				p.serve(p, m)
			} else {
				p.result(m.ID, `{}`)
			}
		case p.serve != nil:
			p.serve(p, m)
		case m.ID.IsValid():
			p.result(m.ID, `{}`)
		}
	}
}

// line writes one raw line.
func (p *lintPeer) line(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, _ = p.w.Write([]byte(s + "\n"))
}

// result answers id with a raw result.
func (p *lintPeer) result(id jsonrpc.ID, result string) {
	p.line(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result))
}

// rules is the set of rule ids rec holds, sorted.
func rules(rec *findings.Recorder) []string {
	var out []string
	for _, f := range rec.All() {
		if !slices.Contains(out, f.Rule) {
			out = append(out, f.Rule)
		}
	}
	slices.Sort(out)
	return out
}

// expectFindings waits until rec holds each of want, then checks, after a
// round trip that lets anything still in flight land, that it holds
// nothing else.
func expectFindings(t *testing.T, s *client.Session, rec *findings.Recorder, want ...string) []findings.Finding {
	t.Helper()
	waitFor(t, fmt.Sprintf("findings %v", want), func() bool {
		got := rules(rec)
		for _, w := range want {
			if !slices.Contains(got, w) {
				return false
			}
		}
		return true
	})
	if s.Protocol() != "2026-07-28" { // no ping in 2026-07-28
		ctx, cancel := context.WithTimeout(t.Context(), liveness)
		_ = s.Ping(ctx)
		cancel()
	}
	slices.Sort(want)
	if got := rules(rec); !slices.Equal(got, want) {
		t.Fatalf("findings %v, want exactly %v:\n%s", got, want, dump(rec))
	}
	all := rec.All()
	for _, f := range all {
		if f.Server != "lint" || f.Fix == "" || f.Section == "" || f.Detail == "" || f.Frame.Time.IsZero() {
			t.Errorf("finding lacks its parts: %+v", f)
		}
	}
	return all
}

func dump(rec *findings.Recorder) string {
	var b strings.Builder
	for _, f := range rec.All() {
		fmt.Fprintf(&b, "  %s %s: %s (frame %+v)\n", f.Severity, f.Rule, f.Detail, f.Frame)
	}
	return b.String()
}

// callTool calls name in the background; the result does not matter.
func callTool(t *testing.T, s *client.Session, name string) chan error {
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(t.Context(), liveness)
		defer cancel()
		_, err := s.CallTool(ctx, name, nil, nil)
		done <- err
	}()
	return done
}

// askDuringCall is a serve function that, on tools/call, sends the raw
// request req and answers the call once the client answered req, or at
// once when answered is false.
func askDuringCall(req string, answered bool) func(p *lintPeer, m *jsonrpc.Message) {
	var call jsonrpc.ID
	return func(p *lintPeer, m *jsonrpc.Message) {
		switch {
		case m.Method == "tools/call":
			call = m.ID
			p.line(req)
			if !answered {
				p.result(call, `{"content":[]}`)
			}
		case m.Kind() == jsonrpc.KindResponse && answered:
			p.result(call, `{"content":[]}`)
		case m.ID.IsValid() && m.Method != "":
			p.result(m.ID, `{}`)
		}
	}
}
