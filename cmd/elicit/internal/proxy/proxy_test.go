package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// rig is a proxy between a host and a server the test plays, each over an
// in-memory pipe.
type rig struct {
	host, server transport.Conn // the test's ends
	notices      chan string
	done         chan error
}

func newRig(t *testing.T, cfg Config) *rig {
	t.Helper()
	host, proxyHost := transport.Pipe(nil)
	proxyServer, server := transport.Pipe(nil)
	r := &rig{host: host, server: server, notices: make(chan string, 16), done: make(chan error, 1)}
	cfg.Host, cfg.Server = proxyHost, proxyServer
	cfg.Name = "srv"
	cfg.Notice = func(s string) {
		select {
		case r.notices <- s:
		default:
		}
	}
	go func() { r.done <- Run(context.Background(), cfg) }()
	t.Cleanup(func() {
		_ = host.Close()
		<-r.done
		_ = server.Close()
	})
	return r
}

func send(t *testing.T, c transport.Conn, raw string) {
	t.Helper()
	parts := jsonrpc.DecodeFrame([]byte(raw))
	if len(parts) != 1 || parts[0].Err != nil {
		t.Fatalf("bad test frame %s", raw)
	}
	if err := c.Write(t.Context(), parts[0].Msg, nil); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, c transport.Conn) *jsonrpc.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	in, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return in.Msg
}

const testMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}}}`

// TestHostCancelReachesElicitsRetry: in 2026-07-28, while elicit's retry
// of a round it completed for the host is at the server, the host's
// cancellation of its call reaches the server under the retry's id (the
// one the server knows), not the host's, which the server has answered.
func TestHostCancelReachesElicitsRetry(t *testing.T) {
	r := newRig(t, Config{Elicit: question.AcceptDefaults, Modes: question.Modes{Form: true}})
	send(t, r.host, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t",`+testMeta+`}}`)
	call := read(t, r.server)
	if call.ID.String() != "5" || !strings.Contains(string(call.Params), `"elicitation":{"form":{}}`) || !strings.Contains(string(call.Params), `"sampling":{}`) {
		t.Fatalf("server got %s %s: want the host's id, its sampling and form filled in", call.ID, call.Params)
	}
	send(t, r.server, `{"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required","requestState":"s<1>",`+
		`"inputRequests":{"a":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"n":{"type":"string","default":"x"}}}}}}}}`)
	retry := read(t, r.server)
	if !retry.ID.IsString() || !strings.HasPrefix(retry.ID.Raw(), "elicit-proxy-") ||
		!strings.Contains(string(retry.Params), `"inputResponses":{"a":{"action":"accept","content":{"n":"x"}}}`) ||
		!strings.Contains(string(retry.Params), `"requestState":"s<1>"`) {
		t.Fatalf("retry %s %s: want elicit's id, the answer and requestState echoed exactly", retry.ID, retry.Params)
	}
	send(t, r.host, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"r"}}`)
	cancel := read(t, r.server)
	if cancel.Method != "notifications/cancelled" || string(cancel.Params) != `{"reason":"r","requestId":`+retry.ID.String()+`}` {
		t.Fatalf("server got %s %s: want the cancel of the retry %s", cancel.Method, cancel.Params, retry.ID)
	}
}

// TestHostAnswerToNothingDropped: a response from the host to a request
// the server never sent it (one elicit answers, or none) is not passed
// on: the server would get two answers, or one it never asked for.
func TestHostAnswerToNothingDropped(t *testing.T) {
	r := newRig(t, Config{})
	send(t, r.host, `{"jsonrpc":"2.0","id":99,"result":{"action":"accept"}}`)
	send(t, r.host, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if m := read(t, r.server); m.Method != "ping" {
		t.Fatalf("server got %v: want the ping, the stray answer dropped", m)
	}
	if n := <-r.notices; !strings.Contains(n, "never sent") {
		t.Errorf("notice %q", n)
	}
}

// TestServerGoneClosesHost: the server going away ends Run with why and
// the host's end sees its server gone.
func TestServerGoneClosesHost(t *testing.T) {
	r := newRig(t, Config{})
	_ = r.server.Close()
	if err := <-r.done; err == nil || !strings.Contains(err.Error(), "went away") {
		t.Errorf("Run: %v", err)
	}
	r.done <- nil // for the cleanup
	if _, err := r.host.Read(t.Context()); err == nil {
		t.Error("the host's end still open")
	}
}

// TestOwnIDsStepOverTheHosts: an id of elicit's own that the host has
// used is skipped.
func TestOwnIDsStepOverTheHosts(t *testing.T) {
	o := newOwnIDs()
	o.hostUsed(jsonrpc.StringID(o.prefix + "1"))
	id, _ := o.next()
	if id.Raw() != o.prefix+"2" {
		t.Errorf("next %s: want %s2", id, o.prefix)
	}
}

// TestAddCaps: only what is filled in is added; an elicitation object
// that declared form by being empty says form out loud once url joins.
func TestAddCaps(t *testing.T) {
	for _, tc := range []struct {
		host string
		fill caps
		want string
	}{
		{`{}`, caps{form: true, url: true, sampling: true}, `{"elicitation":{"form":{},"url":{}},"sampling":{}}`},
		{`{"elicitation":{}}`, caps{url: true}, `{"elicitation":{"form":{},"url":{}}}`},
		{`{"elicitation":{"form":{"x":1}}}`, caps{url: true}, `{"elicitation":{"form":{"x":1},"url":{}}}`},
		{`{"elicitation":{"url":{}},"experimental":{"a":"<b>"}}`, caps{form: true, roots: true}, `{"elicitation":{"form":{},"url":{}},"experimental":{"a":"<b>"},"roots":{}}`},
		{``, caps{sampling: true}, `{"sampling":{}}`},
	} {
		got, err := addCaps(json.RawMessage(tc.host), tc.fill)
		if err != nil || string(got) != tc.want {
			t.Errorf("addCaps(%s, %+v) = %s, %v; want %s", tc.host, tc.fill, got, err, tc.want)
		}
		if d := readCaps(got); d != readCaps(json.RawMessage(tc.host)).or(tc.fill) {
			t.Errorf("addCaps(%s, %+v) declares %+v", tc.host, tc.fill, d)
		}
	}
}

// TestRootsFilledInAnswered: a host that declares no roots, elicit given
// some: the server is told roots, and its roots/list is answered by
// elicit under the server's id, never reaching the host; a host that
// declares roots gets the server's roots/list itself.
func TestRootsFilledInAnswered(t *testing.T) {
	roots := json.RawMessage(`{"roots":[{"uri":"file:///w","name":"w"}]}`)
	t.Run("filled", func(t *testing.T) {
		r := newRig(t, Config{Roots: roots})
		send(t, r.host, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`)
		if m := read(t, r.server); string(m.Params) != `{"capabilities":{"roots":{}},"clientInfo":{"name":"h","version":"1"},"protocolVersion":"2025-11-25"}` {
			t.Fatalf("initialize sent %s", m.Params)
		}
		send(t, r.server, `{"jsonrpc":"2.0","id":"r1","method":"roots/list"}`)
		if m := read(t, r.server); m.ID.String() != `"r1"` || string(m.Result) != string(roots) {
			t.Fatalf("server got %s %s: want elicit's roots under its own id", m.ID, m.Result)
		}
	})
	t.Run("declared", func(t *testing.T) {
		r := newRig(t, Config{Roots: roots})
		send(t, r.host, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"h","version":"1"}}}`)
		if m := read(t, r.server); !strings.Contains(string(m.Params), `"capabilities":{"roots":{"listChanged":true}}`) {
			t.Fatalf("initialize sent %s: want the host's capabilities as they were", m.Params)
		}
		send(t, r.server, `{"jsonrpc":"2.0","id":"r1","method":"roots/list"}`)
		if m := read(t, r.host); m.Method != "roots/list" || m.ID.String() != `"r1"` {
			t.Fatalf("host got %v: want the server's roots/list", m)
		}
		send(t, r.host, `{"jsonrpc":"2.0","id":"r1","result":{"roots":[]}}`)
		if m := read(t, r.server); m.ID.String() != `"r1"` || string(m.Result) != `{"roots":[]}` {
			t.Fatalf("server got %s %s: want the host's answer", m.ID, m.Result)
		}
	})
}

// TestHostFindings: the host's violations are findings marked as the
// host's: answering an elicitation of a mode it did not declare, an
// answer of the wrong shape, an answer to a request it was never sent.
// Its answers still reach the server (what the server does with them is
// what is tried); the unasked one does not.
func TestHostFindings(t *testing.T) {
	rec := findings.NewRecorder(nil)
	r := newRig(t, Config{Findings: rec}) // fills in nothing
	send(t, r.host, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`)
	read(t, r.server)
	const ask = `{"jsonrpc":"2.0","id":"%s","method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}`
	for _, tc := range []struct{ id, answer string }{
		{"e1", `{"action":"accept","content":{}}`},
		{"e2", `{"action":"ok"}`},
	} {
		send(t, r.server, fmt.Sprintf(ask, tc.id))
		if m := read(t, r.host); m.ID.Raw() != tc.id {
			t.Fatalf("host got %v: want the server's %s", m, tc.id)
		}
		send(t, r.host, `{"jsonrpc":"2.0","id":"`+tc.id+`","result":`+tc.answer+`}`)
		if m := read(t, r.server); m.ID.Raw() != tc.id || string(m.Result) != tc.answer {
			t.Fatalf("server got %s %s: want the host's answer as it was", m.ID, m.Result)
		}
	}
	send(t, r.host, `{"jsonrpc":"2.0","id":"e9","result":{"action":"accept"}}`)
	send(t, r.host, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if m := read(t, r.server); m.Method != "ping" {
		t.Fatalf("server got %v: want the ping, the unasked answer dropped", m)
	}
	want := map[string][]string{findings.HostElicitUndeclared: {"e1", "e2"}, findings.HostReplyShape: {"e2"}, findings.HostAnswerUnasked: {"e9"}}
	got := map[string][]string{}
	for _, f := range rec.All() {
		if f.Party != findings.PartyHost || f.Server != "srv" || f.Version != "2025-11-25" {
			t.Errorf("finding %+v: want the host's, talking to srv in 2025-11-25", f)
		}
		got[f.Rule] = append(got[f.Rule], f.Frame.ID)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("findings %v: want %v", got, want)
	}
}

// TestSharedRound: in 2026-07-28 a round that asks the host for what it
// declared (form) and elicit for what it filled in (url): the host gets
// the round with its own input request only, under its id, and its retry
// reaches the server with elicit's answer joined. Each input request is
// answered by one side.
func TestSharedRound(t *testing.T) {
	r := newRig(t, Config{Elicit: question.AcceptAll, Modes: question.Modes{Form: true, URL: true}})
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}`
	send(t, r.host, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t",`+meta+`}}`)
	if m := read(t, r.server); !strings.Contains(string(m.Params), `"elicitation":{"form":{},"url":{}}`) {
		t.Fatalf("server got %s: want url filled in beside the host's form", m.Params)
	}
	send(t, r.server, `{"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required","requestState":"st","inputRequests":{`+
		`"f":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}},`+
		`"u":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://example.com/x"}}}}}`)
	got := read(t, r.host)
	var res struct {
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	_ = json.Unmarshal(got.Result, &res)
	if got.ID.String() != "5" || len(res.InputRequests) != 1 || res.InputRequests["f"] == nil || res.RequestState != "st" {
		t.Fatalf("host got %s %s: want its own input request f only, under its id", got.ID, got.Result)
	}
	send(t, r.host, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"t",`+meta+
		`,"inputResponses":{"f":{"action":"accept","content":{}}},"requestState":"st"}}`)
	retry := read(t, r.server)
	if retry.ID.String() != "6" || !strings.Contains(string(retry.Params), `"inputResponses":{"f":{"action":"accept","content":{}},"u":{"action":"accept"}}`) {
		t.Fatalf("server got %s %s: want the host's retry with elicit's answer to u joined", retry.ID, retry.Params)
	}
}
