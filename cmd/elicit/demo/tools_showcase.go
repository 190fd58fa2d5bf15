package demo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// showcaseQuestion is the message of the showcase tool's elicitation.
const showcaseQuestion = "Showcase: one field of every kind the 2025-11-25 subset allows. Every field has a default."

// showcaseSchemaJSON covers every property shape of the 2025-11-25 subset:
// string with min/maxLength, the four formats, integer and number with
// bounds, boolean, untitled enum, titled oneOf, legacy enum+enumNames, and
// both multi-selects. It is sent as raw JSON so the field order reaches the
// client as written.
const showcaseSchemaJSON = `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "title": "Name", "description": "Between 2 and 40 characters.", "minLength": 2, "maxLength": 40, "default": "Ada Lovelace"},
    "email": {"type": "string", "title": "Email", "format": "email", "default": "ada@example.com"},
    "website": {"type": "string", "title": "Website", "format": "uri", "default": "https://example.com/ada"},
    "birthday": {"type": "string", "title": "Birthday", "format": "date", "default": "1815-12-10"},
    "meeting": {"type": "string", "title": "Next meeting", "format": "date-time", "default": "2026-03-14T15:30:00Z"},
    "age": {"type": "integer", "title": "Age", "minimum": 0, "maximum": 150, "default": 36},
    "rating": {"type": "number", "title": "Rating", "description": "From 0 to 5.", "minimum": 0, "maximum": 5, "default": 4.5},
    "subscribe": {"type": "boolean", "title": "Subscribe to the newsletter", "default": true},
    "color": {"type": "string", "title": "Favourite colour", "enum": ["red", "green", "blue"], "default": "green"},
    "size": {"type": "string", "title": "T-shirt size", "oneOf": [{"const": "s", "title": "Small"}, {"const": "m", "title": "Medium"}, {"const": "l", "title": "Large"}], "default": "m"},
    "plan": {"type": "string", "title": "Plan", "description": "A legacy enum with enumNames.", "enum": ["free", "pro", "team"], "enumNames": ["Free", "Pro — 10 €/month", "Team — 30 €/month"], "default": "pro"},
    "languages": {"type": "array", "title": "Languages", "description": "Pick one to three.", "minItems": 1, "maxItems": 3, "items": {"type": "string", "enum": ["go", "rust", "python", "zig"]}, "default": ["go", "zig"]},
    "toppings": {"type": "array", "title": "Toppings", "items": {"anyOf": [{"const": "cheese", "title": "Cheese"}, {"const": "basil", "title": "Basil"}, {"const": "olives", "title": "Olives"}]}, "default": ["cheese", "basil"]}
  },
  "required": ["name", "email", "age", "color", "languages"]
}`

// ShowcaseSchema returns the requested schema of the showcase tool's form,
// decoded as encoding/json decodes it (numbers are float64, arrays []any), so
// it compares equal to what a client receives. Each call returns a fresh
// copy.
func ShowcaseSchema() map[string]any {
	var s map[string]any
	if err := json.Unmarshal([]byte(showcaseSchemaJSON), &s); err != nil {
		panic(fmt.Sprintf("demo: the showcase schema constant is not JSON: %v", err)) // a bug in this file, not input
	}
	return s
}

// ShowcaseDefaults returns the default of every showcase field, keyed by
// property name, in the same decoded form as [ShowcaseSchema]. Accepting the
// showcase form with its defaults makes the tool return exactly this.
func ShowcaseDefaults() map[string]any {
	props, _ := ShowcaseSchema()["properties"].(map[string]any)
	defaults := make(map[string]any, len(props))
	for name, p := range props {
		if d, ok := p.(map[string]any)["default"]; ok {
			defaults[name] = d
		}
	}
	return defaults
}

// showcaseKey is the inputRequests key of the showcase form.
const showcaseKey = "showcase"

func addShowcase(srv *mcp.Server, cfg config) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "showcase",
		Title: "Every field type",
		Description: "Asks one form with every field type of the 2025-11-25 elicitation subset, each " +
			"with a default, and returns the accepted answers as structured content and JSON text.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, multiRound(cfg.codec, "showcase", showcase))
}

func showcase(_ context.Context, _ *mcp.CallToolRequest, _ any, r *round) (*mcp.CallToolResult, error) {
	schema := json.RawMessage(showcaseSchemaJSON)
	res, err := r.answer(showcaseKey, schema)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return r.ask(nil, map[string]*mcp.ElicitParams{showcaseKey: form(showcaseQuestion, schema)})
	}
	switch res.Action {
	case actionAccept:
		content := res.Content
		if content == nil {
			content = map[string]any{} // accept without content: still an object, never null
		}
		return structured(content)
	case actionDecline:
		return text("Showcase declined by the user: no answers."), nil
	case actionCancel:
		return text("Showcase cancelled: the form was dismissed without an answer."), nil
	default:
		return nil, unknownAction(res.Action)
	}
}
