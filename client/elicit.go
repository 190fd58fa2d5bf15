package client

import (
	"context"
	"fmt"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// serveQuestion serves one server request a person answers
// (elicitation/create, sampling/createMessage) through the one ask path
// (deliver.go): a question of the kind the method asks, whose delivery is
// the request itself, or, task-augmented, our task (receiver.go).
func (o *offers) serveQuestion(e *incoming, m *jsonrpc.Message) {
	closed := o.h.promptOpened(e) // a task's question is its task's (tasks_core.go)
	defer closed()
	if o.h.servedAsTask(e, m) { // task-augmented: our task (receiver.go)
		return
	}
	kind, _ := question.KindFor(m.Method) // features.go routes only the kinds' methods here
	q := &question.Question{
		Key:     question.Key{Server: o.h.server, Delivery: question.ServerRequest, RequestID: e.id},
		Server:  o.h.server,
		Kind:    kind,
		Origin:  e.origin,
		Arrived: e.arrived,
	}
	o.h.ask(e.ctx, q, m.Params, requestDelivery{o, e})
}

// requestDelivery answers a question with a response to the server's
// request.
type requestDelivery struct {
	o *offers
	e *incoming
}

func (d requestDelivery) claim(ctx context.Context) (string, error) { return d.o.h.claim(d.e, ctx) }

func (d requestDelivery) send(q *question.Question, r question.Reply, out question.Outcome) {
	var sent *question.Reply
	if !r.None() {
		if err := d.o.h.reply(d.e.id, r.Result, r.Err); err == nil {
			sent = &r
		} else {
			out = question.NotDelivered(out, r.Sent, err.Error())
			// After the record: the journal says why before the call ends.
			defer d.o.answerLost(d.e, r.Sent, err)
		}
	}
	d.o.h.record(q, out, sent)
}

// answerLost ends, at once, what waits on the server's next move after
// our answer to its request e did not reach it (the write failed, or the
// server refused it: an HTTP 400 to the POSTed response): the call whose
// stream carried e, or the task e belongs to. Both would otherwise wait
// for an answer the server never got, until their timeout or for ever.
// A question tied to no call (stdio, a GET stream) ends nothing: which
// call it belongs to is a guess, and its clock runs again as it closes.
// When the session is ending, that ends them all anyway.
func (o *offers) answerLost(e *incoming, sent string, err error) {
	if o.h.err() != nil {
		return
	}
	cause := undelivered(sent, fmt.Sprintf("the server's %s #%s", e.method, e.id.Raw()), err)
	switch {
	case e.origin.Kind == question.OriginTask:
		o.h.taskLost(e.origin.TaskID, cause)
	case e.via != nil:
		e.via.clock.end(cause)
	}
}

// undelivered is the error that ends what waited on an answer (sent, as
// Reply.Sent names it) to what that did not reach the server, for err.
func undelivered(sent, what string, err error) error {
	if sent == "" {
		sent = "answer"
	}
	return fmt.Errorf("%w: the %s to %s was not taken: %w", question.ErrUndelivered, sent, what, err)
}
