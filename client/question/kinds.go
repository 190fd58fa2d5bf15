package question

import (
	"encoding/json"
	"time"

	"github.com/elicit-dev/elicit/forms/schema"
)

// A question kind is one descriptor. What differs between an elicitation,
// a sampling request and an ACP permission (its name, the method asking
// it, whether it is declared, how its params are read, how an answer is
// judged, its columns of the reply table, how the journal counts it, what
// a headless run answers without a policy for it) is its kindSpec, and
// everything else asks the descriptor instead of branching on the kind:
// Judge, Decision.Reply, Journal.Record, Route, Parse and NewEntry. A new
// kind is a Kind constant, its spec (its own file) and one line in
// kindSpecs; a front end keeps its own table of forms keyed by Kind (the
// TUI's is ui/kinds.go).

// Kind is what a question asks for.
type Kind int

// The kinds.
const (
	// KindElicitation: elicitation/create; Mode says form or URL.
	KindElicitation Kind = iota
	// KindSampling: sampling/createMessage; Sampling holds the request,
	// and the answer is the assistant's message (Outcome.Sample).
	KindSampling
	// KindPermission: ACP's session/request_permission (and the question
	// fs/write_text_file asks first); Permission holds the options, and
	// the answer names one (Outcome.Option).
	KindPermission

	// kindCount is how many kinds there are: each has a line in kindSpecs.
	kindCount
)

// kindSpec describes one kind of question.
type kindSpec struct {
	// name is Kind.String(): the journal's, the recording's and the
	// headless output's word for it.
	name string
	// method is the MCP request that asks it, "" for none (ACP's
	// requests are dispatched by the ACP client, which knows its
	// methods).
	method string
	// declared reports whether env declares the kind, so that an input
	// request of it is put to a person at all (else it is unanswerable).
	declared func(env Env) bool
	// parse fills q (whose Kind is set) from its params, or says why they
	// are unacceptable (-32602).
	parse func(q *Question, params json.RawMessage, env Env) *ParamsError
	// judge decides the Prompter's Accept: what it holds must fit q.
	judge func(q *Question, out Outcome) Decision
	// reply is the kind's columns of Decision.Reply.
	reply func(d Decision, q *Question) (Reply, Outcome)
	// note fills the kind's own parts of a journal entry (sampling's
	// record, an ACP question's bucket and option); r is what went out,
	// nil for nothing.
	note func(e *JournalEntry, q *Question, out Outcome, r *Reply)
	// byBucket: the journal counts the kind by bucket only (ACP
	// permissions: the option kind chosen), not by outcome.
	byBucket bool
	// unrouted is what a Route with no Prompter for the kind answers.
	unrouted Outcome
	// notForm, if set, is why a form policy (Policy, Answers) declines
	// the kind: form answers cannot answer it.
	notForm string
}

// kindSpecs is the registry, indexed by Kind: one line per kind. It is
// built from literals and never written.
var kindSpecs = [kindCount]kindSpec{
	KindElicitation: elicitationKind,
	KindSampling:    samplingKind,
	KindPermission:  permissionKind,
}

// spec is k's descriptor; an unknown kind is read as an elicitation, as
// Kind.String always did.
func (k Kind) spec() *kindSpec {
	if k >= 0 && int(k) < len(kindSpecs) {
		return &kindSpecs[k]
	}
	return &kindSpecs[KindElicitation]
}

// Kinds lists every kind, in registry order: a front end's own table of
// kinds is checked against it.
func Kinds() []Kind {
	ks := make([]Kind, len(kindSpecs))
	for i := range ks {
		ks[i] = Kind(i)
	}
	return ks
}

func (k Kind) String() string { return k.spec().name }

// Method is the MCP request that asks a question of kind k, "" for a
// kind no MCP request asks.
func (k Kind) Method() string { return k.spec().method }

// Declared reports whether env declares kind k: an input request of a
// kind not declared gets no answer.
func (k Kind) Declared(env Env) bool { return k.spec().declared(env) }

// KindFor is the kind of question an MCP request of method asks; false
// when no person answers that method.
func KindFor(method string) (Kind, bool) {
	for k := range kindSpecs {
		if m := kindSpecs[k].method; m != "" && m == method {
			return Kind(k), true
		}
	}
	return 0, false
}

// Env is what a peer declared, which a question's params are read
// against: the elicitation modes and schema subset, and sampling's modes.
type Env struct {
	Modes    Modes
	Sampling SamplingModes
	Subset   schema.Subset
	// Schemas caches parsed schemas; it may be shared by every question
	// of a peer.
	Schemas *SchemaCache
}

// ParseAs fills q from params by its kind (q.Kind), against env, or says
// why they are unacceptable.
func ParseAs(q *Question, params json.RawMessage, env Env) *ParamsError {
	return q.Kind.spec().parse(q, params, env)
}

// NewEntry is the journal entry of q, which ended with out after r went
// out (nil for nothing), as server's at time at.
func NewEntry(q *Question, server string, out Outcome, r *Reply, at time.Time) JournalEntry {
	e := JournalEntry{Key: q.Key, Server: server, Origin: q.Origin, Kind: out.Kind, Latency: at.Sub(q.Arrived),
		Reason: out.Reason, At: at, Asked: q.Kind}
	if r != nil {
		e.Sent = r.Sent
	}
	if e.Sent == "accept" {
		e.Content = out.Content
	}
	if n := q.Kind.spec().note; n != nil {
		n(&e, q, out, r)
	}
	return e
}

// replyOf is *r, or no reply for nil.
func replyOf(r *Reply) Reply {
	if r == nil {
		return Reply{}
	}
	return *r
}
