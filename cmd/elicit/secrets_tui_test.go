package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// secretAskServer asks a question whose every shown part holds
// echoAPIKey, as a server that echoes what it was sent does: the message,
// a field's title, description and default, an enum value, a field named
// by it (which is also a finding: "api key" names a secret). The tool's
// result says whether the answer came back as the server's own bytes.
func secretAskServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, nil)
	def, _ := json.Marshal(echoAPIKey)
	srv.AddTool(&mcp.Tool{Name: "ask", Description: "asks", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "you sent " + echoAPIKey + "; go on?",
				RequestedSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
					"note":     {Type: "string", Title: "Note " + echoAPIKey, Description: "was " + echoAPIKey, Default: def},
					"pick":     {Type: "string", Title: "Pick", Enum: []any{echoAPIKey, "other"}, Default: def},
					echoAPIKey: {Type: "string", Title: "Named", Default: json.RawMessage(`"x"`)},
				}}})
			if err != nil {
				return nil, err
			}
			intact := res.Content["note"] == echoAPIKey && res.Content["pick"] == echoAPIKey && res.Content[echoAPIKey] == "x"
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{
				Text: fmt.Sprintf("answered %s, defaults intact: %v", res.Action, intact)}}}, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return ts
}

// The TUI shows a server's question, the journal of its answer and the
// finding it caused with the run's secrets masked (the pane: message,
// titles, descriptions, defaults, enum values, field names; the journal:
// the content sent; the findings view: the detail quoting the field),
// while the answer of the defaults goes back as the server's own bytes.
func TestSecretsTUIShowsNone(t *testing.T) {
	ts := secretAskServer(t)
	dir := t.TempDir()
	tm := newTmux(t, dir, "--url", ts.URL+"/mcp", "--protocol", "2025-11-25", "--header", "X-Api-Key: "+echoAPIKey)
	tm.waitText(" ready 2025-11-25")
	shown := map[string]string{}
	tm.press("F5")
	tm.waitText("› ask")
	tm.press("Enter")
	shown["the question"] = tm.question("; go on?")
	tm.press("Enter", "Enter", "Enter")
	tm.waitText("0 open")
	tm.press("F5")
	shown["the result"] = tm.waitText("defaults intact: ")
	if !strings.Contains(shown["the result"], "defaults intact: true") {
		t.Errorf("the defaults did not go back as the server's own:\n%s", shown["the result"])
	}
	tm.press("F7")
	shown["the journal"] = tm.waitText("accept")
	tm.press("M-i")
	shown["the findings"] = tm.waitText("asks for a secret")
	noneOf(t, []string{echoAPIKey}, shown)
	for what, s := range shown {
		if (what == "the question" || what == "the findings") && !strings.Contains(s, "[redacted]") {
			t.Errorf("%s shows nothing masked:\n%s", what, s)
		}
	}
}

// The headless output of the same server: call's questions (the journal:
// the content sent, which holds the server's default) and findings (the
// detail quoting the field named by the secret), and check's findings,
// all go through the masked stdout; the defaults went back intact.
func TestSecretsHeadlessJournalAndFindings(t *testing.T) {
	ts := secretAskServer(t)
	hdr := []string{"--url", ts.URL + "/mcp", "--protocol", "2025-11-25", "--header", "X-Api-Key: " + echoAPIKey}
	stdout, stderr, err := runElicit(t, nil, append([]string{"call", "ask", "--answer", "accept-defaults"}, hdr...)...)
	if !strings.Contains(stdout, "defaults intact: true") || !strings.Contains(stdout, `"prompts": [`) ||
		!strings.Contains(stdout, "elicitation-form-secret") {
		t.Fatalf("call: err %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	shown := map[string]string{"call's stdout": stdout, "call's stderr": stderr}
	for _, form := range [][]string{{"--json"}, nil} {
		cout, cerr, _ := runElicit(t, nil, append(append([]string{"check", "--call", "ask"}, form...), hdr...)...)
		if !strings.Contains(cout, "elicitation-form-secret") || !strings.Contains(cout, "[redacted]") {
			t.Errorf("check %v: no finding quoting the field, masked:\n%s\n%s", form, cout, cerr)
		}
		shown[fmt.Sprintf("check %v's stdout", form)], shown[fmt.Sprintf("check %v's stderr", form)] = cout, cerr
	}
	noneOf(t, []string{echoAPIKey}, shown)
	if !strings.Contains(stdout, `"note": "[redacted]"`) || !strings.Contains(stdout, `field \"[redacted]\" asks for a secret`) {
		t.Errorf("call's journal content or finding is not there masked:\n%s", stdout)
	}
}
