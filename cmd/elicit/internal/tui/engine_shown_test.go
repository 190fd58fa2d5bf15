package tui

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/shown"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What the TUI is given of a server that echoes the headers it was sent
// (a tool result, a tool's JSON-RPC error, a resource, the frames in the
// traffic view) holds none of their values.
func TestEngineShowsNoSecrets(t *testing.T) {
	ts := headerEchoServer(t)
	sec := redact.NewSecrets()
	var mu sync.Mutex
	var frames []string
	spec := serverspec.Server{Name: "web", URL: ts.URL + "/mcp",
		Header: http.Header{"Authorization": {"Bearer " + echoBearer}, "X-Api-Key": {echoAPIKey}}}
	mgr := client.NewManager(nil)
	defer mgr.Close()
	e := &engine{ctx: t.Context(), m: mgr, specs: map[string]serverspec.Server{"web": spec}, pending: map[string]error{}, secrets: sec,
		sessionOpts: func(string) *client.Options { return &client.Options{Prompter: question.DeclineAll} },
		transports: func(s serverspec.Server) (transport.Transport, error) {
			return s.Transport(transport.ObserverFuncs{OnFrame: func(f transport.Frame) {
				mu.Lock()
				defer mu.Unlock()
				frames = append(frames, string(f.Raw))
			}}, sec)
		},
	}
	e.connectAll(t.Context(), []string{"web"})
	res, err := e.Call(t.Context(), "web", "whoami", nil, ui.CallOptions{})
	if err != nil || !strings.Contains(res.Text(), "you sent") {
		t.Fatalf("whoami: %v, %v", res, err)
	}
	_, rejected := e.Call(t.Context(), "web", "reject", nil, ui.CallOptions{})
	contents, err := e.ReadResource(t.Context(), "web", "echo://headers")
	if err != nil || len(contents) != 1 || !strings.Contains(contents[0].Text, "you sent") {
		t.Fatalf("read: %v, %v", contents, err)
	}
	shown := map[string]string{
		"the result": res.Text() + string(res.Raw), "the error": fmt.Sprint(rejected),
		"the resource": contents[0].Text,
	}
	mu.Lock()
	shown["the frames"] = strings.Join(frames, "\n")
	mu.Unlock()
	noneOf(t, []string{echoBearer, echoAPIKey}, shown)
}

// The journal and findings views get the run's secrets masked in every
// part a server wrote (a reason, an accept's content, a sampling request,
// reply and error, the origin, a finding's detail); the records keep
// them as they came.
func TestEngineJournalAndFindingsMasked(t *testing.T) {
	sec := redact.NewSecrets()
	sec.Add(echoAPIKey)
	mgr := client.NewManager(nil)
	defer mgr.Close()
	rec := findings.NewRecorder(nil)
	e := &engine{ctx: t.Context(), m: mgr, pending: map[string]error{}, secrets: sec, findings: rec}
	k := echoAPIKey
	mgr.Journal().Record(question.JournalEntry{Key: question.Key{Server: "s"}, Server: "s", Kind: question.Invalid,
		Reason: "bad " + k, Content: map[string]any{"note": k}, Origin: question.Origin{Name: "tool-" + k},
		Asked: question.KindSampling, Sampling: &question.SamplingRecord{Request: []byte(`{"m":"` + k + `"}`),
			Result: []byte(`{"r":"` + k + `"}`), Error: &jsonrpc.Error{Message: "no " + k, Data: []byte(`"` + k + `"`)}}})
	rec.Report("s", "2025-11-25", findings.ToolNameInvalid, findings.FrameRef{In: true}, "tool name %q", k)
	snap := e.Journal()
	list, ver := e.Findings(0)
	if len(snap.Entries) != 1 || len(list) != 1 || ver == 0 {
		t.Fatalf("journal %+v, findings %+v (version %d)", snap, list, ver)
	}
	en := snap.Entries[0]
	shown := fmt.Sprintf("%s %v %s %s %s %s %s %s", en.Reason, en.Content, en.Origin.Name, en.Sampling.Request,
		en.Sampling.Result, en.Sampling.Error.Message, en.Sampling.Error.Data, list[0].Detail)
	noneOf(t, []string{k}, map[string]string{"the journal and findings": shown})
	if strings.Count(shown, "[redacted]") != 8 {
		t.Errorf("not each part masked: %s", shown)
	}
	if kept := mgr.Journal().Entries()[0]; kept.Reason != "bad "+k || kept.Content["note"] != k || !strings.Contains(string(kept.Sampling.Request), k) {
		t.Errorf("the journal itself was changed: %+v", kept)
	}
	if again, _ := e.Findings(ver); again != nil {
		t.Errorf("an unmoved record gave a list again: %v", again)
	}
}

// What a server says of itself (its serverInfo, its instructions) and of
// its tasks (status messages, the immediate response, the result, the
// error) reaches the status bar, the server view and the tasks view with
// the run's secrets masked.
func TestEngineServerAndTasksMasked(t *testing.T) {
	k := echoAPIKey
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo", Title: "echo " + k, Version: "1"}, &mcp.ServerOptions{Instructions: "use " + k})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	sec := redact.NewSecrets()
	spec := serverspec.Server{Name: "web", URL: ts.URL + "/mcp", Header: http.Header{"X-Api-Key": {k}}}
	mgr := client.NewManager(nil)
	defer mgr.Close()
	e := &engine{ctx: t.Context(), m: mgr, specs: map[string]serverspec.Server{"web": spec}, pending: map[string]error{}, secrets: sec,
		sessionOpts: func(string) *client.Options { return &client.Options{Prompter: question.DeclineAll} },
		transports:  func(s serverspec.Server) (transport.Transport, error) { return s.Transport(nil, sec) },
	}
	e.connectAll(t.Context(), []string{"web"})
	st := e.Servers()
	d, err := e.Server("web")
	if err != nil || len(st) != 1 || st[0].Info.Name != "echo" || d.Session.Instructions == "" {
		t.Fatalf("servers %+v, detail %+v, %v", st, d, err)
	}
	task := client.Task{Server: "web", ID: "t1", StatusMessage: "working with " + k, ImmediateResponse: "soon " + k,
		Result: &wire.CallToolResult{Content: []wire.ContentBlock{{Type: "text", Text: "done " + k}}, Raw: []byte(`{"content":[{"type":"text","text":"done ` + k + `"}]}`)},
		Err:    fmt.Errorf("failed: %s", k)}
	ev, _ := shown.Event(sec, client.TaskChanged{Task: task}).(client.TaskChanged)
	shown := map[string]string{
		"the status bar":  fmt.Sprintf("%+v", st[0].Info),
		"the server view": fmt.Sprintf("%+v %s %+v", d.Info, d.Session.Instructions, d.Session.ServerInfo),
		"a task":          fmt.Sprintf("%s %s %s %v", ev.Task.StatusMessage, ev.Task.ImmediateResponse, ev.Task.Result.Text(), ev.Task.Err),
	}
	noneOf(t, []string{k}, shown)
	if task.StatusMessage != "working with "+k {
		t.Errorf("the engine's task was changed: %+v", task)
	}
}
