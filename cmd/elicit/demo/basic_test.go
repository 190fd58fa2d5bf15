package demo_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestEchoAdd(t *testing.T) {
	t.Parallel()
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			cs := connect(t, kind, nil, nil, pinned)
			if got := okText(t, cs, "echo", map[string]any{"text": "héllo\nworld"}); got != "héllo\nworld" {
				t.Errorf("echo = %q", got)
			}
			res := call(t, cs, "add", map[string]any{"a": 2, "b": 0.5})
			if got := textOf(t, res); got != "2 + 0.5 = 2.5" {
				t.Errorf("add text = %q", got)
			}
			if diff := cmp.Diff(map[string]any{"sum": 2.5}, res.StructuredContent); diff != "" {
				t.Errorf("add structured (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLists: every list a client can ask for is non-empty, every tool has a
// title and a description, and the session runs 2025-11-25 with logging.
func TestLists(t *testing.T) {
	t.Parallel()
	cs := connect(t, "memory", nil, nil, pinned)
	ctx := t.Context()

	init := cs.InitializeResult()
	if init.ProtocolVersion != "2025-11-25" || init.Instructions == "" || init.ServerInfo.Name != demo.Name {
		t.Errorf("initialize result = %+v", init)
	}
	//lint:ignore SA1019 logging is current in 2025-11-25
	if init.Capabilities.Logging == nil {
		t.Error("the server does not declare logging")
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Title == "" || tool.Description == "" {
			t.Errorf("tool %s lacks a title or description", tool.Name)
		}
		if tool.Name == "withdrawn" && tool.Title != "A question the server withdraws" {
			t.Errorf("withdrawn title = %q", tool.Title)
		}
	}
	slices.Sort(names)
	want := []string{"add", "consent", "create_ticket", "deploy", "echo", "needs_state_only",
		"palette", "pick_colour", "reflow_fail", "reflow_iserror", "reflow_month", "reflow_stubborn", "showcase", "slow", "storm", "summarize", "withdrawn", "wizard"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}

	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: demo.ReadmeURI})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "withdrawn") {
		t.Errorf("readme = %+v", res.Contents)
	}
	resources, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range resources.Resources {
		uris = append(uris, r.URI)
	}
	if want := []string{demo.ReadmeURI, demo.PaletteAppURI}; !slices.Equal(uris, want) {
		t.Errorf("resources = %v, want %v", uris, want)
	}

	prompt, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet", Arguments: map[string]string{"name": "Ada"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(prompt.Messages) != 1 || !strings.Contains(prompt.Messages[0].Content.(*mcp.TextContent).Text, "Ada") {
		t.Errorf("greet = %+v", prompt.Messages)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet"}); err == nil {
		t.Error("greet without a name: want an error")
	}
}

// TestInputSchemas: defaults and bounds are visible to clients, which build
// argument forms from them.
func TestInputSchemas(t *testing.T) {
	t.Parallel()
	cs := connect(t, "memory", nil, nil, pinned)
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	prop := func(tool, name string) map[string]any {
		for _, tl := range tools.Tools {
			if tl.Name == tool {
				return tl.InputSchema.(map[string]any)["properties"].(map[string]any)[name].(map[string]any)
			}
		}
		t.Fatalf("no tool %s", tool)
		return nil
	}
	checks := []struct {
		tool, prop, key string
		want            any
	}{
		{"deploy", "service", "default", "web"},
		{"storm", "n", "default", 10.0},
		{"storm", "n", "minimum", 1.0},
		{"storm", "n", "maximum", 2000.0},
		{"slow", "seconds", "default", 5.0},
		{"create_ticket", "title", "type", "string"},
		{"echo", "text", "type", "string"},
	}
	for _, c := range checks {
		if got := prop(c.tool, c.prop)[c.key]; got != c.want {
			t.Errorf("%s.%s.%s = %v, want %v", c.tool, c.prop, c.key, got, c.want)
		}
	}
}

// TestNullArguments: "arguments": null must not crash the server (go-sdk
// v1.8.0 panics applying defaults to it); it means "no arguments".
func TestNullArguments(t *testing.T) {
	t.Parallel()
	cs := connect(t, "memory", nil, answer(nil), pinned)
	res := call(t, cs, "deploy", json.RawMessage("null"))
	if got := textOf(t, res); got != "Deployment of web from main not confirmed: nothing was deployed." {
		t.Errorf("deploy with null arguments = %q", got)
	}
	if got := okText(t, cs, "echo", map[string]any{"text": "still alive"}); got != "still alive" {
		t.Errorf("echo after null arguments = %q", got)
	}
}

// TestUnpinnedClient: a go-sdk client that offers 2026-07-28 gets it where
// the transport can serve it (in-memory) and falls back to 2025-11-25 on the
// stateful HTTP handler; deploy's questions work in both eras.
func TestUnpinnedClient(t *testing.T) {
	t.Parallel()
	wantVersion := map[string]string{"memory": "2026-07-28", "http": "2025-11-25"}
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			cs := connect(t, kind, nil, answer(&mcp.ElicitResult{Action: "decline"}), nil)
			if v := cs.InitializeResult().ProtocolVersion; v != wantVersion[kind] {
				t.Errorf("negotiated %q, want %s", v, wantVersion[kind])
			}
			if got := okText(t, cs, "deploy", nil); got != "Deployment declined by the user: nothing was deployed." {
				t.Errorf("deploy = %q", got)
			}
		})
	}
}

// TestNoElicitationCapability: a client that cannot answer questions gets a
// tool error, not a hang.
func TestNoElicitationCapability(t *testing.T) {
	t.Parallel()
	cs := connect(t, "memory", nil, nil, pinned)
	res := call(t, cs, "deploy", nil)
	if !res.IsError || !strings.Contains(textOf(t, res), "elicitation") {
		t.Errorf("want a tool error about elicitation, got %+v", res)
	}
}
