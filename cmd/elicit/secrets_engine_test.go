package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
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

// TestSpecSecrets: what of a configuration is a secret to mask in all
// that is shown, and what is not (an ordinary word would be blanked out
// everywhere).
func TestSpecSecrets(t *testing.T) {
	spec := serverSpec{
		URL:     "https://user:pw-0001@h/mcp?token=abcd&tenant=blue&sig=0a1b2c3d4e5f6a7b8c9d",
		Header:  http.Header{"Authorization": {"Bearer tok-1"}, "Accept": {"application/json"}, "X-Custom": {"Zq9v0x8c7b6n5m4l3k2j"}},
		Env:     []string{"API_KEY=env-key-1", "HOME=/home/x", "DATABASE_URL=postgres://db:dbpass-1@host/db", "GH=from-input-1"},
		Args:    []string{"--token", "arg-tok-1", "--verbose"},
		secrets: []string{"from-input-1"},
		OAuth:   oauthSpec{ClientSecret: "client-secret-1"},
	}
	got := append(specSecrets(spec), urlSecrets("https://tok-as-user@h/mcp")...)
	for _, want := range []string{"pw-0001", "tok-as-user", "abcd", "0a1b2c3d4e5f6a7b8c9d", "Bearer tok-1", "Zq9v0x8c7b6n5m4l3k2j",
		"env-key-1", "dbpass-1", "from-input-1", "arg-tok-1", "client-secret-1"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q is not taken as a secret (got %q)", want, got)
		}
	}
	for _, not := range []string{"user", "blue", "application/json", "/home/x", "--verbose"} {
		if slices.Contains(got, not) {
			t.Errorf("%q is taken as a secret", not)
		}
	}
	for raw, want := range map[string]bool{"${input:token}": true, "Bearer ${GITHUB_TOKEN}": true, "${HOME}/x": false, "plain": false} {
		if secretRef(raw) != want {
			t.Errorf("secretRef(%q) = %v", raw, !want)
		}
	}
}

// A question whose message echoes a secret reaches the person masked;
// the engine's question is left as it came.
func TestShownPrompterMasksTheMessage(t *testing.T) {
	sec := redact.NewSecrets()
	sec.Add(echoAPIKey)
	q := &question.Question{Key: question.Key{Server: "s"}, Message: "confirm key " + echoAPIKey + "?"}
	var seen *question.Question
	p := shownPrompter{sec: sec, next: question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
		seen = q
		return question.Outcome{Kind: question.Decline}
	})}
	if o := p.Prompt(t.Context(), q); o.Kind != question.Decline {
		t.Errorf("outcome %v", o)
	}
	if seen.Message != "confirm key [redacted]?" || seen.Key != q.Key {
		t.Errorf("shown %+v", seen)
	}
	if !strings.Contains(q.Message, echoAPIKey) {
		t.Errorf("the engine's question was changed: %q", q.Message)
	}
}

// An agent's update that prints a secret reaches the TUI masked, in each
// part the agent view shows.
func TestShownUpdateMasks(t *testing.T) {
	sec := redact.NewSecrets()
	sec.Add(echoAPIKey)
	u := shownUpdate(sec, ui.AgentUpdate{Text: "key " + echoAPIKey, Raw: []byte(`{"k":"` + echoAPIKey + `"}`),
		Tool: &ui.AgentToolCall{Title: "env " + echoAPIKey, RawOutput: []byte(echoAPIKey)},
		Plan: []ui.AgentPlanEntry{{Content: "use " + echoAPIKey}}})
	shown := fmt.Sprintf("%s %s %s %s %s", u.Text, u.Raw, u.Tool.Title, u.Tool.RawOutput, u.Plan[0].Content)
	noneOf(t, []string{echoAPIKey}, map[string]string{"the update": shown})
	if !strings.Contains(shown, "[redacted]") {
		t.Errorf("nothing masked: %s", shown)
	}
}
