package demo_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestShowcaseDefaults: accepting the showcase form with its defaults
// returns exactly ShowcaseDefaults, as structured content and as JSON text,
// and the client receives exactly ShowcaseSchema.
func TestShowcaseDefaults(t *testing.T) {
	t.Parallel()
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			asked := make(chan any, 1)
			cs := connect(t, kind, nil, elicitWith(func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked <- req.Params.RequestedSchema
				return &mcp.ElicitResult{Action: "accept", Content: defaultsOfRequest(req)}, nil
			}), pinned)

			res := call(t, cs, "showcase", nil)
			if res.IsError {
				t.Fatalf("tool error: %s", textOf(t, res))
			}
			if diff := cmp.Diff(demo.ShowcaseSchema(), <-asked); diff != "" {
				t.Errorf("requested schema (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(demo.ShowcaseDefaults(), res.StructuredContent); diff != "" {
				t.Errorf("structured content (-want +got):\n%s", diff)
			}
			var fromText any
			if err := json.Unmarshal([]byte(textOf(t, res)), &fromText); err != nil {
				t.Fatalf("text is not JSON: %v", err)
			}
			if diff := cmp.Diff(demo.ShowcaseDefaults(), fromText); diff != "" {
				t.Errorf("text content (-want +got):\n%s", diff)
			}
		})
	}
}

// TestShowcaseAnswers: what the user typed comes back, not the defaults, and
// answers outside the schema's bounds are refused.
func TestShowcaseAnswers(t *testing.T) {
	t.Parallel()
	edit := func(changes map[string]any) *mcp.ClientOptions {
		return elicitWith(func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			content := defaultsOfRequest(req)
			for k, v := range changes {
				content[k] = v
			}
			return &mcp.ElicitResult{Action: "accept", Content: content}, nil
		})
	}

	t.Run("edited", func(t *testing.T) {
		t.Parallel()
		changes := map[string]any{"name": "Grace Hopper", "age": float64(85), "toppings": []any{"olives"}}
		cs := connect(t, "memory", nil, edit(changes), pinned)
		res := call(t, cs, "showcase", nil)
		want := demo.ShowcaseDefaults()
		for k, v := range changes {
			want[k] = v
		}
		if diff := cmp.Diff(want, res.StructuredContent); diff != "" {
			t.Errorf("structured content (-want +got):\n%s", diff)
		}
	})

	for name, bad := range map[string]map[string]any{
		"age above maximum":   {"age": float64(151)},
		"name too short":      {"name": "A"},
		"too many languages":  {"languages": []any{"go", "rust", "python", "zig"}},
		"unknown oneOf value": {"size": "xl"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cs := connect(t, "memory", nil, edit(bad), pinned)
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "showcase"})
			if err == nil && !res.IsError {
				t.Fatalf("invalid answer %v was accepted: %s", bad, textOf(t, res))
			}
		})
	}
}

// TestShowcaseCoversSubset checks the schema really has one property of
// every 2025-11-25 shape, each with a default.
func TestShowcaseCoversSubset(t *testing.T) {
	t.Parallel()
	props := demo.ShowcaseSchema()["properties"].(map[string]any)
	if got, want := len(demo.ShowcaseDefaults()), len(props); got != want {
		t.Errorf("%d of %d properties have a default", got, want)
	}
	seen := map[string]bool{}
	for _, p := range props {
		p := p.(map[string]any)
		items, _ := p["items"].(map[string]any)
		switch {
		case p["type"] == "string" && p["minLength"] != nil && p["maxLength"] != nil:
			seen["string length"] = true
		case p["type"] == "string" && p["format"] != nil:
			seen["format "+p["format"].(string)] = true
		case p["type"] == "integer" && p["minimum"] != nil && p["maximum"] != nil:
			seen["integer"] = true
		case p["type"] == "number" && p["minimum"] != nil && p["maximum"] != nil:
			seen["number"] = true
		case p["type"] == "boolean":
			seen["boolean"] = true
		case p["enumNames"] != nil:
			seen["legacy enumNames"] = true
		case p["enum"] != nil:
			seen["enum"] = true
		case p["oneOf"] != nil:
			seen["titled oneOf"] = true
		case items != nil && items["enum"] != nil && p["minItems"] != nil && p["maxItems"] != nil:
			seen["multi enum"] = true
		case items != nil && items["anyOf"] != nil:
			seen["multi anyOf"] = true
		}
	}
	for _, want := range []string{"string length", "format email", "format uri", "format date", "format date-time",
		"integer", "number", "boolean", "enum", "titled oneOf", "legacy enumNames", "multi enum", "multi anyOf"} {
		if !seen[want] {
			t.Errorf("showcase has no %s field", want)
		}
	}
	required, _ := demo.ShowcaseSchema()["required"].([]any)
	if len(required) == 0 || len(required) == len(props) {
		t.Errorf("want some fields required and some optional, got required=%v", required)
	}
}

func TestShowcaseDeclineCancel(t *testing.T) {
	t.Parallel()
	for _, action := range []string{"decline", "cancel"} {
		t.Run(action, func(t *testing.T) {
			t.Parallel()
			cs := connect(t, "memory", nil, answer(&mcp.ElicitResult{Action: action}), pinned)
			res := call(t, cs, "showcase", nil)
			if res.IsError || res.StructuredContent != nil {
				t.Errorf("%s: want plain text, got %+v", action, res)
			}
		})
	}
}
