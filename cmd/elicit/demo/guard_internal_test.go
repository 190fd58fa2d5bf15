package demo

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGuardRecovers: a handler panic becomes an internal error for that
// request.
func TestGuardRecovers(t *testing.T) {
	t.Parallel()
	h := guard(func(context.Context, string, mcp.Request) (mcp.Result, error) { panic("boom") })
	res, err := h(t.Context(), "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "x"}})
	var werr *jsonrpc.Error
	if res != nil || !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInternalError {
		t.Fatalf("got %v, %v; want an internal error", res, err)
	}
}
