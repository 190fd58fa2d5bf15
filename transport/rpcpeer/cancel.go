package rpcpeer

import "github.com/elicit-dev/elicit/transport/jsonrpc"

// CodeRequestCancelled is the error code of a request answered as
// cancelled rather than failed (LSP's, which ACP adopts: an agent answers
// our cancelled request with it, and we answer the agent's with it).
const CodeRequestCancelled = -32800

// Cancel is the notification that tells the other side we gave up on a
// request of ours: MCP's notifications/cancelled (requestId, reason),
// ACP's $/cancel_request (requestId).
type Cancel struct {
	// Method is the notification's method.
	Method string
}

type cancelParams struct {
	RequestID jsonrpc.ID `json:"requestId"`
	Reason    string     `json:"reason,omitempty"`
}

// Message is the notification cancelling our request id; an empty reason
// is left out.
func (c Cancel) Message(id jsonrpc.ID, reason string) (*jsonrpc.Message, error) {
	return jsonrpc.NewNotification(c.Method, cancelParams{RequestID: id, Reason: reason})
}
