package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"sync"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// maxRounds bounds the input_required rounds elicit completes for one
// call of the host's: a server that asks for ever is answered with an
// error, not followed.
const maxRounds = 32

// call is one request of the host's under way at the server.
type call struct {
	hostID jsonrpc.ID
	method string
	// params are what the server was sent (the host's, with the filled
	// capabilities); a retry adds inputResponses and requestState.
	params json.RawMessage
	// fill is what elicit filled in on it (2026-07-28: per request), and
	// declared what the server was told.
	fill, declared caps

	mu        sync.Mutex
	serverID  jsonrpc.ID // the id the server knows it by now
	cancelled bool
	stop      context.CancelFunc // ends elicit's round, if one runs
}

// cancel marks the call cancelled by the host and returns the id the
// server knows it by.
func (c *call) cancel() jsonrpc.ID {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cancelled = true
	if c.stop != nil {
		c.stop()
	}
	return c.serverID
}

// round is one input_required result of which elicit answers every input
// request.
type round struct {
	requests map[string]inputRequest
	state    json.RawMessage // requestState, as sent (nil: none)
}

type inputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// ownRound reads result as an input_required round elicit completes: one
// whose every input request is of a capability elicit filled in on c. A
// round with one the host declared goes to the host whole (the host
// answers its own, and a server asks again what stayed unanswered).
func (p *proxy) ownRound(c *call, result json.RawMessage) (round, bool) {
	var rt string
	if json.Unmarshal(member(result, "resultType"), &rt) != nil || rt != "input_required" {
		return round{}, false
	}
	var reqs map[string]inputRequest
	if raw := member(result, "inputRequests"); raw != nil {
		if json.Unmarshal(raw, &reqs) != nil {
			return round{}, false
		}
	}
	for _, r := range reqs {
		if !fills(c.fill, &jsonrpc.Message{Method: r.Method, Params: r.Params}) {
			return round{}, false
		}
	}
	if len(reqs) == 0 {
		return round{}, false // requestState only: the host retries it itself
	}
	return round{requests: reqs, state: member(result, "requestState")}, true
}

// complete answers round and the rounds after it, retrying c's request
// under ids of elicit's own, until the server gives a result the host
// gets (under its own id): a final one, or a round the host answers.
func (p *proxy) complete(c *call, r round) {
	ctx, stop := context.WithCancel(p.ctx)
	defer stop()
	c.mu.Lock()
	c.stop = stop
	cancelled := c.cancelled
	c.mu.Unlock()
	if cancelled {
		return
	}
	for n := 0; ; n++ {
		if n == maxRounds {
			p.toHostConn(jsonrpc.NewErrorResponse(c.hostID, jsonrpc.NewError(jsonrpc.CodeInternalError,
				"elicit proxy: the server asked for input more than 32 rounds running; given up", nil)))
			return
		}
		responses := map[string]json.RawMessage{}
		for k, in := range r.requests {
			key := question.Key{Server: p.cfg.Name, Delivery: question.InputRequest, CallID: c.hostID, Input: k}
			reply, ok := p.ask(ctx, key, in.Method, in.Params, c.declared)
			if !ok {
				return // withdrawn by the host's cancel, or the connection ended
			}
			if reply.Abandon || reply.Err != nil {
				p.toHostConn(jsonrpc.NewErrorResponse(c.hostID, jsonrpc.NewError(jsonrpc.CodeInternalError,
					"elicit proxy: input "+k+" could not be answered ("+reply.Sent+"); the call is abandoned", nil)))
				return
			}
			responses[k] = reply.Result
		}
		m, err := p.retry(ctx, c, responses, r.state)
		if err != nil {
			return
		}
		if m.Result != nil {
			if next, ok := p.ownRound(c, m.Result); ok {
				r = next
				continue
			}
		}
		p.toHostConn(&jsonrpc.Message{ID: c.hostID, Result: m.Result, Error: m.Error})
		return
	}
}

// retry sends c's request again under a new id of elicit's with
// responses and state, and waits for its answer.
func (p *proxy) retry(ctx context.Context, c *call, responses map[string]json.RawMessage, state json.RawMessage) (*jsonrpc.Message, error) {
	params, err := retryParams(c.params, responses, state)
	if err != nil {
		p.toHostConn(jsonrpc.NewErrorResponse(c.hostID, jsonrpc.NewError(jsonrpc.CodeInternalError, "elicit proxy: "+err.Error(), nil)))
		return nil, err
	}
	id, answer := p.ids.next()
	c.mu.Lock()
	if c.cancelled {
		c.mu.Unlock()
		p.ids.forget(id)
		return nil, errors.New("cancelled by the host")
	}
	c.serverID = id
	c.mu.Unlock()
	p.toServer(&jsonrpc.Message{ID: id, Method: c.method, Params: params})
	select {
	case m := <-answer:
		return m, nil
	case <-ctx.Done():
		p.ids.forget(id)
		return nil, ctx.Err()
	}
}

// retryParams is params with inputResponses and requestState (echoed
// exactly; absent when the server sent none).
func retryParams(params json.RawMessage, responses map[string]json.RawMessage, state json.RawMessage) (json.RawMessage, error) {
	top := map[string]json.RawMessage{}
	if err := json.Unmarshal(params, &top); err != nil {
		return nil, err
	}
	top = maps.Clone(top)
	delete(top, "requestState")
	if state != nil {
		top["requestState"] = state
	}
	b, err := encode(responses)
	if err != nil {
		return nil, err
	}
	top["inputResponses"] = b
	return encode(top)
}
