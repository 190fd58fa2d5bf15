package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxSlow bounds the slow tool's duration, in seconds.
const maxSlow = 3600

// slowArgs are the slow tool's arguments; see slowInput for the schema.
type slowArgs struct {
	Seconds float64 `json:"seconds"`
}

var slowInput = json.RawMessage(fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "seconds": {"type": "number", "title": "Seconds", "description": "How long to work.", "minimum": 0, "maximum": %d, "default": 5}
  }
}`, maxSlow))

func addSlow(srv *mcp.Server, cfg config) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "slow",
		Title: "A slow job",
		Description: "Works for the given number of seconds, sending a progress notification (when the " +
			"call has a progressToken) and an info log message once a second. Stops when cancelled.",
		InputSchema: slowInput,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, slow(cfg))
}

func seconds(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) + "s" }

func slow(cfg config) mcp.ToolHandlerFor[slowArgs, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in slowArgs) (*mcp.CallToolResult, any, error) {
		total := in.Seconds
		if total < 0 || total > maxSlow {
			return nil, nil, fmt.Errorf("slow: seconds must be between 0 and %d, got %v", maxSlow, total)
		}
		token := req.Params.GetProgressToken()
		report := func(done float64) {
			msg := fmt.Sprintf("slow: %s of %s", seconds(done), seconds(total))
			if token != nil {
				err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: done, Total: total, Message: msg,
				})
				if err != nil {
					cfg.logger.Warn("slow: progress notification failed", "err", err)
				}
			}
			// Deprecated in 2026-07-28 (SEP-2577) but the way to log in 2025-11-25.
			//lint:ignore SA1019 the demo targets 2025-11-25 sessions
			if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "slow", Data: msg}); err != nil {
				cfg.logger.Warn("slow: log notification failed", "err", err)
			}
		}

		finish := time.NewTimer(time.Duration(total * float64(time.Second)))
		defer finish.Stop()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for step := 1; ; step++ {
			select {
			case <-ctx.Done():
				cfg.logger.Info("slow: cancelled", "after", step-1, "of", total)
				return nil, nil, fmt.Errorf("slow: stopped: %w", context.Cause(ctx))
			case <-tick.C:
				if float64(step) < total { // the finish report covers the last second
					report(float64(step))
				}
			case <-finish.C:
				report(total)
				return text("done after %s", seconds(total)), nil, nil
			}
		}
	}
}
