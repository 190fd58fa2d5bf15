package lint

import (
	"bytes"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The hooks of the requests, responses and notifications; results and
// lists are results.go, tools tools.go, tasks tasks.go.

// Linter is one session's findings checks and what they remember, under
// its own lock. Its hooks may be called from any goroutine but never under
// the session's lock: Handle's funcs take it.
type Linter struct {
	rec *findings.Recorder
	h   Handle

	mu sync.Mutex
	// answered are our request ids that got their response, to tell a
	// duplicate response from one for an id we never sent; bounded.
	answered map[jsonrpc.ID]string
	// outputs are the tools' outputSchemas from the last tools/list.
	outputs map[string]*lintSchema
	// initSent: notifications/initialized went out. Atomic: every
	// notification reads it on the read loop.
	initSent atomic.Bool
	// unjudged are tool results that came before any tools/list (so
	// without their outputSchema), judged when one comes; bounded.
	unjudged map[string]unjudged
	// lastPage is, per list method, the id of its last page's response:
	// what a finding about the whole list points at.
	lastPage map[string]jsonrpc.ID
	// callerTokens are the progress tokens callers of Request put in
	// _meta: the client's own, like newToken's; bounded.
	callerTokens map[jsonrpc.ID]bool
}

// Handle is what the checks read of their session: a narrow view, so that
// the session's state stays the session's.
type Handle struct {
	// Server is the session's name, on every finding.
	Server string
	// Protocol is the protocol version in use.
	Protocol func() string
	// Stateless reports whether the session speaks the 2026-07-28 era.
	Stateless func() bool
	// Declared is what the server's capabilities declared.
	Declared func() Declared
	// CapabilityOf names the client capability a server request needs.
	CapabilityOf func(method string) string
}

// Declared are the server capabilities the checks of notifications read.
type Declared struct {
	ToolsListChanged     bool
	ResourcesListChanged bool
	PromptsListChanged   bool
	Logging              bool
	ResourcesSubscribe   bool
}

// New returns the checks of one session; with a nil rec they record
// nothing and each hook costs a nil check.
func New(rec *findings.Recorder, h Handle) *Linter {
	return &Linter{rec: rec, h: h}
}

// answeredKeep bounds Linter.answered and callerTokens; past it a set
// starts again (what is lost is at most a finding).
const answeredKeep = 4096

// keepBounded sets m[k] = v in a set bounded at answeredKeep: a nil or
// full set starts again. The caller holds Linter.mu.
func keepBounded[V any](m *map[jsonrpc.ID]V, k jsonrpc.ID, v V) {
	if *m == nil || len(*m) >= answeredKeep {
		*m = map[jsonrpc.ID]V{}
	}
	(*m)[k] = v
}

// Schema is one tool's outputSchema, compiled at its first result.
type lintSchema struct {
	raw  json.RawMessage
	once sync.Once
	doc  *schema.Document
	err  error
}

// On reports whether findings are recorded at all.
func (l *Linter) On() bool { return l.rec != nil }

// Find records one finding of the session's server.
func (l *Linter) Find(rule string, ref findings.FrameRef, format string, args ...any) {
	if l.rec == nil {
		return
	}
	l.rec.Report(l.h.Server, l.h.Protocol(), rule, ref, format, args...)
}

// InFrame names a frame from the server.
func InFrame(id jsonrpc.ID, method string, at time.Time) findings.FrameRef {
	ref := findings.FrameRef{In: true, Method: method, Time: at}
	if id.IsValid() {
		ref.ID = id.Raw()
	}
	return ref
}

// InitSent notes that notifications/initialized is about to go out:
// from now on the server may send what it likes.
func (l *Linter) InitSent() { l.initSent.Store(true) }

// early reports whether the server is still inside the handshake: a
// stateful era, notifications/initialized not sent yet.
func (l *Linter) early() bool { return !l.initSent.Load() && !l.h.Stateless() }

// Request checks a server request as it arrives (handleRequest).
func (l *Linter) Request(m *jsonrpc.Message, at time.Time, unrelated bool) {
	if !l.On() {
		return
	}
	ref := InFrame(m.ID, m.Method, at)
	if m.Method != wire.MethodPing && l.early() {
		l.Find(findings.BeforeInitialized, ref, "%s request before notifications/initialized", m.Method)
	}
	if unrelated {
		l.Find(findings.ElicitUnrelated, ref, "%s #%s came while no request of the client was open, without related-task _meta", m.Method, m.ID.Raw())
	}
}

// Question checks an elicitation's params as parsed (ask): a schema
// outside the subset, malformed params, a form that asks for a secret.
// A mode we did not declare is refused, which Refused reports.
func (l *Linter) Question(q *question.Question, params json.RawMessage, perr *question.ParamsError) {
	if !l.On() || q.Kind.Method() != wire.MethodElicit { // these are elicitation/create's rules
		return
	}
	ref := findings.FrameRef{In: true, Time: q.Arrived}
	if q.Key.Delivery == question.ServerRequest {
		ref = InFrame(q.Key.RequestID, wire.MethodElicit, q.Arrived)
	}
	where := q.Key.String()
	switch {
	case perr != nil && perr.NotDeclared != "":
		if q.Key.Delivery != question.ServerRequest {
			l.Find(findings.CapabilityUndeclared, ref, "%s: an input of mode %s, which the client did not declare", where, perr.NotDeclared)
		}
		return
	case perr != nil && bytes.HasPrefix([]byte(perr.Msg), []byte("invalid requestedSchema")):
		l.Find(findings.ElicitSchemaSubset, ref, "%s: %s", where, perr.Msg)
	case perr != nil:
		l.Find(findings.ElicitParams, ref, "%s: %s", where, perr.Msg)
		return
	}
	if q.Mode != question.ModeForm {
		return
	}
	raw := q.RawSchema
	if raw == nil {
		var p struct {
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}
		if wire.DecodeExact(params, &p) == nil {
			raw = p.RequestedSchema
		}
	}
	for _, f := range findings.SecretFields(raw) {
		l.Find(findings.ElicitFormSecret, ref, "%s: field %q asks for a secret (%s)", where, f[0], f[1])
	}
}

// Refused reports a server request refused for a capability we did
// not declare (features.go, refused).
func (l *Linter) Refused(id jsonrpc.ID, method, capability string) {
	l.Find(findings.CapabilityUndeclared, InFrame(id, method, time.Time{}),
		"%s #%s needs %s, which the client did not declare in %s", method, id.Raw(), capability, l.h.Protocol())
}

// InputUndeclared reports an input request (2026-07-28 inputRequests)
// of a client capability the request's clientCapabilities did not
// declare: the server must answer -32021 instead. at is when the result
// carrying it arrived, which names its frame.
func (l *Linter) InputUndeclared(raw json.RawMessage, at time.Time) {
	if !l.On() {
		return
	}
	method, ok := inputMethod(raw)
	if !ok || method != wire.MethodCreateMessage && method != wire.MethodRootsList {
		return
	}
	l.Find(findings.CapabilityUndeclared, findings.FrameRef{In: true, Time: at},
		"an input request %s needs %s, which the client did not declare in %s", method, l.h.CapabilityOf(method), l.h.Protocol())
}

// inputMethod reads an inputRequests entry's method by exact name, as the
// engine reads the entry (client's inputEntry): absent is "".
func inputMethod(raw json.RawMessage) (string, bool) {
	m, err := wire.ExactMembers(raw)
	if err != nil {
		return "", false
	}
	var method string
	if v, ok := m["method"]; ok && json.Unmarshal([]byte(v), &method) != nil {
		return "", false
	}
	return method, true
}

// Answered notes that our request id got its response (read loop).
func (l *Linter) Answered(id jsonrpc.ID, method string) {
	if !l.On() {
		return
	}
	l.mu.Lock()
	keepBounded(&l.answered, id, method)
	l.mu.Unlock()
}

// Stray reports a response no call waits for and we did not cancel:
// a second one, or one for an id we never sent.
func (l *Linter) Stray(id jsonrpc.ID, at time.Time) {
	if !l.On() {
		return
	}
	l.mu.Lock()
	method, dup := l.answered[id]
	l.mu.Unlock()
	ref := findings.FrameRef{In: true, ID: id.Raw(), Time: at}
	if dup {
		l.Find(findings.DuplicateResponse, ref, "a second response to %s #%s", method, id.Raw())
		return
	}
	l.Find(findings.UnknownResponseID, ref, "response for id %s, which the client never sent", id)
}

// Notification checks a server notification before it is handled:
// the handshake, and the capabilities it needs.
func (l *Linter) Notification(m *jsonrpc.Message) {
	if !l.On() {
		return
	}
	switch m.Method {
	case wire.NotifyProgress:
		return // the commonest, and allowed at any time
	case wire.NotifyToolsListChanged, wire.NotifyResourcesListChanged, wire.NotifyPromptsListChanged,
		wire.NotifyMessage, wire.NotifyResourcesUpdated:
	default:
		if l.early() {
			l.Find(findings.BeforeInitialized, InFrame(jsonrpc.ID{}, m.Method, time.Now()), "%s before notifications/initialized", m.Method)
		}
		return
	}
	ref := InFrame(jsonrpc.ID{}, m.Method, time.Now())
	if l.early() {
		if m.Method != wire.NotifyMessage {
			l.Find(findings.BeforeInitialized, ref, "%s before notifications/initialized", m.Method)
		}
		return // the capabilities are not known yet
	}
	caps := l.h.Declared()
	var what string
	var declared bool
	switch m.Method {
	case wire.NotifyToolsListChanged:
		what, declared = "tools.listChanged", caps.ToolsListChanged
	case wire.NotifyResourcesListChanged:
		what, declared = "resources.listChanged", caps.ResourcesListChanged
	case wire.NotifyPromptsListChanged:
		what, declared = "prompts.listChanged", caps.PromptsListChanged
	case wire.NotifyMessage:
		if !caps.Logging {
			l.Find(findings.LoggingUndeclared, ref, "notifications/message, but the server did not declare logging")
		}
		return
	case wire.NotifyResourcesUpdated:
		if !caps.ResourcesSubscribe && !l.h.Stateless() {
			l.Find(findings.SubscribeUndeclared, ref, "notifications/resources/updated, but the server did not declare resources.subscribe")
		}
		return
	default:
		return
	}
	if !declared {
		l.Find(findings.ListChangedUndeclared, ref, "%s, but the server did not declare %s", m.Method, what)
	}
}

// Malformed reports a notification whose params lack what the schema
// requires (the engine skips it).
func (l *Linter) Malformed(method, what string) {
	l.Find(findings.MembersRequired, InFrame(jsonrpc.ID{}, method, time.Now()), "%s: %s", method, what)
}

// CallerToken notes a progress token a caller of Request chose.
func (l *Linter) CallerToken(tok jsonrpc.ID) {
	if !l.On() || !tok.IsValid() {
		return
	}
	l.mu.Lock()
	keepBounded(&l.callerTokens, tok, true)
	l.mu.Unlock()
}

// Progress reports progress for a token the client never sent: not
// one newToken handed out (issued) nor one a caller of Request chose (one
// for a call that just ended is a race the spec allows).
func (l *Linter) Progress(tok jsonrpc.ID, issued bool) {
	if issued || !l.On() {
		return
	}
	c, ok := tok.Canonical()
	l.mu.Lock()
	mine := ok && l.callerTokens[c]
	l.mu.Unlock()
	if mine {
		return
	}
	l.Find(findings.ProgressUnknownToken, InFrame(jsonrpc.ID{}, wire.NotifyProgress, time.Now()),
		"notifications/progress for token %s, which the client never sent", tok)
}
