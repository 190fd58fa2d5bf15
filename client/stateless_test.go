package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// discoverResult is what a hand-driven 2026-07-28 peer answers the probe.
const discoverResult = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},"instructions":"stateless","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern-peer","version":"0.3"}}}`

// modernPeer connects a session to a hand-driven 2026-07-28 peer over
// transport.Pipe (stdio framing); the peer answers server/discover.
func modernPeer(t *testing.T, opts *client.Options, rec *recorder) (*client.Session, *peer) {
	t.Helper()
	s, p, _ := connectPeer(t, "modern", opts, rec, func(sc transport.Conn) {
		m, err := sc.Read(context.Background())
		if err != nil || m.Method != "server/discover" {
			return
		}
		_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(discoverResult)})
	})
	return s, p
}

// callAsync calls tool and reports its text or error.
func callAsync(ctx context.Context, s *client.Session, tool string) chan string {
	done := make(chan string, 1)
	go func() {
		res, err := s.CallTool(ctx, tool, nil, nil)
		if err != nil {
			done <- "error " + err.Error()
			return
		}
		done <- res.Text()
	}()
	return done
}

// params decodes a request's params into members, bytes kept.
func params(t *testing.T, m *jsonrpc.Message) map[string]json.RawMessage {
	t.Helper()
	var p map[string]json.RawMessage
	if err := json.Unmarshal(m.Params, &p); err != nil {
		t.Fatalf("params %s: %v", m.Params, err)
	}
	return p
}

func TestStatelessMetaOnEveryRequest(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := modernPeer(t, &client.Options{Elicit: client.ElicitForm, ClientInfo: wire.Implementation{Name: "elicit", Version: "9"}}, rec)
	if s.Era() != "2026-07-28 stateless" || s.Protocol() != "2026-07-28" || s.ServerInfo().Name != "modern-peer" ||
		s.Instructions() != "stateless" || !s.ServerCapabilities().ToolsListChanged {
		t.Errorf("era %q protocol %q info %+v instructions %q caps %+v", s.Era(), s.Protocol(), s.ServerInfo(), s.Instructions(), s.ServerCapabilities())
	}
	waitEvent(t, rec, func(e client.ServerStateChanged) bool {
		return e.State == client.StateReady && e.Era == "2026-07-28 stateless"
	})
	if err := s.SetLogLevel(t.Context(), "debug"); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(t.Context()); !errors.Is(err, client.ErrNoPing) {
		t.Errorf("Ping: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := s.ListTools(context.Background()); done <- err }()
	req := p.expect("tools/list")
	want := `{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}},"io.modelcontextprotocol/clientInfo":{"name":"elicit","version":"9"},"io.modelcontextprotocol/logLevel":"debug","io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	if got := string(params(t, req)["_meta"]); got != want {
		t.Errorf("_meta %s\nwant  %s", got, want)
	}
	p.respond(req.ID, `{"resultType":"complete","tools":[{"name":"x","inputSchema":{"type":"object"}}]}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// No handshake of the stateful era went out.
	for _, m := range rec.out() {
		switch m.Method {
		case "initialize", "notifications/initialized", "ping", "logging/setLevel":
			t.Errorf("sent %s in 2026-07-28", m.Method)
		}
	}
}

func TestRequestStateEchoedByteForByte(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := modernPeer(t, &client.Options{Prompter: question.AcceptDefaults}, rec)
	done := make(chan string, 1)
	go func() {
		res, err := s.CallTool(context.Background(), "wizard", map[string]any{"q": 1}, nil)
		if err != nil {
			done <- "error " + err.Error()
			return
		}
		done <- res.Text()
	}()
	req := p.expect("tools/call")
	orig := params(t, req)
	// Escapes a decoder would resolve and an encoder would write otherwise.
	state := `"a\/b \u00e9 <&> é \"q\""`
	ask := `{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"n":{"type":"string","default":"d"}}}}}`
	p.respond(req.ID, `{"resultType":"input_required","inputRequests":{"k1":`+ask+`},"requestState":`+state+`}`)

	r2 := p.expect("tools/call")
	got := params(t, r2)
	if !bytes.Equal(got["requestState"], []byte(state)) {
		t.Errorf("requestState echoed as %s, want %s", got["requestState"], state)
	}
	if string(got["inputResponses"]) != `{"k1":{"action":"accept","content":{"n":"d"}}}` {
		t.Errorf("inputResponses %s", got["inputResponses"])
	}
	if r2.ID == req.ID || string(got["arguments"]) != `{"q":1}` || string(got["arguments"]) != string(orig["arguments"]) || string(got["name"]) != `"wizard"` {
		t.Errorf("retry %s reuses the id or lost the params of %s", r2.Params, req.Params)
	}
	// Round 2 has no requestState: the retry carries none.
	p.respond(r2.ID, `{"resultType":"input_required","inputRequests":{"k2":`+ask+`}}`)
	r3 := p.expect("tools/call")
	if got := params(t, r3); got["requestState"] != nil || string(got["inputResponses"]) != `{"k2":{"action":"accept","content":{"n":"d"}}}` {
		t.Errorf("round 3 params %s", r3.Params)
	}
	// Round 3 asks nothing (load shedding): retried at once, state only.
	p.respond(r3.ID, `{"resultType":"input_required","requestState":"later"}`)
	r4 := p.expect("tools/call")
	if got := params(t, r4); string(got["requestState"]) != `"later"` || got["inputResponses"] != nil {
		t.Errorf("round 4 params %s", r4.Params)
	}
	p.respond(r4.ID, `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`)
	if got := <-done; got != "done" {
		t.Fatalf("result %q", got)
	}
	entries := waitJournal(t, s, 2)
	if entries[0].Key.CallID != req.ID || entries[1].Key.CallID != req.ID || entries[0].Key.Input != "k1" || entries[1].Key.Input != "k2" {
		t.Errorf("keys %v, %v; want call %s", entries[0].Key, entries[1].Key, req.ID)
	}
}

func TestUnsupportedInputKindsAreShownNotAnswered(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := modernPeer(t, &client.Options{Prompter: question.DeclineAll}, rec)
	done := callAsync(context.Background(), s, "mixed")
	req := p.expect("tools/call")
	p.respond(req.ID, `{"resultType":"input_required","inputRequests":{
		"llm":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}},
		"fs":{"method":"roots/list","params":{}},
		"bad":{"method":"elicitation/create","params":{"message":"nested","requestedSchema":{"type":"object","properties":{"o":{"type":"object"}}}}},
		"ok":{"method":"elicitation/create","params":{"message":"fine","requestedSchema":{"type":"object","properties":{}}}}}}`)
	r2 := p.expect("tools/call")
	if got := string(params(t, r2)["inputResponses"]); got != `{"bad":{"action":"cancel"},"ok":{"action":"decline"}}` {
		t.Errorf("inputResponses %s", got)
	}
	p.respond(r2.ID, `{"content":[]}`) // resultType absent: complete
	if got := <-done; got != "" {
		t.Fatalf("result %q", got)
	}
	waitJournal(t, s, 4)
	kinds := map[string]question.OutcomeKind{}
	for _, e := range s.Journal().Entries() {
		kinds[e.Key.Input] = e.Kind
	}
	if kinds["llm"] != question.Invalid || kinds["fs"] != question.Invalid || kinds["bad"] != question.Invalid || kinds["ok"] != question.Decline {
		t.Errorf("journal %v", kinds)
	}
	waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "sampling/createMessage") })
	waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "roots/list") })
}

func TestStatelessErrorsAndResultTypes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, answer string
		code         int64
		want         []string
	}{
		{"missing capability", `{"code":-32021,"message":"needs url","data":{"requiredCapabilities":{"elicitation":{"url":{}},"sampling":{}}}}`,
			-32021, []string{"requires client capability elicitation.url, sampling", "did not declare"}},
		{"unsupported version", `{"code":-32022,"message":"no","data":{"supported":["2025-11-25"],"requested":"2026-07-28"}}`,
			-32022, []string{"does not speak protocol 2026-07-28", "2025-11-25"}},
		{"header mismatch", `{"code":-32020,"message":"Mcp-Name differs"}`, -32020, []string{"headers do not match", "Mcp-Name differs"}},
		{"unknown result type", `{"resultType":"later","task":{}}`, 0, []string{`resultType "later" is not supported`}},
		// "task" is the tasks extension's; one naming no task is invalid.
		{"task without an id", `{"resultType":"task","task":{}}`, 0, []string{"invalid response", "without a taskId"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, p := modernPeer(t, nil, nil)
			done := make(chan error, 1)
			go func() { _, err := s.CallTool(context.Background(), "x", nil, nil); done <- err }()
			req := p.expect("tools/call")
			if tc.code != 0 {
				var e jsonrpc.Error
				_ = json.Unmarshal([]byte(tc.answer), &e)
				p.send(jsonrpc.NewErrorResponse(req.ID, &e))
			} else {
				p.respond(req.ID, tc.answer)
			}
			err := <-done
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			var re *jsonrpc.Error
			if tc.code != 0 && (!errors.As(err, &re) || re.Code != tc.code) {
				t.Errorf("error %v does not unwrap to code %d", err, tc.code)
			}
			// -32022 naming no version we could switch to is not retried.
			if tc.code == -32022 {
				done := make(chan error, 1)
				go func() { _, err := s.ListTools(context.Background()); done <- err }()
				m := p.expect("tools/list")
				p.respond(m.ID, `{"tools":[]}`)
				if err := <-done; err != nil {
					t.Errorf("the session broke: %v", err)
				}
			}
		})
	}
}

func TestStatelessCancelOnStdio(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := modernPeer(t, nil, rec)
	ctx, cancel := context.WithCancel(t.Context())
	done := callAsync(ctx, s, "slow")
	req := p.expect("tools/call")
	cancel()
	if got := <-done; !strings.Contains(got, "context canceled") {
		t.Errorf("call %q", got)
	}
	n := p.expect("notifications/cancelled")
	if got := string(params(t, n)["requestId"]); got != req.ID.String() {
		t.Errorf("cancelled %s, want %s", n.Params, req.ID)
	}
}

func TestStatelessServerRequestIgnored(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p := modernPeer(t, &client.Options{Prompter: question.AcceptDefaults}, rec)
	p.sendRaw(jsonrpc.StringID("srv-1"), "elicitation/create", `{"message":"old style","requestedSchema":{"type":"object","properties":{}}}`)
	waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "servers send no requests") })
	// The session still works, and nothing answered the request.
	if _, err := listTools(s, p); err != nil {
		t.Fatal(err)
	}
	if got := rec.responsesTo(`"srv-1"`); len(got) != 0 {
		t.Errorf("answered a server request: %+v", got)
	}
	if c := s.Journal().Counts(); c.Total() != 0 {
		t.Errorf("journal %v", c)
	}
}

// listTools runs ListTools against a hand-driven peer that has no tools.
func listTools(s *client.Session, p *peer) ([]wire.Tool, error) {
	type ret struct {
		tools []wire.Tool
		err   error
	}
	done := make(chan ret, 1)
	go func() { ts, err := s.ListTools(context.Background()); done <- ret{ts, err} }()
	m := p.expect("tools/list")
	p.respond(m.ID, `{"resultType":"complete","tools":[]}`)
	r := <-done
	return r.tools, r.err
}
