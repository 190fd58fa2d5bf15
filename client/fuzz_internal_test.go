package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Fuzz targets for the pure decoders of what a server sends back: MRTR
// input_required results (inputRequired, serveRound, roundParams), task
// results (decodeTask, coreCreated, extCreated, applyTo, the poll
// interval) and elicitation params (parseElicit). The end-to-end target,
// through a scripted server, is in fuzz_peer_test.go.
//
//	go test -run '^$' -fuzz FuzzInputRequired -fuzztime 3m ./client

// fuzzSession is a Session with no connection, speaking version and
// answering prompts with p: enough for the decoders, which read its
// options, schema cache and journal. It is torn down when tb ends.
func fuzzSession(tb testing.TB, version string, modes ElicitModes, p question.Prompter) *Session {
	s := newSession(&Options{Name: "fuzz", Elicit: modes, Prompter: p})
	s.neg.protocol = version
	if wire.Stateless(version) {
		s.neg.kind = eraStateless
	}
	tb.Cleanup(func() {
		s.life.wg.Wait()
		s.abort(errors.New("fuzz iteration over"))
	})
	return s
}

// exactMember returns the value of data's top-level member name, matched
// exactly (case included) and, when repeated, the last one: what a
// server means by it. ok is false when data is no JSON object or lacks
// it.
func exactMember(data []byte, name string) (json.RawMessage, bool) {
	if !json.Valid(data) {
		return nil, false // a Decoder reads members before it sees the end
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var val json.RawMessage
	found := false
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		if k == name {
			val, found = raw, true
		}
	}
	return val, found
}

// mrtrSeeds are input_required results as servers write them: the spec's
// examples (protocol.md 1.4), go-sdk v1.8.0's encoding of the booking
// tool's rounds (mrtr_test.go), and the odd shapes a server may send.
var mrtrSeeds = []string{
	`{"resultType":"input_required","inputRequests":{"github_login":{"method":"elicitation/create","params":{"mode":"form","message":"...","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}},"requestState":"<opaque string>"}`,
	`{"content":null,"resultType":"input_required","requestState":"round-1 \u003c\u0026\u003e \"quoted\" é ☃","inputRequests":{"dates":{"method":"elicitation/create","params":{"mode":"form","message":"question dates","requestedSchema":{"properties":{"dates":{"type":"string"}},"required":["dates"],"type":"object"}}},"site":{"method":"elicitation/create","params":{"mode":"url","message":"open","url":"https://example.com/x"}}}}`,
	`{"resultType":"input_required","requestState":"load-shed"}`,
	`{"resultType":"input_required","requestState":{ "round" : 2, "sig" : "a\u2028b" },"inputRequests":{}}`,
	`{"resultType":"input_required","inputRequests":{"s":{"method":"sampling/createMessage","params":{}},"r":{"method":"roots/list"},"x":5,"e":{"method":"elicitation/create","params":{"mode":"telepathy","message":"?"}}}}`,
	`{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"message":"pick","requestedSchema":{"type":"object","properties":{"c":{"type":"string","enum":["x","y"],"default":"y"},"n":{"type":"integer","minimum":3}},"required":["c","n"]}}}},"requestState":null}`,
	`{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"message":"bad","requestedSchema":{"type":"array"}}},"b":{"method":"elicitation/create","params":"nope"}},"requestState":"s"}`,
	`{"resultType":"input_required","inputRequests":null,"requestState":""}`,
	`{"resultType":"complete","content":[{"type":"text","text":"done"}]}`,
	`{"resultType":5}`,
	`[]`,
}

// FuzzInputRequired decodes an input_required result as doStateless does,
// serves its round through AcceptDefaults or DeclineAll, and builds the
// retry's params. Properties: no panic; requestState is the member the
// server sent, byte for byte, and goes back byte for byte; inputRequests
// is the member the server sent; every key ends exactly one way (answered
// in inputResponses, or journalled Invalid and left out), answerable
// exactly when it is an elicitation/create entry; every answer is an
// ElicitResult with a known action; a round with no answerable key is an
// error naming why.
func FuzzInputRequired(f *testing.F) {
	for _, s := range mrtrSeeds {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, accept bool) {
		_ = wire.ResultType(data) // server input: must not panic
		var ir inputRequired
		if err := json.Unmarshal(data, &ir); err != nil {
			if err.Error() == "" {
				t.Fatal("decode error without a message")
			}
			return
		}
		wantState, hasState := exactMember(data, "requestState")
		if !hasState {
			wantState = nil
		}
		if !bytes.Equal(ir.State, wantState) {
			t.Fatalf("requestState decoded as %q, the server sent %q", ir.State, wantState)
		}
		var wantReqs map[string]json.RawMessage
		if raw, ok := exactMember(data, "inputRequests"); ok {
			_ = json.Unmarshal(raw, &wantReqs)
		}
		if len(ir.Requests) != len(wantReqs) {
			t.Fatalf("inputRequests decoded as %d keys, the server sent %d", len(ir.Requests), len(wantReqs))
		}
		for k, v := range wantReqs {
			if !bytes.Equal(ir.Requests[k], v) {
				t.Fatalf("inputRequests[%q] decoded as %q, the server sent %q", k, ir.Requests[k], v)
			}
		}

		p := question.Policy(question.DeclineAll)
		if accept {
			p = question.AcceptDefaults
		}
		s := fuzzSession(t, wire.Protocol2026_07_28, ElicitBoth, p)
		var responses map[string]json.RawMessage
		if len(ir.Requests) > 0 {
			responses = checkRound(t, s, ir.Requests)
		}
		checkRoundParams(t, s, responses, ir.State)
	})
}

// answerable reports whether an inputRequests entry gets an answer: an
// elicitation/create entry does (refused ones are answered cancel), any
// other kind, or no entry at all, does not.
func answerable(raw json.RawMessage) bool {
	var e inputEntry
	return json.Unmarshal(raw, &e) == nil && e.Method == "elicitation/create"
}

// checkRound serves one round and checks that every key ends one way.
func checkRound(t *testing.T, s *Session, reqs map[string]json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	c := &call{method: "tools/call", name: "fuzz", id: jsonrpc.IntID(1)}
	responses, rec, err := s.rounds.serve(context.Background(), c, reqs, time.Time{})
	want := 0
	for _, raw := range reqs {
		if answerable(raw) {
			want++
		}
	}
	if err != nil {
		if want > 0 || responses != nil || rec != nil {
			t.Fatalf("round failed (%v) with %d answerable keys", err, want)
		}
		if !strings.Contains(err.Error(), "cannot give") {
			t.Fatalf("round error %q does not say why", err)
		}
	} else {
		if len(responses) != want {
			t.Fatalf("%d answers for %d answerable keys", len(responses), want)
		}
		rec.delivered()
	}
	for key, b := range responses {
		if !answerable(reqs[key]) {
			t.Fatalf("answered %q, which is not an elicitation: %s", key, reqs[key])
		}
		var r struct {
			Action  string          `json:"action"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("answer to %q is not an ElicitResult: %s", key, b)
		}
		switch r.Action {
		case "accept":
			if len(r.Content) > 0 && r.Content[0] != '{' {
				t.Fatalf("accept of %q with content %s", key, r.Content)
			}
		case "decline", "cancel":
			if len(r.Content) > 0 {
				t.Fatalf("%s of %q carries content %s", r.Action, key, r.Content)
			}
		default:
			t.Fatalf("answer to %q has action %q", key, r.Action)
		}
	}
	// Every key is journalled exactly once (answered ones once delivered).
	seen := map[string]int{}
	for _, e := range s.journal.Entries() {
		if e.Key.Delivery != question.InputRequest || e.Key.CallID != c.id {
			t.Fatalf("journal entry %+v is not this round's", e.Key)
		}
		seen[e.Key.Input]++
		if _, ok := responses[e.Key.Input]; !ok && e.Kind != question.Invalid {
			t.Fatalf("unanswered key %q journalled %s, want Invalid", e.Key.Input, e.Kind)
		}
		if e.Kind == question.Invalid && e.Reason == "" {
			t.Fatalf("key %q journalled Invalid without a reason", e.Key.Input)
		}
	}
	for key := range reqs {
		if seen[key] != 1 {
			t.Fatalf("key %q journalled %d times", key, seen[key])
		}
	}
	if len(seen) != len(reqs) {
		t.Fatalf("%d keys journalled for %d asked", len(seen), len(reqs))
	}
	return responses
}

// checkRoundParams builds the retry and checks requestState and the
// answers go out byte for byte, over a caller's params that carried stale
// ones.
func checkRoundParams(t *testing.T, s *Session, responses map[string]json.RawMessage, state json.RawMessage) {
	t.Helper()
	base := json.RawMessage(`{"name":"fuzz","arguments":{"a":1},"inputResponses":{"stale":{}},"requestState":"stale","_meta":{"progressToken":7}}`)
	params, err := s.rounds.params(base, responses, state, true)
	if err != nil {
		t.Fatalf("roundParams: %v", err)
	}
	if !json.Valid(params) {
		t.Fatalf("retry params are not JSON: %s", params)
	}
	got, ok := exactMember(params, "requestState")
	switch {
	case state == nil && ok:
		t.Fatalf("requestState %s sent, none was given", got)
	case state != nil && !bytes.Equal(got, state):
		t.Fatalf("requestState sent as %q, the server sent %q", got, state)
	}
	gotResp, ok := exactMember(params, "inputResponses")
	switch {
	case responses == nil && ok:
		t.Fatalf("inputResponses %s sent with no answers", gotResp)
	case responses != nil && !bytes.Equal(gotResp, wire.Object(responses)):
		t.Fatalf("inputResponses sent as %s", gotResp)
	}
	meta, _ := exactMember(params, "_meta")
	if tok, ok := exactMember(meta, "progressToken"); !ok || string(tok) != "7" {
		t.Fatalf("the caller's _meta was lost: %s", meta)
	}
}

// taskSeeds are task results in both designs: the spec's examples
// (protocol.md 2.2, 2.3), the demo server's shapes (cmd/elicit/demo), and
// odd numbers, types and statuses.
var taskSeeds = []string{
	`{"task":{"taskId":"786512e2","status":"working","statusMessage":"starting","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":60000,"pollInterval":5000},"_meta":{"io.modelcontextprotocol/model-immediate-response":"started"}}`,
	`{"taskId":"786512e2","status":"input_required","createdAt":"2025-11-25T10:30:00.000Z","lastUpdatedAt":"2025-11-25T10:40:00.000Z","ttl":null}`,
	`{"resultType":"task","taskId":"786512e2","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":3600000,"pollIntervalMs":5000}`,
	`{"resultType":"complete","taskId":"786512e2","status":"input_required","createdAt":"x","lastUpdatedAt":"y","ttlMs":3600000,"pollIntervalMs":5000,"inputRequests":{"name":{"method":"elicitation/create","params":{"mode":"form","message":"Please enter your name.","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}}`,
	`{"resultType":"complete","taskId":"786512e2","status":"completed","ttlMs":3600000,"pollIntervalMs":5000,"result":{"content":[{"type":"text","text":"Hello, Luca!"}],"isError":false,"resultType":"complete"}}`,
	`{"resultType":"complete","taskId":"t","status":"failed","statusMessage":"boom","error":{"code":-32603,"message":"internal"}}`,
	`{"resultType":"complete","taskId":"t","status":"cancelled","ttlMs":-5,"pollIntervalMs":0}`,
	`{"resultType":"task","taskId":"t","status":"working","ttlMs":1e300,"pollIntervalMs":1e-300}`,
	`{"resultType":"task","taskId":"t","status":"working","ttlMs":1e400,"pollIntervalMs":20}`,
	`{"task":{"taskId":"t","status":"working","ttl":"60000","pollInterval":5000}}`,
	`{"task":{"taskId":"t","status":"working"},"_meta":{"io.modelcontextprotocol/model-immediate-response":5}}`,
	`{"taskId":"t","status":"sleeping","statusMessage":5}`,
	`{"taskId":"","status":"working"}`,
	`{"resultType":"task","status":"working"}`,
	`{"taskId":"t","status":"failed","error":"not an error object"}`,
}

// FuzzTaskResult reads data as every task shape (a flat Task, both
// designs' CreateTaskResult) and folds what it names into a snapshot.
// Properties: no panic; a decoded task has an id; an object whose taskId
// member is a non-empty string is read as that task whatever its other
// members (odd ones are ignored or clamped, never fatal); extCreated
// claims exactly the results of resultType "task"; the status is one of
// the five or left as it was; ttl and pollInterval are within
// [0, limit] and the poll interval used is within [minPoll, maxPoll] or
// the fallback; every inputRequests entry ends one way; the result and
// error decode or fail with context.
func FuzzTaskResult(f *testing.F) {
	for _, s := range taskSeeds {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, ext bool) {
		design := TaskDesignCore
		if ext {
			design = TaskDesignExtension
		}
		s := fuzzSession(t, wire.Protocol2026_07_28, ElicitBoth, question.DeclineAll)

		w := decodeTask(data)
		if w != nil && w.TaskID == "" {
			t.Fatal("decodeTask accepted a task without an id")
		}
		if id := namedTask(data); id != "" && (w == nil || w.TaskID != id) {
			t.Fatalf("decodeTask refused a task naming %q", id)
		}
		if w != nil {
			checkTask(t, s, w, design)
		}

		cw, _, ok := coreCreated(data)
		if ok && (cw == nil || cw.TaskID == "") {
			t.Fatal("coreCreated: ok without a task")
		}
		if inner, found := exactMember(data, "task"); found {
			if id := namedTask(inner); id != "" && (!ok || cw.TaskID != id) {
				t.Fatalf("coreCreated refused a CreateTaskResult naming %q", id)
			}
		}
		if ok {
			checkTask(t, s, cw, TaskDesignCore)
		}

		ew, ok := extCreated(data)
		if ok != (wire.ResultType(data) == "task") {
			t.Fatalf("extCreated ok=%v for resultType %q", ok, wire.ResultType(data))
		}
		if ok && ew != nil {
			checkTask(t, s, ew, TaskDesignExtension)
		}
	})
}

// namedTask is the task id data names: its exact taskId member when that
// is a non-empty string; "" otherwise.
func namedTask(data []byte) string {
	raw, ok := exactMember(data, "taskId")
	var id string
	if !ok || json.Unmarshal(raw, &id) != nil {
		return ""
	}
	return id
}

// checkTask folds w into a snapshot of a working task and checks it.
func checkTask(t *testing.T, s *Session, w *wireTask, design TaskDesign) {
	t.Helper()
	snap := Task{Server: s.name, ID: w.TaskID, Design: design, Status: TaskWorking}
	w.applyTo(&snap)
	if !knownStatus(snap.Status) {
		t.Fatalf("status %q taken", snap.Status)
	}
	if knownStatus(w.Status) != (snap.Status == w.Status) {
		t.Fatalf("status %q folded as %q", w.Status, snap.Status)
	}
	if snap.TTL < 0 || snap.TTL > maxWireTTL {
		t.Fatalf("ttl %v out of [0, %v]", snap.TTL, maxWireTTL)
	}
	if snap.PollInterval < 0 || snap.PollInterval > maxWirePoll {
		t.Fatalf("pollInterval %v out of [0, %v]", snap.PollInterval, maxWirePoll)
	}
	if left, ok := snap.TTLLeft(time.Now()); ok && left < 0 {
		t.Fatalf("TTLLeft %v", left)
	}
	f := &taskFollow{t: &s.tasks, id: w.TaskID, design: design, snap: snap}
	backoff := fallbackPoll
	d := f.interval(&backoff)
	if snap.PollInterval > 0 && (d < minPoll || d > maxPoll) {
		t.Fatalf("poll interval %v for a suggested %v", d, snap.PollInterval)
	}
	if snap.PollInterval == 0 && d != fallbackPoll {
		t.Fatalf("poll interval %v with no suggestion", d)
	}

	// The extension's inline parts: each question parses one way.
	for key, raw := range w.InputRequests {
		checkEntry(t, s, key, raw)
	}
	if len(w.Result) > 0 {
		if res, err := toolResult(w.Result); err == nil && !bytes.Equal(res.Raw, w.Result) {
			t.Fatal("toolResult lost the raw result")
		}
	}
	err := f.taskFailure(w.Error, w.StatusMessage)
	var rpcErr *jsonrpc.Error
	if err == nil || !strings.Contains(err.Error(), w.TaskID) || !errors.As(err, &rpcErr) {
		t.Fatalf("taskFailure %v does not name the task and wrap a *jsonrpc.Error", err)
	}
}

// checkEntry parses one inputRequests entry as askInput does: it is
// unanswerable, refused with a reason, or a prompt fit to show.
func checkEntry(t *testing.T, s *Session, key string, raw json.RawMessage) {
	t.Helper()
	var e inputEntry
	if json.Unmarshal(raw, &e) != nil || e.Method != wire.MethodElicit {
		return // unanswerable: journalled Invalid with a Notice
	}
	p := &question.Question{Key: question.Key{Server: s.name, Delivery: question.TaskInput, TaskID: "t", Input: key}}
	checkParsed(t, s, p, e.Params)
}

// checkParsed runs question.Parse as the session does and checks its verdict.
func checkParsed(t *testing.T, s *Session, p *question.Question, params json.RawMessage) {
	t.Helper()
	perr := question.Parse(p, params, s.modes(), s.Subset(), &s.questions.schemas)
	form, urlMode := s.modes().Form, s.modes().URL
	if perr != nil {
		if !strings.HasPrefix(perr.Msg, "invalid ") {
			t.Fatalf("refusal %q does not say what is invalid", perr.Msg)
		}
		return
	}
	switch p.Mode {
	case question.ModeForm:
		if !form || p.Schema == nil {
			t.Fatalf("form prompt taken (declared %v) with schema %v", form, p.Schema)
		}
		if raw, _ := exactMember(params, "requestedSchema"); !bytes.Equal(p.RawSchema, raw) {
			t.Fatalf("RawSchema %q, the server sent %q", p.RawSchema, raw)
		}
	case question.ModeURL:
		u, err := url.Parse(p.URL)
		if !urlMode || err != nil || u.Scheme == "" || u.Host == "" {
			t.Fatalf("url prompt taken (declared %v) for %q", urlMode, p.URL)
		}
	default:
		t.Fatalf("prompt taken in mode %q", p.Mode)
	}
}

// elicitSeeds are elicitation/create params of every era.
var elicitSeeds = []string{
	`{"message":"Please provide your name","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`,
	`{"mode":"form","message":"pick","requestedSchema":{"type":"object","properties":{"c":{"type":"string","oneOf":[{"const":"a","title":"A"}]}}},"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t1"}}}`,
	`{"mode":"url","message":"Sign in","url":"https://example.com/oauth?x=1","elicitationId":"e-1"}`,
	`{"mode":"url","message":"relative","url":"/oauth"}`,
	`{"mode":"telepathy","message":"?"}`,
	`{"message":"no schema"}`,
	`{"message":5}`,
	`[]`,
	`null`,
}

// FuzzElicitParams parses elicitation/create params under every version
// and mode setting. Properties: no panic; a prompt is taken only in a
// declared mode, with a schema (form) or an absolute URL (url), and its
// schema bytes as sent; a refusal says what is invalid; the related-task
// _meta is read, or echoed, only as valid JSON.
func FuzzElicitParams(f *testing.F) {
	for _, s := range elicitSeeds {
		for _, v := range []uint8{0, 1, 2} {
			f.Add([]byte(s), v, uint8(ElicitBoth))
		}
	}
	f.Add([]byte(elicitSeeds[2]), uint8(1), uint8(ElicitForm))
	f.Add([]byte(elicitSeeds[0]), uint8(2), uint8(ElicitURL))
	versions := []string{wire.Protocol2025_06_18, wire.Protocol2025_11_25, wire.Protocol2026_07_28}
	f.Fuzz(func(t *testing.T, params []byte, version, modes uint8) {
		s := fuzzSession(t, versions[int(version)%len(versions)], ElicitModes(modes%4), question.DeclineAll)
		p := &question.Question{Key: question.Key{Server: s.name, Delivery: question.ServerRequest, RequestID: jsonrpc.IntID(1)}}
		checkParsed(t, s, p, params)
		_ = question.RelatedTaskID(params)
		// A reply echoes the related-task _meta only as valid JSON, and
		// nothing else of the request's _meta.
		r, _ := question.Decision{Outcome: question.Outcome{Kind: question.Decline}}.Reply(p)
		var res struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		if err := json.Unmarshal(r.Result, &res); err != nil {
			t.Fatalf("reply %s: %v", r.Result, err)
		}
		if m := res.Meta; m != nil {
			if len(m) != 1 || !json.Valid(m[wire.MetaRelatedTask]) {
				t.Fatalf("related-task meta %v", m)
			}
		}
	})
}

// FuzzMsDuration: any float, NaN and infinities included, becomes a
// duration within [0, limit], monotonic in the input.
func FuzzMsDuration(f *testing.F) {
	for _, v := range []float64{0, -1, 1, 0.5, 5000, 1e300, math.Inf(1), math.Inf(-1), math.NaN(), float64(maxWirePoll / time.Millisecond)} {
		f.Add(v, v+1)
	}
	f.Fuzz(func(t *testing.T, a, b float64) {
		for _, limit := range []time.Duration{maxWirePoll, maxWireTTL} {
			da, db := msDuration(&a, limit), msDuration(&b, limit)
			if da < 0 || da > limit || db < 0 || db > limit {
				t.Fatalf("msDuration(%v)=%v, (%v)=%v, limit %v", a, da, b, db, limit)
			}
			if !math.IsNaN(a) && !math.IsNaN(b) && a < b && da > db {
				t.Fatalf("not monotonic: %v -> %v, %v -> %v", a, da, b, db)
			}
		}
		if msDuration(nil, maxWirePoll) != 0 {
			t.Fatal("nil is not 0")
		}
	})
}
