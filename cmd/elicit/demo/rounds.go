package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// How one tool handler serves both eras.
//
// A multi-round tool is written as a step: a function that looks at the
// answers of the previous round (none in the first) and either returns the
// final result or asks more questions with round.ask, which builds an
// input_required result (inputRequests plus a signed requestState).
//
//   - 2026-07-28 (MRTR): that result goes back to the client as it is; the
//     client retries tools/call with inputResponses and the requestState, and
//     the step runs again, in a fresh process for all it knows.
//   - 2025-11-25 and older: the client cannot read input_required, so the
//     handler plays the client's part in-process: it asks every question
//     with Session.Elicit (concurrently), then runs the step again with the
//     answers and the same requestState, until the step finishes.
//
// go-sdk has such a bridge built in (serverMultiRoundTripMiddleware), but it
// re-invokes the handler only once, so a second round (wizard) would reach
// an old client as a malformed result, and it turns a requestState-only
// result (load shedding) into a "server is busy" error. The loop here is
// that bridge made general; since the handler never returns inputRequests to
// an old session, go-sdk's bridge stays idle.

// modernVersion is the first protocol version of the stateless era.
const modernVersion = "2026-07-28"

// modern reports whether go-sdk will send this session's results as
// 2026-07-28 results (with resultType). It mirrors go-sdk's own test
// (clientSupportsMultiRoundTrip): a session with no initialize parameters
// is a new-era one.
func modern(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p == nil || p.ProtocolVersion >= modernVersion
}

// round is what one pass of a multi-round tool sees.
type round struct {
	n       int // 1 for the first pass
	answers mcp.InputResponseMap
	carried json.RawMessage
	seal    func(n int, data json.RawMessage) (string, error)
}

// first reports whether this is the call's first round (no requestState).
func (r *round) first() bool { return r.n == 1 }

// carry decodes the payload the previous round passed to ask into v.
func (r *round) carry(v any) error {
	if len(r.carried) == 0 {
		return nil
	}
	if err := json.Unmarshal(r.carried, v); err != nil {
		return fmt.Errorf("decoding the carried state: %w", err)
	}
	return nil
}

// answer returns the answer to the question asked under key in the previous
// round, or nil if there is none (a client may retry without answering; the
// step should then ask again). An accepted form answer is checked against
// schema and gets its defaults; a nil schema (URL mode) checks nothing, and
// neither does an accept without content, as go-sdk's Session.Elicit.
func (r *round) answer(key string, schema any) (*mcp.ElicitResult, error) {
	resp, ok := r.answers[key]
	if !ok || resp == nil {
		return nil, nil
	}
	res, ok := resp.(*mcp.ElicitResult)
	if !ok {
		return nil, fmt.Errorf("the response to %q is a %T, not an elicitation result", key, resp)
	}
	out := &mcp.ElicitResult{Action: res.Action, Content: res.Content}
	if res.Action == actionAccept && res.Content != nil && schema != nil {
		content, err := checkAnswer(schema, res.Content)
		if err != nil {
			return nil, fmt.Errorf("the answer to %q does not match the form: %w", key, err)
		}
		out.Content = content
	}
	return out, nil
}

// ask ends this round with questions (none at all means "retry at once",
// the load-shedding case) and data for the next round to carry.
func (r *round) ask(data any, questions map[string]*mcp.ElicitParams) (*mcp.CallToolResult, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("encoding the state to carry: %w", err)
	}
	state, err := r.seal(r.n, raw)
	if err != nil {
		return nil, err
	}
	// Non-nil even when empty: go-sdk reads a nil map as "complete".
	requests := make(mcp.InputRequestMap, len(questions))
	for k, q := range questions {
		requests[k] = q
	}
	return &mcp.CallToolResult{InputRequests: requests, RequestState: state}, nil
}

// form builds a form-mode question.
func form(message string, schema any) *mcp.ElicitParams {
	return &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: schema}
}

// step is one pass of a multi-round tool.
type step[In any] func(ctx context.Context, req *mcp.CallToolRequest, in In, r *round) (*mcp.CallToolResult, error)

// multiRound turns a step into a tool handler serving both eras (see the
// comment at the top of this file).
func multiRound[In any](codec stateCodec, tool string, s step[In]) mcp.ToolHandlerFor[In, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		args, err := argsDigest(in)
		if err != nil {
			return nil, nil, err
		}
		seal := func(n int, data json.RawMessage) (string, error) {
			return codec.seal(statePayload{Format: stateFormat, Tool: tool, Args: args, Round: n,
				Issued: time.Now().Unix(), Data: data})
		}
		resume := func(state string, answers mcp.InputResponseMap) (*round, error) {
			if state == "" {
				// Answers to questions this server never asked (no state) are
				// ignored, as mrtr.mdx asks of unknown responses.
				return &round{n: 1, seal: seal}, nil
			}
			p, err := codec.open(state, tool, args, time.Now())
			if err != nil {
				return nil, err
			}
			return &round{n: p.Round + 1, answers: answers, carried: p.Data, seal: seal}, nil
		}

		r, err := resume(req.Params.RequestState, req.Params.InputResponses)
		if err != nil {
			return nil, nil, err
		}
		for {
			res, err := s(ctx, req, in, r)
			if err != nil || res == nil || res.InputRequests == nil {
				return res, nil, err
			}
			if modern(req.Session) {
				if err := checkCapabilities(req, res.InputRequests); err != nil {
					return nil, nil, err
				}
				return res, nil, nil
			}
			answers, err := askAll(ctx, req, res.InputRequests)
			if err != nil {
				return nil, nil, err
			}
			if r, err = resume(res.RequestState, answers); err != nil {
				return nil, nil, err
			}
		}
	}
}

// askAll asks every question with elicitation/create at once, as go-sdk's
// client does with inputRequests, and returns the answers by key. The first
// failure withdraws the other questions.
func askAll(ctx context.Context, req *mcp.CallToolRequest, questions mcp.InputRequestMap) (mcp.InputResponseMap, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		answers = make(mcp.InputResponseMap, len(questions))
		errs    = map[string]error{}
	)
	params := make(map[string]*mcp.ElicitParams, len(questions))
	for key, q := range questions { // all checked before any is asked
		p, ok := q.(*mcp.ElicitParams)
		if !ok {
			return nil, fmt.Errorf("input request %q: the demo only asks elicitations, not %T", key, q)
		}
		params[key] = p
	}
	for key, p := range params {
		wg.Go(func() {
			res, err := elicit(ctx, req, p)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs[key] = fmt.Errorf("elicitation/create %q: %w", p.Message, err)
				cancel()
				return
			}
			answers[key] = res
		})
	}
	wg.Wait()
	for _, key := range slices.Sorted(maps.Keys(errs)) { // the first key's error, for a stable message
		return nil, errs[key]
	}
	return answers, nil
}

// checkCapabilities refuses, with -32021 MissingRequiredClientCapability,
// to send questions the client did not declare it can answer: in 2026-07-28
// the capabilities come with each request's _meta, not from a handshake.
func checkCapabilities(req *mcp.CallToolRequest, questions mcp.InputRequestMap) error {
	caps := req.ClientCapabilities()
	var el *mcp.ElicitationCapabilities
	if caps != nil {
		el = caps.Elicitation
	}
	for _, key := range slices.Sorted(maps.Keys(questions)) {
		p, ok := questions[key].(*mcp.ElicitParams)
		if !ok {
			continue
		}
		mode := p.Mode
		if mode == "" {
			mode = "form"
		}
		// As go-sdk does: an elicitation capability naming no mode means form.
		supported := el != nil && (mode == "form" && (el.Form != nil || el.URL == nil) || mode == "url" && el.URL != nil)
		if supported {
			continue
		}
		data, err := json.Marshal(map[string]any{
			"requiredCapabilities": map[string]any{"elicitation": map[string]any{mode: map[string]any{}}},
		})
		if err != nil {
			return fmt.Errorf("encoding the missing capability: %w", err)
		}
		return &jsonrpc.Error{
			Code: mcp.CodeMissingRequiredClientCapabilities,
			Message: fmt.Sprintf("this tool needs to ask the user (%s-mode elicitation), but the request's "+
				"_meta clientCapabilities do not declare elicitation.%s", mode, mode),
			Data: data,
		}
	}
	return nil
}
