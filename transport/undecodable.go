package transport

import (
	"errors"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// standIn returns the response Read delivers in place of a frame that
// failed to decode with derr, when that frame was meant as a response and
// its id could be recovered (see Conn); nil otherwise.
func standIn(derr error) *jsonrpc.Message {
	var de *jsonrpc.DecodeError
	if !errors.As(derr, &de) || de.Kind != jsonrpc.KindResponse || !de.ID.IsValid() {
		return nil
	}
	return standInFor(de.ID, de)
}

// standInFor makes the stand-in response for request id, whose response
// arrived but could not be decoded (derr, a *jsonrpc.DecodeError).
func standInFor(id jsonrpc.ID, derr error) *jsonrpc.Message {
	m := jsonrpc.NewErrorResponse(id, jsonrpc.NewError(jsonrpc.CodeInternalError,
		"the response could not be decoded: "+derr.Error(), nil))
	m.LocalErr = derr
	return m
}
