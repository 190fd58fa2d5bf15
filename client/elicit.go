package client

import (
	"context"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// serveElicit serves one elicitation/create request through the one ask
// path (deliver.go): its delivery is the request itself.
func (s *Session) serveElicit(e *incoming, params []byte) {
	q := &question.Question{
		Key:     question.Key{Server: s.name, Delivery: question.ServerRequest, RequestID: e.id},
		Server:  s.name,
		Origin:  e.origin,
		Arrived: e.arrived,
	}
	s.ask(e.ctx, q, params, requestDelivery{s, e})
}

// requestDelivery answers a question with a response to the server's
// request.
type requestDelivery struct {
	s *Session
	e *incoming
}

func (d requestDelivery) claim(ctx context.Context) (string, error) { return d.s.claim(d.e, ctx) }

func (d requestDelivery) send(q *question.Question, r question.Reply, out question.Outcome) {
	var sent *question.Reply
	if !r.None() {
		if err := d.s.reply(d.e.id, r.Result, r.Err); err == nil {
			sent = &r
		} else {
			out.Reason = question.JoinReason(out.Reason, "answer not delivered: "+err.Error())
		}
	}
	d.s.record(q, out, sent)
}

// serveCreateMessage serves one sampling/createMessage request through
// the one ask path: a question of KindSampling, answered by a response
// to the request (features.go declares sampling).
func (s *Session) serveCreateMessage(e *incoming, m *jsonrpc.Message) {
	closed := s.taskPromptOpened(e) // a task's question is its task's (tasks_core.go)
	defer closed()
	if s.servedAsTask(e, m) { // task-augmented: our task (receiver.go)
		return
	}
	q := &question.Question{
		Key:     question.Key{Server: s.name, Delivery: question.ServerRequest, RequestID: e.id},
		Server:  s.name,
		Kind:    question.KindSampling,
		Origin:  e.origin,
		Arrived: e.arrived,
	}
	s.ask(e.ctx, q, m.Params, requestDelivery{s, e})
}
