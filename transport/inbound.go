package transport

import (
	"errors"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Inbound is one thing Read delivers: either Msg, or ID with Err.
type Inbound struct {
	// Msg is a message from the server.
	Msg *jsonrpc.Message
	// RelatedID is the request of ours that Msg belongs to, when the
	// transport knows it: on Streamable HTTP, the request whose POST
	// response stream carried it. Never set for a response.
	RelatedID jsonrpc.ID
	// Received is when the transport read Msg off the wire (or gave up on
	// ID). Prompts count their wait from it, so that time spent queued
	// inside the client counts too.
	Received time.Time

	// ID and Err end our request ID without a response. Either one came
	// but could not be decoded (Err is the *jsonrpc.DecodeError: the server
	// did answer), or the stream that was to carry it broke (Streamable
	// HTTP: the server never answered; in 2026-07-28 Err wraps
	// ErrRequestLost). Msg is nil then.
	ID  jsonrpc.ID
	Err error
}

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

// tooLargeReplies returns what Read delivers for a frame of size bytes,
// over limit, of which prefix is the start: the end of each request that
// prefix shows an answer to (its id comes first in most servers' output).
// Err is a *jsonrpc.DecodeError: the server did answer, in a frame we
// refuse, so the call ends at once, as for an undecodable reply.
func tooLargeReplies(prefix []byte, size, limit int, t time.Time) []Inbound {
	var out []Inbound
	for _, p := range jsonrpc.DecodeFrame(prefix) {
		id, ok := answerID(p)
		if !ok {
			continue
		}
		err := &jsonrpc.DecodeError{
			Reason: fmt.Sprintf("the answer's frame of %d bytes exceeds the limit of %d", size, limit),
			ID:     id, Kind: jsonrpc.KindResponse,
		}
		out = append(out, Inbound{ID: id, Err: err, Received: t})
	}
	return out
}

// answerID is the id of the request p answers, if p is a response whose
// id could be read.
func answerID(p jsonrpc.Part) (jsonrpc.ID, bool) {
	if p.Msg != nil {
		return p.Msg.ID, p.Msg.Kind() == jsonrpc.KindResponse
	}
	var de *jsonrpc.DecodeError
	if errors.As(p.Err, &de) && de.Kind == jsonrpc.KindResponse && de.ID.IsValid() {
		return de.ID, true
	}
	return jsonrpc.ID{}, false
}
