package main

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// What the TUI is given of a server that echoes the headers it was sent
// (a tool result, a tool's JSON-RPC error, a resource, the frames in the
// traffic view) holds none of their values.
func TestEngineShowsNoSecrets(t *testing.T) {
	ts := headerEchoServer(t)
	sec := redact.NewSecrets()
	var mu sync.Mutex
	var frames []string
	spec := serverSpec{Name: "web", URL: ts.URL + "/mcp",
		Header: http.Header{"Authorization": {"Bearer " + echoBearer}, "X-Api-Key": {echoAPIKey}}}
	mgr := client.NewManager(nil)
	defer mgr.Close()
	e := &engine{ctx: t.Context(), m: mgr, specs: map[string]serverSpec{"web": spec}, pending: map[string]error{}, secrets: sec,
		sessionOpts: func(string) *client.Options { return &client.Options{Prompter: question.DeclineAll} },
		transports: func(s serverSpec) (transport.Transport, error) {
			return s.transport(transport.ObserverFuncs{OnFrame: func(f transport.Frame) {
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
