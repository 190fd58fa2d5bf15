package proxy

import (
	"context"
	"encoding/json"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// answer answers the server's request m of a capability elicit fills in
// (2025-11-25 and before), as the server was told declared is offered.
func (p *proxy) answer(ctx context.Context, m *jsonrpc.Message, declared caps) {
	key := question.Key{Server: p.cfg.Name, Delivery: question.ServerRequest, RequestID: m.ID}
	r, ok := p.ask(ctx, key, m.Method, m.Params, declared)
	switch {
	case !ok:
		return
	case r.Err != nil:
		p.toServer(jsonrpc.NewErrorResponse(m.ID, r.Err))
	case r.Result != nil:
		p.toServer(&jsonrpc.Message{ID: m.ID, Result: r.Result})
	}
}

// ask puts one request of a filled-in capability (a server request, or
// an input request of a round) to elicit's answerer and returns what
// answers it; false when nothing does (withdrawn, the connection ended).
func (p *proxy) ask(ctx context.Context, key question.Key, method string, params json.RawMessage, declared caps) (question.Reply, bool) {
	if method == wire.MethodRootsList {
		return question.Reply{Result: p.cfg.Roots, Sent: "roots"}, true
	}
	kind, ok := question.KindFor(method)
	if !ok {
		e := jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "elicit proxy: "+method+" is not answered", nil)
		return question.Reply{Err: e}, true
	}
	q := &question.Question{Key: key, Server: p.cfg.Name, Kind: kind, Arrived: time.Now()}
	env := question.Env{Modes: question.Modes{Form: declared.form, URL: declared.url},
		Sampling: question.SamplingModes{On: declared.sampling}, Subset: schema.Subset2025_11_25, Schemas: &p.schemas}
	var d question.Decision
	person := false
	if perr := question.ParseAs(q, params, env); perr != nil {
		d = question.Refused(perr)
	} else {
		prompter := p.cfg.Elicit
		if kind == question.KindSampling {
			prompter = p.cfg.Sample
		}
		if prompter == nil && p.cfg.Person != nil {
			req := Request{Method: method, Params: params, Modes: env.Modes, Sampling: declared.sampling}
			prompter = question.PrompterFunc(func(ctx context.Context, q *question.Question) question.Outcome {
				return p.cfg.Person.Ask(ctx, q, req)
			})
			person = true
		}
		asker := question.Asker{Prompter: prompter, WG: &p.wg}
		d = asker.Settle(ctx, q, func(ctx context.Context) (string, error) {
			if ctx.Err() != nil {
				return "", context.Cause(ctx)
			}
			return "", nil
		})
	}
	r, out := d.Reply(q)
	if person {
		p.cfg.Person.Settled(q, out, sentOr(r, out))
		p.notice("%s %s: %s (answered in the session)", key, kind, sentOr(r, out))
		return r, !r.None() || r.Abandon
	}
	p.notice("%s %s: %s (elicit answered for the host)", key, kind, sentOr(r, out))
	return r, !r.None() || r.Abandon
}

// sentOr is what went out, or the outcome when nothing did.
func sentOr(r question.Reply, out question.Outcome) string {
	if r.Sent != "" {
		return r.Sent
	}
	return out.Kind.String()
}

// Person is who answers, through the sessions hub, the questions elicit
// fills in and no policy answers (elicit proxy --session).
type Person interface {
	// Ask waits for the answer to q, asked by req; ctx ends with the
	// question's cause (withdrawn, disconnected…), which decides then.
	Ask(ctx context.Context, q *question.Question, req Request) question.Outcome
	// Settled says how q ended and what went to the server.
	Settled(q *question.Question, out question.Outcome, sent string)
}

// Request is a filled-in request as the server sent it, and what it was
// told is declared: what a Person needs to parse it again.
type Request struct {
	Method   string          `json:"method"`
	Params   json.RawMessage `json:"params,omitempty"`
	Modes    question.Modes  `json:"modes"`
	Sampling bool            `json:"sampling,omitempty"`
}

// clientName is the clientInfo name of initialize's params ("" if none).
func clientName(params json.RawMessage) string {
	var v struct {
		ClientInfo struct {
			Name string `json:"name"`
		} `json:"clientInfo"`
	}
	_ = json.Unmarshal(params, &v) // a bad initialize is the server's to refuse
	return v.ClientInfo.Name
}
