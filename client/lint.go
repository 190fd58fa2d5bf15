package client

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

// The findings checks (client/findings): each hook in the engine is one
// call here, made where the engine already notices what the server did,
// never under Session.mu (find reads the protocol under it). With no
// Options.Findings they cost a nil check.

// lintState is what the checks remember; under its own lock.
type lintState struct {
	rec *findings.Recorder

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

// answeredKeep bounds lintState.answered and callerTokens; past it a set
// starts again (what is lost is at most a finding).
const answeredKeep = 4096

// keepBounded sets m[k] = v in a set bounded at answeredKeep: a nil or
// full set starts again. The caller holds lintState.mu.
func keepBounded[V any](m *map[jsonrpc.ID]V, k jsonrpc.ID, v V) {
	if *m == nil || len(*m) >= answeredKeep {
		*m = map[jsonrpc.ID]V{}
	}
	(*m)[k] = v
}

// lintSchema is one tool's outputSchema, compiled at its first result.
type lintSchema struct {
	raw  json.RawMessage
	once sync.Once
	doc  *schema.Document
	err  error
}

// lintOn reports whether findings are recorded at all.
func (s *Session) lintOn() bool { return s.lint.rec != nil }

// find records one finding of the session's server.
func (s *Session) find(rule string, ref findings.FrameRef, format string, args ...any) {
	if s.lint.rec == nil {
		return
	}
	s.lint.rec.Report(s.name, s.Protocol(), rule, ref, format, args...)
}

// inFrame names a frame from the server.
func inFrame(id jsonrpc.ID, method string, at time.Time) findings.FrameRef {
	ref := findings.FrameRef{In: true, Method: method, Time: at}
	if id.IsValid() {
		ref.ID = id.Raw()
	}
	return ref
}

// lintInitSent notes that notifications/initialized is about to go out:
// from now on the server may send what it likes.
func (s *Session) lintInitSent() { s.lint.initSent.Store(true) }

// early reports whether the server is still inside the handshake: a
// stateful era, notifications/initialized not sent yet.
func (s *Session) early() bool { return !s.lint.initSent.Load() && !s.stateless() }

// lintRequest checks a server request as it arrives (handleRequest).
func (s *Session) lintRequest(m *jsonrpc.Message, at time.Time, unrelated bool) {
	if !s.lintOn() {
		return
	}
	ref := inFrame(m.ID, m.Method, at)
	if m.Method != wire.MethodPing && s.early() {
		s.find(findings.BeforeInitialized, ref, "%s request before notifications/initialized", m.Method)
	}
	if unrelated {
		s.find(findings.ElicitUnrelated, ref, "%s #%s came while no request of the client was open, without related-task _meta", m.Method, m.ID.Raw())
	}
}

// lintQuestion checks an elicitation's params as parsed (ask): a schema
// outside the subset, malformed params, a form that asks for a secret.
// A mode we did not declare is refused, which lintRefused reports.
func (s *Session) lintQuestion(q *question.Question, params json.RawMessage, perr *question.ParamsError) {
	if !s.lintOn() || q.Kind == question.KindSampling {
		return
	}
	ref := findings.FrameRef{In: true, Time: q.Arrived}
	if q.Key.Delivery == question.ServerRequest {
		ref = inFrame(q.Key.RequestID, wire.MethodElicit, q.Arrived)
	}
	where := q.Key.String()
	switch {
	case perr != nil && perr.NotDeclared != "":
		if q.Key.Delivery != question.ServerRequest {
			s.find(findings.CapabilityUndeclared, ref, "%s: an input of mode %s, which the client did not declare", where, perr.NotDeclared)
		}
		return
	case perr != nil && bytes.HasPrefix([]byte(perr.Msg), []byte("invalid requestedSchema")):
		s.find(findings.ElicitSchemaSubset, ref, "%s: %s", where, perr.Msg)
	case perr != nil:
		s.find(findings.ElicitParams, ref, "%s: %s", where, perr.Msg)
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
		s.find(findings.ElicitFormSecret, ref, "%s: field %q asks for a secret (%s)", where, f[0], f[1])
	}
}

// lintRefused reports a server request refused for a capability we did
// not declare (features.go, refused).
func (s *Session) lintRefused(id jsonrpc.ID, method, capability string) {
	s.find(findings.CapabilityUndeclared, inFrame(id, method, time.Time{}),
		"%s #%s needs %s, which the client did not declare in %s", method, id.Raw(), capability, s.Protocol())
}

// lintInputUndeclared reports an input request (2026-07-28 inputRequests)
// of a client capability the request's clientCapabilities did not
// declare: the server must answer -32021 instead. at is when the result
// carrying it arrived, which names its frame.
func (s *Session) lintInputUndeclared(raw json.RawMessage, at time.Time) {
	var e inputEntry
	if !s.lintOn() || json.Unmarshal(raw, &e) != nil || e.Method != wire.MethodCreateMessage && e.Method != wire.MethodRootsList {
		return
	}
	s.find(findings.CapabilityUndeclared, findings.FrameRef{In: true, Time: at},
		"an input request %s needs %s, which the client did not declare in %s", e.Method, capabilityOf(e.Method), s.Protocol())
}

// lintAnswered notes that our request id got its response (read loop).
func (s *Session) lintAnswered(id jsonrpc.ID, method string) {
	if !s.lintOn() {
		return
	}
	s.lint.mu.Lock()
	keepBounded(&s.lint.answered, id, method)
	s.lint.mu.Unlock()
}

// lintStray reports a response no call waits for and we did not cancel:
// a second one, or one for an id we never sent.
func (s *Session) lintStray(id jsonrpc.ID, at time.Time) {
	if !s.lintOn() {
		return
	}
	s.lint.mu.Lock()
	method, dup := s.lint.answered[id]
	s.lint.mu.Unlock()
	ref := findings.FrameRef{In: true, ID: id.Raw(), Time: at}
	if dup {
		s.find(findings.DuplicateResponse, ref, "a second response to %s #%s", method, id.Raw())
		return
	}
	s.find(findings.UnknownResponseID, ref, "response for id %s, which the client never sent", id)
}

// lintNotification checks a server notification before it is handled:
// the handshake, and the capabilities it needs.
func (s *Session) lintNotification(m *jsonrpc.Message) {
	if !s.lintOn() {
		return
	}
	switch m.Method {
	case wire.NotifyProgress:
		return // the commonest, and allowed at any time
	case wire.NotifyToolsListChanged, wire.NotifyResourcesListChanged, wire.NotifyPromptsListChanged,
		wire.NotifyMessage, wire.NotifyResourcesUpdated:
	default:
		if s.early() {
			s.find(findings.BeforeInitialized, inFrame(jsonrpc.ID{}, m.Method, time.Now()), "%s before notifications/initialized", m.Method)
		}
		return
	}
	ref := inFrame(jsonrpc.ID{}, m.Method, time.Now())
	if s.early() {
		if m.Method != wire.NotifyMessage {
			s.find(findings.BeforeInitialized, ref, "%s before notifications/initialized", m.Method)
		}
		return // the capabilities are not known yet
	}
	caps := s.ServerCapabilities()
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
			s.find(findings.LoggingUndeclared, ref, "notifications/message, but the server did not declare logging")
		}
		return
	case wire.NotifyResourcesUpdated:
		if !caps.ResourcesSubscribe && !s.stateless() {
			s.find(findings.SubscribeUndeclared, ref, "notifications/resources/updated, but the server did not declare resources.subscribe")
		}
		return
	default:
		return
	}
	if !declared {
		s.find(findings.ListChangedUndeclared, ref, "%s, but the server did not declare %s", m.Method, what)
	}
}

// lintMalformed reports a notification whose params lack what the schema
// requires (the engine skips it).
func (s *Session) lintMalformed(method, what string) {
	s.find(findings.MembersRequired, inFrame(jsonrpc.ID{}, method, time.Now()), "%s: %s", method, what)
}

// lintCallerToken notes a progress token a caller of Request chose.
func (s *Session) lintCallerToken(tok jsonrpc.ID) {
	if !s.lintOn() || !tok.IsValid() {
		return
	}
	s.lint.mu.Lock()
	keepBounded(&s.lint.callerTokens, tok, true)
	s.lint.mu.Unlock()
}

// lintProgress reports progress for a token the client never sent: not
// one newToken handed out (issued) nor one a caller of Request chose (one
// for a call that just ended is a race the spec allows).
func (s *Session) lintProgress(tok jsonrpc.ID, issued bool) {
	if issued || !s.lintOn() {
		return
	}
	c, ok := tok.Canonical()
	s.lint.mu.Lock()
	mine := ok && s.lint.callerTokens[c]
	s.lint.mu.Unlock()
	if mine {
		return
	}
	s.find(findings.ProgressUnknownToken, inFrame(jsonrpc.ID{}, wire.NotifyProgress, time.Now()),
		"notifications/progress for token %s, which the client never sent", tok)
}

// tokenIssuedLocked reports whether tok is a progress token this session
// handed out (newToken); under Session.mu.
func (s *Session) tokenIssuedLocked(tok *jsonrpc.ID) bool {
	c, ok := tok.Canonical()
	if !ok {
		return false
	}
	n, isInt := c.Int()
	return isInt && n >= 1 && n <= s.nextToken
}

// resultMembers are the members each result must have (schema.ts), read
// by exact name.
func resultMembers(method string) []string {
	switch method {
	case wire.MethodInitialize:
		return []string{"protocolVersion", "capabilities", "serverInfo"}
	case wire.MethodToolsList:
		return []string{"tools"}
	case wire.MethodResourcesList:
		return []string{"resources"}
	case wire.MethodResourcesTemplatesList:
		return []string{"resourceTemplates"}
	case wire.MethodPromptsList:
		return []string{"prompts"}
	case wire.MethodResourcesRead:
		return []string{"contents"}
	case wire.MethodPromptsGet:
		return []string{"messages"}
	case wire.MethodToolsCall:
		return []string{"content"}
	}
	return nil
}

// itemMembers are the members each item of a list must have.
func itemMembers(method string) []string {
	switch method {
	case wire.MethodToolsList:
		return []string{"name", "inputSchema"}
	case wire.MethodResourcesList:
		return []string{"uri", "name"}
	case wire.MethodResourcesTemplatesList:
		return []string{"uriTemplate", "name"}
	case wire.MethodPromptsList:
		return []string{"name"}
	}
	return nil
}

// lintResult checks a final result's members (do): those the method's
// result requires, and that it decoded (decodeErr from the engine).
func (s *Session) lintResult(c *call, m *jsonrpc.Message, decodeErr error) {
	if !s.lintOn() || m == nil || m.Result == nil {
		return
	}
	ref := findings.FrameRef{In: true, ID: m.ID.Raw()}
	if decodeErr != nil {
		s.find(findings.ResultMalformed, ref, "%s result: %v", c.method, decodeErr)
		return
	}
	want := resultMembers(c.method)
	if c.method == wire.MethodDiscover {
		s.lintDiscover(ref, m.Result)
		return
	}
	if len(want) == 0 {
		return
	}
	got, ok := members(m.Result)
	if !ok {
		s.find(findings.ResultMalformed, ref, "%s result is not an object", c.method)
		return
	}
	if c.method == wire.MethodToolsCall {
		rt, typed := got["resultType"]
		if _, task := got["task"]; task || typed && string(rt) != `"complete"` {
			return // a task was created, or input is required: the result comes later
		}
	}
	for _, k := range want {
		if _, ok := got[k]; !ok {
			s.find(findings.MembersRequired, ref, "%s result without %q", c.method, k)
		}
	}
}

// members reads an object's top-level members by exact name, in place:
// one pass over a result that may be megabytes, nothing copied.
func members(obj []byte) (map[string][]byte, bool) {
	got := map[string][]byte{}
	ok := wire.EachMember(obj, func(name, value []byte) bool {
		got[string(name)] = value
		return true
	})
	return got, ok
}

// lintDiscover checks a server/discover result that claims 2026-07-28 (a
// server of an older era need not implement it).
func (s *Session) lintDiscover(ref findings.FrameRef, raw json.RawMessage) {
	got, err := wire.ExactMembers(raw)
	if err != nil {
		return
	}
	var versions []string
	if v, ok := got["supportedVersions"]; !ok || json.Unmarshal([]byte(v), &versions) != nil || len(versions) == 0 {
		return
	}
	for _, k := range []string{"capabilities", "resultType"} {
		if _, ok := got[k]; !ok {
			s.find(findings.DiscoverResult, ref, "server/discover result lists %v but has no %q", versions, k)
		}
	}
}

// lintResultType checks a 2026-07-28 result's resultType and, for
// input_required, its requestState (mrtr.go, before the engine acts on it).
func (s *Session) lintResultType(c *call, m *jsonrpc.Message) {
	if !s.lintOn() || m.Result == nil {
		return
	}
	ref := findings.FrameRef{In: true, ID: m.ID.Raw()}
	got, ok := members(m.Result)
	if !ok {
		return
	}
	raw, ok := got["resultType"]
	if !ok {
		s.find(findings.ResultTypeMissing, ref, "%s result without resultType", c.method)
		return
	}
	var rt string
	if json.Unmarshal([]byte(raw), &rt) != nil {
		s.find(findings.ResultTypeInvalid, ref, "%s result: resultType %s is not a string", c.method, raw)
		return
	}
	switch {
	case rt == "complete":
	case rt == "task" && c.taskOK:
	case rt == "task":
		s.find(findings.ResultTypeInvalid, ref, "%s result of resultType \"task\": only tools/call may create a task", c.method)
	case rt == "input_required" && !mrtrMethod(c.method):
		s.find(findings.InputRequiredMethod, ref, "%s answered input_required", c.method)
	case rt == "input_required":
		if st, ok := got["requestState"]; ok {
			var str string
			if json.Unmarshal([]byte(st), &str) != nil {
				s.find(findings.RequestStateType, ref, "%s input_required: requestState is %s, not a string", c.method, clip(string(st)))
			}
		}
	default:
		s.find(findings.ResultTypeInvalid, ref, "%s result: unknown resultType %q", c.method, rt)
	}
}

// clip shortens server text quoted in a finding.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// lintPage checks one page of a list (listAll): each item's required
// members. items is the page's array as sent.
func (s *Session) lintPage(method string, id jsonrpc.ID, items json.RawMessage) {
	want := itemMembers(method)
	if !s.lintOn() || len(want) == 0 {
		return
	}
	s.lint.mu.Lock()
	if s.lint.lastPage == nil {
		s.lint.lastPage = map[string]jsonrpc.ID{}
	}
	s.lint.lastPage[method] = id
	s.lint.mu.Unlock()
	var list []json.RawMessage
	if json.Unmarshal(items, &list) != nil {
		return
	}
	ref := findings.FrameRef{In: true, ID: id.Raw()}
	for i, it := range list {
		got, err := wire.ExactMembers(it)
		if err != nil {
			s.find(findings.ResultMalformed, ref, "%s: item %d is not an object", method, i)
			continue
		}
		for _, k := range want {
			if _, ok := got[k]; !ok {
				s.find(findings.MembersRequired, ref, "%s: item %d (%s) without %q", method, i, clip(itemName(got)), k)
			}
		}
	}
}

// itemName names a list item for a finding: its name, uri or position.
func itemName(m map[string]wire.RawRef) string {
	for _, k := range []string{"name", "uri", "uriTemplate"} {
		var v string
		if raw, ok := m[k]; ok && json.Unmarshal([]byte(raw), &v) == nil {
			return v
		}
	}
	return "unnamed"
}

// lintCursor reports a page whose nextCursor an earlier page had.
func (s *Session) lintCursor(method string, id jsonrpc.ID, cursor string) {
	s.find(findings.RepeatedCursor, findings.FrameRef{In: true, ID: id.Raw()}, "%s repeated nextCursor %q", method, clip(cursor))
}

// unrelatedLocked reports whether a server request that asks a person has
// nothing to belong to: no call of ours carried it or owns it, it names no
// task, and no request of ours but pings is open (under Session.mu).
func (s *Session) unrelatedLocked(e *incoming) bool {
	if e.origin.CallID.IsValid() || e.origin.TaskID != "" {
		return false
	}
	for _, c := range s.calls.All() {
		if c.method != wire.MethodPing {
			return false
		}
	}
	return true
}
