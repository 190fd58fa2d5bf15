package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// This file is the 2026-07-28 request path: _meta on every request,
// resultType on every result, and multi round-trip requests (MRTR): a
// tools/call, prompts/get or resources/read answered input_required is
// retried, round after round, with the person's answers.

// Bounds on what a server can make us do.
const (
	// maxRounds bounds the input_required rounds of one call.
	maxRounds = 100
	// maxEmptyRounds bounds consecutive rounds that ask nothing (load
	// shedding: the retry goes out at once, with requestState only).
	maxEmptyRounds = 10
	// maxResends bounds how often one retry is sent again after its
	// stream was lost.
	maxResends = 2
)

// mrtrMethod reports whether method may answer input_required.
func mrtrMethod(method string) bool {
	switch method {
	case wire.MethodToolsCall, wire.MethodPromptsGet, wire.MethodResourcesRead:
		return true
	}
	return false
}

// inputRequired is an input_required result: the questions by key, and
// requestState exactly as sent (nil when absent).
type inputRequired struct {
	Requests map[string]json.RawMessage `json:"inputRequests"`
	State    json.RawMessage            `json:"requestState"`
}

// UnmarshalJSON reads the members by their exact names. encoding/json
// matches struct fields case-insensitively, which took a "requestStAte"
// for requestState (echoed back under the real name, and overriding the
// real one when both came); the spec wants requestState exactly as sent.
// Found by FuzzInputRequired.
func (ir *inputRequired) UnmarshalJSON(b []byte) error {
	type plain inputRequired // without this method
	*ir = inputRequired{}
	return wire.DecodeExact(b, (*plain)(ir))
}

// rounds is a session's 2026-07-28 request path: it runs a call round
// after round, and keeps the rounds whose retry is not yet written (under
// its own lock). It reaches the session only through its roundsHandle
// (mrtr_handle.go).
type rounds struct {
	h    roundsHandle
	mu   sync.Mutex
	open map[*roundRecord]bool
}

func newRounds(h roundsHandle) *rounds {
	return &rounds{h: h, open: map[*roundRecord]bool{}}
}

// run runs c in the 2026-07-28 era until its final response.
func (rs *rounds) run(ctx context.Context, c *call, base json.RawMessage) (*jsonrpc.Message, error) {
	var (
		responses map[string]json.RawMessage // nil in round 1 and after a round that asked nothing
		state     json.RawMessage
		rec       *roundRecord
		round     = 1
		empty     int
		resends   int
		switched  bool
		relisted  bool
	)
	for {
		params, err := rs.params(base, responses, state, mrtrMethod(c.method))
		if err != nil {
			return nil, err
		}
		if rec != nil {
			c.sent = rec.delivered
		}
		in, _, err := rs.h.roundTrip(ctx, c, params)
		c.sent = nil
		if rec != nil {
			why := "the retry was not sent"
			if err != nil {
				why = err.Error()
			}
			rec.undelivered(why) // a no-op once delivered
		}
		if err != nil {
			return nil, err
		}
		if errors.Is(in.Err, transport.ErrRequestLost) && resendable(c, round) && resends < maxResends {
			// 2026-07-28 HTTP has no resumption: the request is gone with
			// its stream, and goes out again under a new id. A round's
			// answers must not be lost that way.
			resends++
			if round > 1 {
				rs.h.notice("the connection dropped while %s was sending the answers of round %d; sending them again", c.describe(), round)
			} else {
				rs.h.notice("the connection dropped during %s; sending it again", c.describe())
			}
			rec = nil
			continue
		}
		if in.Err != nil {
			return nil, c.unanswered(in.Err)
		}
		m := in.Msg
		if m.Error != nil {
			switch {
			case m.Error.Code == jsonrpc.CodeUnsupportedProtocolVersion && !switched:
				switched = true
				if rs.switchVersion(m.Error) {
					rec = nil
					continue
				}
			case m.Error.Code == jsonrpc.CodeHeaderMismatch && !relisted:
				// Maybe a tool schema we lack (headers.go).
				relisted = true
				if rs.h.relist(ctx, c, params) {
					rec = nil
					continue
				}
			}
			return m, nil
		}
		rs.h.lint.ResultType(c.method, c.taskOK, mrtrMethod(c.method), m)
		switch rt := wire.ResultType(m.Result); {
		case rt == "complete":
			return m, nil
		case rt == "task" && c.taskOK:
			return m, nil // the tasks extension: the caller follows it (tasks*.go)
		case rt != "input_required":
			return nil, fmt.Errorf("invalid response: resultType %q is not supported", rt)
		case !mrtrMethod(c.method):
			return nil, fmt.Errorf("invalid response: %s may not answer input_required", c.method)
		}
		var ir inputRequired
		if err := json.Unmarshal(m.Result, &ir); err != nil {
			return nil, fmt.Errorf("invalid input_required result: %w", err)
		}
		if round++; round > maxRounds {
			return nil, fmt.Errorf("gave up after %d input_required rounds", maxRounds)
		}
		rec, resends = nil, 0
		if len(ir.Requests) == 0 {
			// Only requestState: retry at once, within reason.
			if empty++; empty > maxEmptyRounds {
				return nil, fmt.Errorf("gave up after %d input_required rounds that asked nothing", maxEmptyRounds)
			}
			responses, state = nil, ir.State
			continue
		}
		empty = 0
		responses, rec, err = rs.serve(ctx, c, ir.Requests, in.Received)
		if err != nil {
			return nil, err
		}
		state = ir.State
	}
}

// params is the request's params for one round: the caller's params,
// the round's answers and requestState (exactly as the server sent it),
// and our _meta.
func (rs *rounds) params(base json.RawMessage, responses map[string]json.RawMessage, state json.RawMessage, mrtr bool) (json.RawMessage, error) {
	top, err := wire.Members(base)
	if err != nil {
		return nil, err
	}
	if !mrtr {
		// Not a round at all: tasks/update carries inputResponses of its
		// own (tasks_ext.go), which must go out as they are.
		return wire.WithMeta(wire.Object(top), rs.h.meta())
	}
	delete(top, "inputResponses")
	delete(top, "requestState")
	if responses != nil {
		top["inputResponses"] = wire.Object(responses)
	}
	if state != nil {
		top["requestState"] = state
	}
	return wire.WithMeta(wire.Object(top), rs.h.meta())
}

// switchVersion handles -32022 on a stateless session: if the server
// speaks another stateless version we speak, the session moves to it and
// the request is sent again once.
func (rs *rounds) switchVersion(e *jsonrpc.Error) bool {
	sup, _ := wire.UnsupportedVersion(e.Data)
	v := best(sup, wire.Stateless)
	if v == "" || v == rs.h.protocol() {
		return false
	}
	old := rs.h.switchTo(v)
	rs.h.notice("the server no longer speaks %s; switched to %s", old, v)
	return true
}

// resendable reports whether a lost request is sent again by itself: a
// retry (its answers came from a person) and requests without side
// effects; not a first tools/call, which may have acted already, nor a
// subscription, which its Listener reports ended.
func resendable(c *call, round int) bool {
	return round > 1 || (c.method != wire.MethodToolsCall && c.method != wire.MethodSubscriptionsListen)
}
