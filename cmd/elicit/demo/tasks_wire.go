package demo

import (
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Wire names the task engine uses.
const (
	// extTasks is the 2026-07-28 tasks extension's identifier.
	extTasks = "io.modelcontextprotocol/tasks"
	// metaRelatedTask tags 2025-11-25 messages that belong to a task.
	metaRelatedTask = "io.modelcontextprotocol/related-task"
	// metaImmediate is the 2025-11-25 CreateTaskResult's text for a model.
	metaImmediate = "io.modelcontextprotocol/model-immediate-response"
	// metaProtocolVersion and metaClientCapabilities are the 2026-07-28
	// per-request _meta keys.
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	// metaLegacyTask is where the demo's transport wrappers put a 2025-11-25
	// tools/call's params.task, which go-sdk drops while decoding the call;
	// see tasks_transport.go. It never goes back on the wire.
	metaLegacyTask = "elicit-demo/task"
)

// jsonResult is a result whose JSON the demo writes itself: go-sdk v1.8.0
// has no task types, no tools/list execution field and no top-level tasks
// capability, and it only sets resultType on its own result types. It
// satisfies mcp.Result through ResultBase, so go-sdk can still add
// _meta (the 2026-07-28 serverInfo) before sending it.
type jsonResult struct {
	mcp.ResultBase
	fields map[string]any
}

// MarshalJSON writes the fields and _meta.
func (r *jsonResult) MarshalJSON() ([]byte, error) {
	out := maps.Clone(r.fields)
	if out == nil {
		out = map[string]any{}
	}
	if len(r.Meta) > 0 {
		out["_meta"] = r.Meta
	}
	return json.Marshal(out)
}

// rewrite turns one of go-sdk's results into a jsonResult to patch.
func rewrite(res mcp.Result) (*jsonResult, error) {
	raw, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encoding the %T to patch it: %w", res, err)
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("decoding the %T to patch it: %w", res, err)
	}
	r := &jsonResult{fields: fields}
	if m, ok := fields["_meta"].(map[string]any); ok {
		r.Meta = m
		delete(fields, "_meta")
	}
	return r, nil
}

// newProtocol reports whether a request's _meta selects 2026-07-28 or
// later, by the rule go-sdk applies to decide whether results get
// resultType.
func newProtocol(meta map[string]any) bool {
	v, _ := meta[metaProtocolVersion].(string)
	return v >= modernVersion
}

// declaresTasks reports whether a 2026-07-28 request's _meta declares the
// tasks extension among the client's capabilities.
func declaresTasks(meta map[string]any) bool {
	raw, err := json.Marshal(meta[metaClientCapabilities])
	if err != nil {
		return false
	}
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(raw, &caps) != nil {
		return false
	}
	_, ok := caps.Extensions[extTasks]
	return ok
}

// stamp formats a task time as ISO 8601 in UTC, to the millisecond.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// legacyTask is a Task as 2025-11-25 writes it: ttl and pollInterval in
// milliseconds.
func (v taskView) legacyTask() map[string]any {
	m := map[string]any{
		"taskId":        v.id,
		"status":        v.status,
		"createdAt":     stamp(v.created),
		"lastUpdatedAt": stamp(v.updated),
		"ttl":           v.ttl.Milliseconds(),
		"pollInterval":  v.poll.Milliseconds(),
	}
	if v.message != "" {
		m["statusMessage"] = v.message
	}
	return m
}

// extTask is a Task as the 2026-07-28 extension writes it: ttlMs and
// pollIntervalMs. With detail it is a DetailedTask (the tasks/get result):
// the outstanding inputRequests, the result, or the error, by status.
func (v taskView) extTask(detail bool) map[string]any {
	m := map[string]any{
		"taskId":         v.id,
		"status":         v.status,
		"createdAt":      stamp(v.created),
		"lastUpdatedAt":  stamp(v.updated),
		"ttlMs":          v.ttl.Milliseconds(),
		"pollIntervalMs": v.poll.Milliseconds(),
	}
	if v.message != "" {
		m["statusMessage"] = v.message
	}
	if !detail {
		return m
	}
	switch v.status {
	case taskInputRequired:
		reqs := mcp.InputRequestMap{}
		for k, p := range v.questions {
			reqs[k] = p
		}
		m["inputRequests"] = reqs
	case taskCompleted:
		if r, err := rewrite(v.result); err == nil {
			// What the tools/call would have answered, resultType included.
			r.fields["resultType"] = "complete"
			m["result"] = r
		}
	case taskFailed:
		if v.err != nil {
			m["error"] = v.err
		}
	}
	return m
}
