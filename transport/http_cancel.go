package transport

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// mcpCancelled is the notification that cancels a request in the stateful
// eras (and on stdio in every era).
const mcpCancelled = "notifications/cancelled"

// CancelRequest implements RequestCanceler. A request sent by the
// 2026-07-28 rules is cancelled by closing its response stream, which the
// server must treat as the cancel: the stream's context is cancelled, the
// call is forgotten (nothing is delivered for it), and it returns true. In
// that era it also returns true for a request that is no longer pending,
// since there is nothing to send either. In the stateful eras closing a
// stream is not a cancel (the session sends notifications/cancelled), so it
// returns false.
func (c *httpConn) CancelRequest(id jsonrpc.ID) bool {
	c.mu.Lock()
	call, ok := c.pending[id]
	stateless := httpIsStateless(c.version)
	if ok && call.modern {
		delete(c.pending, id)
	}
	c.mu.Unlock()
	switch {
	case ok && call.modern:
		call.cancel()
		c.obs.Frame(Frame{Time: time.Now(), Dir: Out, HTTP: &HTTPInfo{Method: http.MethodPost, URL: c.logURL},
			Err: fmt.Errorf("transport: request %s cancelled: closed its response stream (the 2026-07-28 cancel)", id)})
		return true
	case ok:
		return false
	default:
		return stateless
	}
}

// cancelledRequest returns the request that m, if it is our
// notifications/cancelled, cancels.
func cancelledRequest(m *jsonrpc.Message) (jsonrpc.ID, bool) {
	if m.Method != mcpCancelled || m.ID.IsValid() {
		return jsonrpc.ID{}, false
	}
	var p struct {
		RequestID *jsonrpc.ID `json:"requestId"`
	}
	if json.Unmarshal(m.Params, &p) != nil || p.RequestID == nil {
		return jsonrpc.ID{}, false
	}
	return *p.RequestID, true
}

// closeCancelled ends the stream of request id (its POST stream, or the GET
// resuming it) once we have told the server it is cancelled: nothing more
// is wanted on it (the session drops a late response anyway), and a server
// that keeps it open with keep-alives alone would hold a connection and a
// goroutine for every cancelled call until Close.
func (c *httpConn) closeCancelled(id jsonrpc.ID) {
	c.mu.Lock()
	call, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !ok {
		return
	}
	call.cancel()
	c.obs.Frame(Frame{Time: time.Now(), Dir: Out, HTTP: &HTTPInfo{Method: http.MethodPost, URL: c.logURL},
		Err: fmt.Errorf("transport: request %s cancelled: closed its response stream", id)})
}
