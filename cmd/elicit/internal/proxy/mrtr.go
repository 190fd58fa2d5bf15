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

// maxCarried bounds the answers kept for shared rounds the host has yet
// to retry: a host that never retries one must not fill the memory.
const maxCarried = 1024

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

// round is one input_required result of which elicit answers some or
// every input request.
type round struct {
	requests map[string]inputRequest // elicit's to answer
	host     map[string]inputRequest // the host's (it declared them)
	state    json.RawMessage         // requestState, as sent (nil: none)
	result   json.RawMessage         // the result as the server sent it
}

type inputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// readRound reads result as an input_required round with input requests
// of a capability elicit filled in on c; false for anything else (a final
// result, a round wholly the host's, one with requestState only, which
// the host retries itself).
func (p *proxy) readRound(c *call, result json.RawMessage) (round, bool) {
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
	r := round{requests: map[string]inputRequest{}, host: map[string]inputRequest{}, state: member(result, "requestState"), result: result}
	for k, in := range reqs {
		if fills(c.fill, &jsonrpc.Message{Method: in.Method, Params: in.Params}) {
			r.requests[k] = in
		} else {
			r.host[k] = in
		}
	}
	return r, len(r.requests) > 0
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
		if len(r.host) > 0 {
			p.shareRound(ctx, c, r)
			return
		}
		if n == maxRounds {
			p.toHostConn(jsonrpc.NewErrorResponse(c.hostID, jsonrpc.NewError(jsonrpc.CodeInternalError,
				"elicit proxy: the server asked for input more than 32 rounds running; given up", nil)))
			return
		}
		responses, ok := p.answerRound(ctx, c, r)
		if !ok {
			return
		}
		m, err := p.retry(ctx, c, responses, r.state)
		if err != nil {
			return
		}
		if m.Result != nil {
			if next, ok := p.readRound(c, m.Result); ok {
				r = next
				continue
			}
		}
		p.toHostConn(&jsonrpc.Message{ID: c.hostID, Result: m.Result, Error: m.Error})
		return
	}
}

// answerRound answers elicit's input requests of r; false when the call
// ended instead (withdrawn by the host's cancel, the connection gone, or
// an input nothing can answer, which the host is told of).
func (p *proxy) answerRound(ctx context.Context, c *call, r round) (map[string]json.RawMessage, bool) {
	responses := map[string]json.RawMessage{}
	for k, in := range r.requests {
		key := question.Key{Server: p.cfg.Name, Delivery: question.InputRequest, CallID: c.hostID, Input: k}
		reply, ok := p.ask(ctx, key, in.Method, in.Params, c.declared)
		if !ok {
			return nil, false
		}
		if reply.Abandon || reply.Err != nil {
			p.toHostConn(jsonrpc.NewErrorResponse(c.hostID, jsonrpc.NewError(jsonrpc.CodeInternalError,
				"elicit proxy: input "+k+" could not be answered ("+reply.Sent+"); the call is abandoned", nil)))
			return nil, false
		}
		responses[k] = reply.Result
	}
	return responses, true
}

// shareRound is a round whose input requests are partly the host's:
// elicit answers its own and keeps the answers, the host gets the round
// with only its own input requests (under its id), and elicit's answers
// join the host's retry (carried, keyed by the request and its
// requestState). Never both: each input request is answered by one side.
func (p *proxy) shareRound(ctx context.Context, c *call, r round) {
	responses, ok := p.answerRound(ctx, c, r)
	if !ok {
		return
	}
	hostReqs, err := encode(r.host)
	if err == nil {
		var res json.RawMessage
		if res, err = withMember(r.result, "inputRequests", hostReqs); err == nil {
			p.mu.Lock()
			if len(p.carried) >= maxCarried {
				clear(p.carried) // rounds the host never retried
			}
			p.carried[carryKey(c.method, c.params, r.state)] = responses
			p.mu.Unlock()
			p.toHostConn(&jsonrpc.Message{ID: c.hostID, Result: res})
			return
		}
	}
	p.toHostConn(jsonrpc.NewErrorResponse(c.hostID, jsonrpc.NewError(jsonrpc.CodeInternalError, "elicit proxy: "+err.Error(), nil)))
}

// carryKey names a request and the round it answers: its method, what it
// names (a tool, prompt or resource) and the requestState.
func carryKey(method string, params, state json.RawMessage) string {
	name := member(params, "name")
	if name == nil {
		name = member(params, "uri")
	}
	return method + "\x00" + string(name) + "\x00" + string(state)
}

// withCarried is the host's retry params with elicit's answers to the
// round they retry added to its inputResponses (nil when elicit has none
// for it).
func (p *proxy) withCarried(method string, params json.RawMessage) json.RawMessage {
	own := member(params, "inputResponses")
	if own == nil {
		return nil
	}
	k := carryKey(method, params, member(params, "requestState"))
	p.mu.Lock()
	mine := p.carried[k]
	delete(p.carried, k)
	p.mu.Unlock()
	if mine == nil {
		return nil
	}
	var all map[string]json.RawMessage
	if json.Unmarshal(own, &all) != nil {
		return nil
	}
	for key, v := range mine {
		if _, ok := all[key]; !ok {
			all[key] = v
		}
	}
	b, err := encode(all)
	if err != nil {
		return nil
	}
	out, err := withMember(params, "inputResponses", b)
	if err != nil {
		return nil
	}
	return out
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
