package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The task shapes on the wire, both designs. Everything here is server
// input: decoding never fails the session, odd numbers are clamped.

// Wire names of the task designs.
const (
	// extTasks is the 2026-07-28 tasks extension's identifier.
	extTasks = "io.modelcontextprotocol/tasks"
	// metaImmediate is the 2025-11-25 CreateTaskResult's text for a model.
	metaImmediate = "io.modelcontextprotocol/model-immediate-response"
)

// wireTask is a Task as either design sends it: 2025-11-25 (ttl,
// pollInterval) or the extension (ttlMs, pollIntervalMs, and in a
// DetailedTask the inputRequests, result or error).
type wireTask struct {
	TaskID         string                     `json:"taskId"`
	Status         TaskStatus                 `json:"status"`
	StatusMessage  string                     `json:"statusMessage"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTL            *float64                   `json:"ttl"`
	PollInterval   *float64                   `json:"pollInterval"`
	TTLMs          *float64                   `json:"ttlMs"`
	PollIntervalMs *float64                   `json:"pollIntervalMs"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests"`
	Result         json.RawMessage            `json:"result"`
	Error          *jsonrpc.Error             `json:"error"`
}

// UnmarshalJSON reads a Task leniently, by exact member names: a member of
// the wrong type (a ttl of "60000", a numeric statusMessage, an error that
// is a string) counts as absent and a number beyond float64 (1e400) is
// clamped, instead of failing the whole task. Failing it made a
// 2025-11-25 CreateTaskResult read as a plain, empty tool result (the
// task ran on unfollowed) and every tasks/get answer "not a task" until
// the task was lost. Only a non-object fails. Found by FuzzTaskResult.
func (w *wireTask) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*w = wireTask{Result: m["result"]}
	str := func(name string) string {
		var v string
		_ = json.Unmarshal(m[name], &v)
		return v
	}
	num := func(name string) *float64 {
		raw, ok := m[name]
		if !ok {
			return nil
		}
		// A JSON number parses; out of range it is ±Inf, which
		// msDuration clamps. null, strings and the rest are absent.
		v, err := strconv.ParseFloat(string(raw), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil
		}
		return &v
	}
	w.TaskID, w.Status, w.StatusMessage = str("taskId"), TaskStatus(str("status")), str("statusMessage")
	w.CreatedAt, w.LastUpdatedAt = str("createdAt"), str("lastUpdatedAt")
	w.TTL, w.PollInterval, w.TTLMs, w.PollIntervalMs = num("ttl"), num("pollInterval"), num("ttlMs"), num("pollIntervalMs")
	if json.Unmarshal(m["inputRequests"], &w.InputRequests) != nil {
		w.InputRequests = nil
	}
	if json.Unmarshal(m["error"], &w.Error) != nil {
		w.Error = nil
	}
	return nil
}

// Bounds on what a server's numbers can make us do.
const (
	maxWirePoll = time.Hour
	maxWireTTL  = 366 * 24 * time.Hour
)

// msDuration turns a millisecond count into a duration within [0, limit];
// absent, null, negative or not a number is 0.
func msDuration(v *float64, limit time.Duration) time.Duration {
	if v == nil || math.IsNaN(*v) || *v <= 0 {
		return 0
	}
	if *v >= float64(limit/time.Millisecond) {
		return limit
	}
	return time.Duration(*v * float64(time.Millisecond))
}

// stamp parses an ISO 8601 time; anything else is the zero time.
func stamp(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// applyTo copies what w says of the task's state into t (status, message,
// times, ttl, poll interval). A status we do not know is left out.
func (w *wireTask) applyTo(t *Task) {
	if knownStatus(w.Status) {
		t.Status = w.Status
	}
	t.StatusMessage = w.StatusMessage
	if c := stamp(w.CreatedAt); !c.IsZero() {
		t.CreatedAt = c
	}
	if u := stamp(w.LastUpdatedAt); !u.IsZero() {
		t.LastUpdatedAt = u
	}
	ttl, poll := w.TTL, w.PollInterval
	if t.Design == TaskDesignExtension {
		ttl, poll = w.TTLMs, w.PollIntervalMs
	}
	t.TTL = msDuration(ttl, maxWireTTL)
	t.PollInterval = msDuration(poll, maxWirePoll)
}

// decodeTask reads a flat Task (tasks/get, tasks/cancel in 2025-11-25, a
// notification, the extension's CreateTaskResult). It returns nil when raw
// is not an object naming a task.
func decodeTask(raw json.RawMessage) *wireTask {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil
	}
	var w wireTask
	if json.Unmarshal(raw, &w) != nil || w.TaskID == "" {
		return nil
	}
	return &w
}

// coreCreated reads a 2025-11-25 CreateTaskResult ({"task": {...}}), and its
// model-immediate-response; ok is false when raw is another result (the
// server ran the call without a task).
func coreCreated(raw json.RawMessage) (w *wireTask, immediate string, ok bool) {
	// By exact names, and a malformed _meta costs only the text: failing
	// on it made the CreateTaskResult read as a plain result.
	var r map[string]json.RawMessage
	if json.Unmarshal(raw, &r) != nil {
		return nil, "", false
	}
	if w = decodeTask(r["task"]); w == nil {
		return nil, "", false
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(r["_meta"], &meta) == nil {
		_ = json.Unmarshal(meta[metaImmediate], &immediate)
	}
	return w, immediate, true
}

// extCreated reads the extension's CreateTaskResult (resultType "task",
// the Task flat); ok is false for any other result, w nil for a task
// result that names no task.
func extCreated(raw json.RawMessage) (w *wireTask, ok bool) {
	if wire.ResultType(raw) != "task" {
		return nil, false
	}
	return decodeTask(raw), true
}

// toolResult decodes a tools/call result, by exact member names: an
// "IsError" must not turn a result into a tool error.
func toolResult(raw json.RawMessage) (*wire.CallToolResult, error) {
	return wire.DecodeToolResult(raw)
}

// parseTaskCapabilities reads the task flags of the server's capabilities:
// tasks (the raw capabilities' "tasks" member, 2025-11-25) and the
// extension in raw's extensions (2026-07-28). Malformed parts set nothing.
func parseTaskCapabilities(c *ServerCapabilities, tasks, raw json.RawMessage) {
	var t struct {
		List     json.RawMessage `json:"list"`
		Cancel   json.RawMessage `json:"cancel"`
		Requests struct {
			Tools struct {
				Call json.RawMessage `json:"call"`
			} `json:"tools"`
		} `json:"requests"`
	}
	if json.Unmarshal(tasks, &t) == nil {
		c.TasksList, c.TasksCancel, c.TasksToolsCall = present(t.List), present(t.Cancel), present(t.Requests.Tools.Call)
	}
	var e struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(raw, &e) == nil {
		_, c.TasksExtension = e.Extensions[extTasks]
	}
}
