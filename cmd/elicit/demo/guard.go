package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// guard is receiving middleware that keeps client input from crashing the
// demo: people drive it with hand-written JSON.
//
// go-sdk v1.8.0 panics (nil map assignment while applying schema defaults)
// when a tools/call carries "arguments": null and the tool's input schema
// has a default, so null arguments are treated as absent. Any other panic in
// a handler becomes an internal error for that request instead of taking
// the process down.
func guard(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				res, err = nil, &jsonrpc.Error{
					Code:    jsonrpc.CodeInternalError,
					Message: fmt.Sprintf("demo: %s failed: %v", method, p),
				}
			}
		}()
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && p != nil &&
			bytes.Equal(bytes.TrimSpace(p.Arguments), []byte("null")) {
			p.Arguments = nil
		}
		return next(ctx, method, req)
	}
}

// errShutdown is the cancellation cause of requests cut short because the
// server is shutting down.
var errShutdown = errors.New("the demo server is shutting down")

// bound returns receiving middleware that cancels each request's context
// when life ends. go-sdk's session Close waits for in-flight requests, so
// without it a shutdown would wait for a slow job or an unanswered question.
func bound(life context.Context) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			ctx, cancel := context.WithCancelCause(ctx)
			defer cancel(nil)
			stop := context.AfterFunc(life, func() { cancel(errShutdown) })
			defer stop()
			return next(ctx, method, req)
		}
	}
}
