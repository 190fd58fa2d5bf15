package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// withdrawFlush is how long the withdrawn tool keeps its request open after
// it cancelled its question. go-sdk sends notifications/cancelled from a
// goroutine, and over Streamable HTTP the notification travels on this
// call's POST stream, which closes once the tool returns; returning at once
// would leave the client's form open.
const withdrawFlush = time.Second

// addWithdrawn registers the scene only where it can play: a server that
// serves 2026-07-28 alone (Options.Protocol) does not list it, and one
// that serves both eras says which one it needs.
func addWithdrawn(srv *mcp.Server, cfg config) {
	if cfg.modernOnly() {
		return
	}
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "withdrawn",
		Title: "A question the server withdraws",
		Description: fmt.Sprintf("Asks a question, then withdraws it after %s if it is still open "+
			"(the server cancels its elicitation/create with notifications/cancelled). 2025-11-25 and older only: "+
			"in 2026-07-28 a server sends no requests, so it has none to withdraw.", cfg.withdrawAfter),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, withdrawn(cfg))
}

func withdrawnSchema() map[string]any {
	return objectSchema(map[string]any{
		"answer": map[string]any{
			"type":    "string",
			"title":   "Your answer",
			"default": "just in time",
		},
	})
}

func withdrawn(cfg config) mcp.ToolHandlerFor[any, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		if modern(req.Session) {
			return nil, nil, legacyOnly("withdrawn", "in 2026-07-28 a server sends no requests, "+
				"so it has no question to withdraw with notifications/cancelled")
		}
		after := cfg.withdrawAfter
		askCtx, stop := context.WithTimeout(ctx, after)
		defer stop()
		message := fmt.Sprintf("The server will withdraw this question in %s. Answer before it does, or watch it go.", after)
		res, err := ask(askCtx, req, message, withdrawnSchema())
		switch {
		case err == nil:
			return text("The user answered (%s) before the server withdrew its question.", res.Action), nil, nil
		case ctx.Err() != nil:
			return nil, nil, fmt.Errorf("withdrawn: the call ended first: %w", context.Cause(ctx))
		case errors.Is(err, context.DeadlineExceeded):
			cfg.logger.Info("withdrawn: question withdrawn", "after", after)
			flush := time.NewTimer(withdrawFlush)
			defer flush.Stop()
			select {
			case <-flush.C:
			case <-ctx.Done():
			}
			return text("The server withdrew its question after %s.", after), nil, nil
		default:
			return nil, nil, err
		}
	}
}
