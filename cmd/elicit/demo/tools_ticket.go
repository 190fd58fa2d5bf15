package demo

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ticketArgs are the create_ticket tool's arguments.
type ticketArgs struct {
	Title string `json:"title" jsonschema:"the ticket's title"`
}

// ticketKey is the inputRequests key of create_ticket's question.
const ticketKey = "priority"

func addTicket(srv *mcp.Server, cfg config) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "create_ticket",
		Title: "Create a ticket",
		Description: "Creates a ticket after asking the user for its priority. Call it twice at once " +
			"to get two questions open side by side; each call gets its own answer.",
	}, multiRound(cfg.codec, "create_ticket", createTicket))
}

// ticketQuestion is the message of create_ticket's elicitation.
func ticketQuestion(title string) string {
	return fmt.Sprintf("Priority for ticket '%s'?", title)
}

// ticketSchema asks for a priority as a titled single-select (oneOf).
func ticketSchema() map[string]any {
	option := func(value, title string) map[string]any {
		return map[string]any{"const": value, "title": title}
	}
	return objectSchema(map[string]any{
		"priority": map[string]any{
			"type":        "string",
			"title":       "Priority",
			"description": "How urgent the ticket is.",
			"oneOf": []any{
				option("P1", "P1 — critical"),
				option("P2", "P2 — high"),
				option("P3", "P3 — normal"),
				option("P4", "P4 — low"),
			},
			"default": "P3",
		},
	}, "priority")
}

// createTicket keeps everything in locals: go-sdk runs parallel calls
// concurrently, and nothing may leak from one call's answer into another's.
// In 2026-07-28 each call's requestState is bound to its arguments, so a
// client that mixes up two calls' states is refused.
func createTicket(_ context.Context, _ *mcp.CallToolRequest, in ticketArgs, r *round) (*mcp.CallToolResult, error) {
	if in.Title == "" {
		return nil, errors.New("create_ticket needs a non-empty title")
	}
	res, err := r.answer(ticketKey, ticketSchema())
	if err != nil {
		return nil, err
	}
	if res == nil {
		return r.ask(nil, map[string]*mcp.ElicitParams{ticketKey: form(ticketQuestion(in.Title), ticketSchema())})
	}
	switch res.Action {
	case actionAccept:
		return text("Created ticket '%s' with priority %s.", in.Title, stringField(res.Content, "priority")), nil
	case actionDecline:
		return text("Ticket '%s' not created: the user declined to give it a priority.", in.Title), nil
	case actionCancel:
		return text("Ticket '%s' not created: the question was dismissed without an answer; ask again later.", in.Title), nil
	default:
		return nil, unknownAction(res.Action)
	}
}
