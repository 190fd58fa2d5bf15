package transport

import (
	"errors"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// undecodableReply returns what Read delivers for a frame received at t
// that failed to decode with derr, when that frame was meant as a response
// and its id could be recovered: the end of that request (see Conn). ok is
// false otherwise.
func undecodableReply(derr error, t time.Time) (in Inbound, ok bool) {
	var de *jsonrpc.DecodeError
	if !errors.As(derr, &de) || de.Kind != jsonrpc.KindResponse || !de.ID.IsValid() {
		return Inbound{}, false
	}
	return Inbound{ID: de.ID, Err: de, Received: t}, true
}
