package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// formArgs is the input of the "form" tool.
type formArgs struct{}

// newFormServer has a tool "form" that elicits a form whose every field
// has a default and returns the content it got as JSON.
func newFormServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "form-server", Version: "1"}, legacyOpts(nil))
	mcp.AddTool(srv, &mcp.Tool{Name: "form"}, func(ctx context.Context, req *mcp.CallToolRequest, _ formArgs) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
			Message: "Deploy settings",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{
				"env":{"type":"string","enum":["staging","prod"],"default":"staging"},
				"replicas":{"type":"integer","minimum":1,"default":2},
				"confirm":{"type":"boolean","default":true}},
				"required":["env","replicas"]}`),
		})
		if err != nil {
			return nil, nil, err
		}
		b, _ := json.Marshal(res.Content)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Action + " " + string(b)}}}, nil, nil
	})
	return srv
}

func TestConnectListCallAcceptDefaults(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s := servePipe(t, newFormServer(), &client.Options{Name: "demo", Prompter: question.AcceptDefaults}, rec)

	if got := s.Protocol(); got != wire.Protocol2025_11_25 {
		t.Errorf("Protocol() = %q, want %q", got, wire.Protocol2025_11_25)
	}
	if got := s.ServerInfo().Name; got != "form-server" {
		t.Errorf("ServerInfo().Name = %q", got)
	}
	if !s.ServerCapabilities().Tools {
		t.Errorf("ServerCapabilities().Tools = false, caps %s", s.ServerCapabilities().Raw)
	}
	if s.Subset() != schema.Subset2025_11_25 {
		t.Errorf("Subset() = %v", s.Subset())
	}
	tools, err := s.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || tools[0].Name != "form" || len(tools[0].InputSchema) == 0 {
		t.Fatalf("ListTools = %+v", tools)
	}
	res, err := s.CallTool(t.Context(), "form", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := `accept {"confirm":true,"env":"staging","replicas":2}`; res.Text() != want {
		t.Errorf("result %q, want %q", res.Text(), want)
	}
	// On the wire: exactly the defaults, as an accept.
	var answers []string
	for _, m := range rec.out() {
		if m.Method == "" && m.Result != nil && strings.Contains(string(m.Result), "action") {
			answers = append(answers, string(m.Result))
		}
	}
	if want := []string{`{"action":"accept","content":{"confirm":true,"env":"staging","replicas":2}}`}; !cmp.Equal(answers, want) {
		t.Errorf("answers on the wire %q, want %q", answers, want)
	}
	// The era probe came first; the server speaks only stateful versions,
	// so initialize followed, declaring both modes and the tasks we list,
	// cancel and run (task-augmented elicitation), nothing else.
	frames := rec.out()
	if len(frames) < 2 || frames[0].Method != "server/discover" || frames[1].Method != "initialize" {
		t.Fatalf("first frames %q, %q; want server/discover, initialize", frames[0].Method, frames[1].Method)
	}
	init := frames[1]
	var ip struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
	}
	_ = json.Unmarshal(init.Params, &ip)
	if ip.ProtocolVersion != "2025-11-25" || string(ip.Capabilities) != `{"elicitation":{"form":{},"url":{}},"tasks":{"cancel":{},"list":{},"requests":{"elicitation":{"create":{}}}}}` {
		t.Errorf("initialize offered %s with %s", ip.ProtocolVersion, ip.Capabilities)
	}
	waitJournal(t, s, 1)
	c := s.Journal().Counts()
	if c[question.Accept] != 1 || c.Total() != 1 {
		t.Errorf("journal counts %v", c)
	}
	waitEvent(t, rec, func(e client.ServerStateChanged) bool {
		return e.State == client.StateReady && e.Protocol == "2025-11-25" && e.Era == "2025-11-25 stateful"
	})
}

func TestDeclaredCapabilities(t *testing.T) {
	t.Parallel()
	none := []client.Root{}
	for _, tc := range []struct {
		protocol string
		modes    client.ElicitModes
		roots    []client.Root
		want     string
	}{
		// 2025-11-25 adds the tasks we list and cancel (tasks*.go), and
		// run for the server when we declare elicitation (receiver.go).
		{"", client.ElicitBoth, nil, `{"elicitation":{"form":{},"url":{}},"tasks":{"cancel":{},"list":{},"requests":{"elicitation":{"create":{}}}}}`},
		{"", client.ElicitForm, nil, `{"elicitation":{"form":{}},"tasks":{"cancel":{},"list":{},"requests":{"elicitation":{"create":{}}}}}`},
		{"", client.ElicitURL, nil, `{"elicitation":{"url":{}},"tasks":{"cancel":{},"list":{},"requests":{"elicitation":{"create":{}}}}}`},
		{"", client.ElicitOff, nil, `{"tasks":{"cancel":{},"list":{}}}`},
		{"2025-06-18", client.ElicitBoth, nil, `{"elicitation":{}}`},
		{"2025-06-18", client.ElicitURL, nil, `{}`},
		{"2025-03-26", client.ElicitBoth, nil, `{}`},
		// Roots, once Options.Roots is set (an empty list too), with
		// listChanged in every stateful version (roots.go).
		{"", client.ElicitOff, none, `{"roots":{"listChanged":true},"tasks":{"cancel":{},"list":{}}}`},
		{"2025-06-18", client.ElicitOff, []client.Root{{URI: "file:///tmp"}}, `{"roots":{"listChanged":true}}`},
		{"2024-11-05", client.ElicitBoth, none, `{"roots":{"listChanged":true}}`},
	} {
		name := tc.protocol + "/" + tc.modes.String()
		if tc.roots != nil {
			name += "/roots"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cc, sc := transport.Pipe(nil)
			defer sc.Close()
			got := make(chan string, 1)
			go func() {
				m, err := readSkippingProbe(sc)
				if err != nil {
					got <- err.Error()
					return
				}
				var p struct {
					V    string          `json:"protocolVersion"`
					Caps json.RawMessage `json:"capabilities"`
				}
				_ = json.Unmarshal(m.Params, &p)
				got <- p.V + " " + string(p.Caps)
				_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"` + p.V + `","capabilities":{},"serverInfo":{"name":"x","version":"1"}}`)}, nil)
			}()
			s, err := client.Connect(t.Context(), connTransport{cc}, &client.Options{Protocol: tc.protocol, Elicit: tc.modes, Roots: tc.roots})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			want := tc.protocol
			if want == "" {
				want = "2025-11-25"
			}
			if g := <-got; g != want+" "+tc.want {
				t.Errorf("initialize offered %s, want %s %s", g, want, tc.want)
			}
		})
	}
}

func TestVersionNegotiation(t *testing.T) {
	t.Parallel()
	t.Run("older version accepted", func(t *testing.T) {
		t.Parallel()
		s, _, _ := pipePeer(t, "2025-06-18", nil, nil)
		if s.Protocol() != "2025-06-18" || s.Subset() != schema.Subset2025_06_18 {
			t.Errorf("Protocol %q Subset %v", s.Protocol(), s.Subset())
		}
		if s.Instructions() != "be nice" || !s.ServerCapabilities().ToolsListChanged || !s.ServerCapabilities().Logging {
			t.Errorf("instructions %q caps %+v", s.Instructions(), s.ServerCapabilities())
		}
	})
	for _, v := range []string{"1999-01-01", "2026-07-28"} {
		t.Run("unknown version "+v, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			cc, sc := transport.Pipe(nil)
			defer sc.Close()
			go func() {
				m, err := readSkippingProbe(sc)
				if err != nil {
					return
				}
				_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"` + v + `","capabilities":{},"serverInfo":{"name":"x","version":"1"}}`)}, nil)
			}()
			s, err := client.Connect(t.Context(), connTransport{cc}, &client.Options{Observer: rec})
			if err == nil {
				s.Close()
				t.Fatal("Connect succeeded")
			}
			if !strings.Contains(err.Error(), `"`+v+`"`) || !strings.Contains(err.Error(), "does not speak") {
				t.Errorf("error %q does not name the version", err)
			}
			waitEvent(t, rec, func(e client.ServerStateChanged) bool { return e.State == client.StateFailed && e.Err != nil })
		})
	}
	t.Run("pinned version must be answered", func(t *testing.T) {
		t.Parallel()
		cc, sc := transport.Pipe(nil)
		defer sc.Close()
		go func() {
			m, err := readSkippingProbe(sc)
			if err != nil {
				return
			}
			_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"x","version":"1"}}`)}, nil)
		}()
		_, err := client.Connect(t.Context(), connTransport{cc}, &client.Options{Protocol: "2025-06-18"})
		if err == nil || !strings.Contains(err.Error(), "pinned") {
			t.Fatalf("Connect error %v", err)
		}
	})
}

func TestPingAndUnknownMethods(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	_, p, _ := pipePeer(t, "2025-11-25", nil, rec)
	p.sendRaw(jsonrpc.StringID("p1"), "ping", "")
	m := p.read()
	if m.ID != jsonrpc.StringID("p1") || string(m.Result) != "{}" {
		t.Errorf("ping answer %+v", m)
	}
	for i, method := range []string{"sampling/createMessage", "roots/list", "made/up"} {
		p.sendRaw(jsonrpc.IntID(int64(i+1)), method, "{}")
		m := p.read()
		if m.ID != jsonrpc.IntID(int64(i+1)) || m.Error == nil || m.Error.Code != jsonrpc.CodeMethodNotFound {
			t.Errorf("%s: answer %+v", method, m)
		}
	}
}

func TestMalformedLineSkipped(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	cc, sr, sw := transport.PipeIO(nil)
	sc := transport.NewStream(sr, sw, sr, nil)
	defer sc.Close()
	defer sw.Close()
	p := &peer{t: t, conn: sc}
	go func() {
		m, err := readSkippingProbe(sc)
		if err != nil {
			return
		}
		_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"x","version":"1"}}`)}, nil)
	}()
	s, err := client.Connect(t.Context(), connTransport{cc}, &client.Options{Observer: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p.expect("notifications/initialized")
	done := make(chan error, 1)
	go func() { _, err := s.ListTools(context.Background()); done <- err }()
	req := p.expect("tools/list")
	// Garbage, a batch, and a response with no known id, then the answer.
	for _, line := range []string{"{not json", `[{"jsonrpc":"2.0","id":1,"result":{}}]`, `{"jsonrpc":"2.0","id":999,"result":{}}`} {
		if _, err := sw.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	p.respond(req.ID, `{"tools":[{"name":"x","inputSchema":{"type":"object"}}]}`)
	if err := <-done; err != nil {
		t.Fatalf("ListTools after garbage: %v", err)
	}
	waitEvent(t, rec, func(n client.Notice) bool { return strings.Contains(n.Text, "unknown request id 999") })
}

func TestPagination(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	srv := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "1"}, legacyOpts(&mcp.ServerOptions{PageSize: 2}))
	for i := range 5 {
		mcp.AddTool(srv, &mcp.Tool{Name: fmt.Sprintf("t%d", i)}, func(context.Context, *mcp.CallToolRequest, formArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	}
	s := servePipe(t, srv, nil, rec)
	tools, err := s.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	if want := []string{"t0", "t1", "t2", "t3", "t4"}; !cmp.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	var pages []string
	for _, m := range rec.out() {
		if m.Method == "tools/list" {
			pages = append(pages, string(m.Params))
		}
	}
	if len(pages) != 3 || pages[0] != "" || !strings.Contains(pages[1], "cursor") {
		t.Errorf("tools/list requests %q", pages)
	}
}

func TestPaginationRepeatedCursorStops(t *testing.T) {
	t.Parallel()
	s, p, _ := pipePeer(t, "2025-11-25", nil, nil)
	done := make(chan error, 1)
	go func() { _, err := s.ListTools(context.Background()); done <- err }()
	for range 2 {
		m := p.expect("tools/list")
		p.respond(m.ID, `{"tools":[],"nextCursor":"same"}`)
	}
	if err := <-done; err == nil || !strings.Contains(err.Error(), "repeated cursor") {
		t.Fatalf("err %v", err)
	}
}

func TestUserCancelsCall(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p, _ := pipePeer(t, "2025-11-25", nil, rec)
	ctx, cancel := context.WithCancelCause(t.Context())
	type ret struct {
		err error
		at  time.Time
	}
	done := make(chan ret, 1)
	go func() {
		_, err := s.CallTool(ctx, "slow", nil, nil)
		done <- ret{err, time.Now()}
	}()
	req := p.expect("tools/call")
	if out, _ := s.Pending(); out != 1 {
		t.Errorf("Pending outgoing = %d, want 1", out)
	}
	why := errors.New("person pressed ctrl-c")
	cancelled := time.Now()
	cancel(why)
	r := <-done
	if !errors.Is(r.err, why) {
		t.Errorf("CallTool error %v, want the ctx cause", r.err)
	}
	if d := r.at.Sub(cancelled); d > time.Second {
		t.Errorf("CallTool returned %v after the cancel", d)
	}
	n := p.expect("notifications/cancelled")
	var np struct {
		RequestID json.RawMessage `json:"requestId"`
		Reason    string          `json:"reason"`
	}
	_ = json.Unmarshal(n.Params, &np)
	if string(np.RequestID) != req.ID.String() || np.Reason != why.Error() {
		t.Errorf("notifications/cancelled %s, want requestId %s", n.Params, req.ID)
	}
	// The server answers anyway: dropped, with a Notice.
	p.respond(req.ID, `{"content":[]}`)
	waitEvent(t, rec, func(e client.Notice) bool {
		return strings.Contains(e.Text, "late response to tools/call #"+req.ID.Raw())
	})
	if out, in := s.Pending(); out != 0 || in != 0 {
		t.Errorf("Pending = %d, %d", out, in)
	}
}

func TestNeverCancelInitialize(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	cc, sc := transport.Pipe(rec)
	defer sc.Close()
	ctx, cancel := context.WithCancel(t.Context())
	got := make(chan *jsonrpc.Message, 4)
	go func() {
		for {
			m, err := readSkippingProbe(sc)
			if err != nil {
				close(got)
				return
			}
			got <- m
			if m.Method == "initialize" {
				cancel()
			}
		}
	}()
	_, err := client.Connect(ctx, connTransport{cc}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Connect error %v", err)
	}
	for m := range got {
		if m.Method != "initialize" {
			t.Errorf("sent %s after initialize", m.Method)
		}
	}
}

func TestNotificationsReachObserver(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p, _ := pipePeer(t, "2025-11-25", nil, rec)
	var progress []client.CallProgress
	progDone := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := s.CallTool(context.Background(), "work", map[string]any{"n": 1}, &client.CallOptions{OnProgress: func(c client.CallProgress) {
			progress = append(progress, c)
			if len(progress) == 2 {
				close(progDone)
			}
		}})
		done <- err
	}()
	req := p.expect("tools/call")
	var params struct {
		Name string         `json:"name"`
		Args map[string]any `json:"arguments"`
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(req.Params, &params)
	if params.Name != "work" || params.Args["n"] != 1.0 || len(params.Meta.Token) == 0 {
		t.Fatalf("tools/call params %s", req.Params)
	}
	tok := string(params.Meta.Token)
	p.sendRaw(jsonrpc.ID{}, "notifications/progress", `{"progressToken":`+tok+`,"progress":1,"total":2,"message":"half"}`)
	tok2 := tok
	if !strings.HasPrefix(tok, `"`) {
		tok2 += ".0" // our token written another way still names it
	}
	p.sendRaw(jsonrpc.ID{}, "notifications/progress", `{"progressToken":`+tok2+`,"progress":2,"total":2}`)
	p.sendRaw(jsonrpc.ID{}, "notifications/message", `{"level":"info","logger":"w","data":"hello"}`)
	p.sendRaw(jsonrpc.ID{}, "notifications/tools/list_changed", "")
	p.sendRaw(jsonrpc.ID{}, "notifications/cancelled", `{"requestId":42}`)
	<-progDone
	p.respond(req.ID, `{"content":[{"type":"text","text":"done"}]}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if progress[0].Progress != 1 || progress[0].Total != 2 || progress[0].Message != "half" || progress[0].CallID != req.ID {
		t.Errorf("progress %+v", progress)
	}
	waitEvent(t, rec, func(e client.LogMessage) bool { return e.Level == "info" && string(e.Data) == `"hello"` })
	waitEvent(t, rec, func(e client.ListChanged) bool { return e.What == "tools" })
	waitEvent(t, rec, func(e client.Notice) bool { return strings.Contains(e.Text, "request 42") })
	waitEvent(t, rec, func(e client.CallFinished) bool {
		return e.Method == "tools/call" && e.CallID == req.ID && e.Err == nil
	})
}

func TestContentBlocks(t *testing.T) {
	t.Parallel()
	s, p, _ := pipePeer(t, "2025-11-25", nil, nil)
	type ret struct {
		res *wire.CallToolResult
		err error
	}
	done := make(chan ret, 1)
	go func() {
		r, err := s.CallTool(context.Background(), "x", nil, nil)
		done <- ret{r, err}
	}()
	req := p.expect("tools/call")
	p.respond(req.ID, `{"content":[{"type":"text","text":"done"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"resource_link","uri":"file:///x","name":"x"},{"type":"resource","resource":{"uri":"file:///y","text":"y"}},{"type":"future","what":1},{"type":"text","text":7}],"structuredContent":{"ok":true},"isError":true}`)
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	res := r.res
	var types []string
	for _, b := range res.Content {
		types = append(types, b.Type)
	}
	if want := []string{"text", "image", "resource_link", "resource", "future", "text"}; !cmp.Equal(types, want) {
		t.Errorf("types %v", types)
	}
	if res.Content[0].Text != "done" || res.Content[1].Details().MimeType != "image/png" || res.Content[2].Details().URI != "file:///x" ||
		res.Content[3].Details().Resource == nil || res.Content[3].Details().Resource.Text != "y" || string(res.Content[4].Raw) != `{"type":"future","what":1}` {
		t.Errorf("content %+v", res.Content)
	}
	if !res.IsError || string(res.StructuredContent) != `{"ok":true}` || len(res.Raw) == 0 {
		t.Errorf("result %+v", res)
	}
}

func TestRPCErrorIsReturned(t *testing.T) {
	t.Parallel()
	s, p, _ := pipePeer(t, "2025-11-25", nil, nil)
	done := make(chan error, 1)
	go func() { _, err := s.CallTool(context.Background(), "nope", nil, nil); done <- err }()
	req := p.expect("tools/call")
	p.send(jsonrpc.NewErrorResponse(req.ID, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "unknown tool", nil)))
	err := <-done
	var re *jsonrpc.Error
	if !errors.As(err, &re) || re.Code != jsonrpc.CodeInvalidParams || !strings.Contains(err.Error(), `tools/call "nope" on peer`) {
		t.Fatalf("err %v", err)
	}
}

func TestCloseFailsPendingCalls(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p, _ := pipePeer(t, "2025-11-25", nil, rec)
	done := make(chan error, 1)
	go func() { _, err := s.ListTools(context.Background()); done <- err }()
	p.expect("tools/list")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, client.ErrClosed) {
		t.Errorf("pending call error %v, want ErrClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if !errors.Is(s.Err(), client.ErrClosed) {
		t.Errorf("Err() = %v", s.Err())
	}
	if _, err := s.ListTools(t.Context()); !errors.Is(err, client.ErrClosed) {
		t.Errorf("call after Close: %v", err)
	}
	waitEvent(t, rec, func(e client.ServerStateChanged) bool { return e.State == client.StateClosed })
}

func TestPeerGoneDisconnects(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, p, sc := pipePeer(t, "2025-11-25", nil, rec)
	done := make(chan error, 1)
	go func() { _, err := s.ListTools(context.Background()); done <- err }()
	p.expect("tools/list")
	_ = sc.Close()
	if err := <-done; !errors.Is(err, question.ErrDisconnected) {
		t.Errorf("pending call error %v, want ErrDisconnected", err)
	}
	<-s.Done()
	if !errors.Is(s.Err(), question.ErrDisconnected) {
		t.Errorf("Err() = %v", s.Err())
	}
	waitEvent(t, rec, func(e client.ServerStateChanged) bool {
		return e.State == client.StateDisconnected && errors.Is(e.Err, question.ErrDisconnected)
	})
}
