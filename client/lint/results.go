package lint

import (
	"encoding/json"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The checks of results and lists: the members each must have, resultType,
// server/discover, cursors.

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

// Result checks a final result's members (do): those the method's
// result requires, and that it decoded (decodeErr from the engine).
func (l *Linter) Result(method string, m *jsonrpc.Message, decodeErr error) {
	if !l.On() || m == nil || m.Result == nil {
		return
	}
	ref := findings.FrameRef{In: true, ID: m.ID.Raw()}
	if decodeErr != nil {
		l.Find(findings.ResultMalformed, ref, "%s result: %v", method, decodeErr)
		return
	}
	want := resultMembers(method)
	if method == wire.MethodDiscover {
		l.discover(ref, m.Result)
		return
	}
	if len(want) == 0 {
		return
	}
	got, ok := members(m.Result)
	if !ok {
		l.Find(findings.ResultMalformed, ref, "%s result is not an object", method)
		return
	}
	if method == wire.MethodToolsCall {
		rt, typed := got["resultType"]
		if _, task := got["task"]; task || typed && string(rt) != `"complete"` {
			return // a task was created, or input is required: the result comes later
		}
	}
	for _, k := range want {
		if _, ok := got[k]; !ok {
			l.Find(findings.MembersRequired, ref, "%s result without %q", method, k)
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

// discover checks a server/discover result that claims 2026-07-28 (a
// server of an older era need not implement it).
func (l *Linter) discover(ref findings.FrameRef, raw json.RawMessage) {
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
			l.Find(findings.DiscoverResult, ref, "server/discover result lists %v but has no %q", versions, k)
		}
	}
}

// ResultType checks a 2026-07-28 result's resultType and, for
// input_required, its requestState (client's mrtr.go, before the engine
// acts on it). taskOK: the call may create a task; inputOK: the method may
// answer input_required.
func (l *Linter) ResultType(method string, taskOK, inputOK bool, m *jsonrpc.Message) {
	if !l.On() || m.Result == nil {
		return
	}
	ref := findings.FrameRef{In: true, ID: m.ID.Raw()}
	got, ok := members(m.Result)
	if !ok {
		return
	}
	raw, ok := got["resultType"]
	if !ok {
		l.Find(findings.ResultTypeMissing, ref, "%s result without resultType", method)
		return
	}
	var rt string
	if json.Unmarshal([]byte(raw), &rt) != nil {
		l.Find(findings.ResultTypeInvalid, ref, "%s result: resultType %s is not a string", method, raw)
		return
	}
	switch {
	case rt == "complete":
	case rt == "task" && taskOK:
	case rt == "task":
		l.Find(findings.ResultTypeInvalid, ref, "%s result of resultType \"task\": only tools/call may create a task", method)
	case rt == "input_required" && !inputOK:
		l.Find(findings.InputRequiredMethod, ref, "%s answered input_required", method)
	case rt == "input_required":
		if st, ok := got["requestState"]; ok {
			var str string
			if json.Unmarshal([]byte(st), &str) != nil {
				l.Find(findings.RequestStateType, ref, "%s input_required: requestState is %s, not a string", method, clip(string(st)))
			}
		}
	default:
		l.Find(findings.ResultTypeInvalid, ref, "%s result: unknown resultType %q", method, rt)
	}
}

// clip shortens server text quoted in a finding.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// Page checks one page of a list (client's listAll): each item's required
// members. items is the page's array as sent.
func (l *Linter) Page(method string, id jsonrpc.ID, items json.RawMessage) {
	want := itemMembers(method)
	if !l.On() || len(want) == 0 {
		return
	}
	l.mu.Lock()
	if l.lastPage == nil {
		l.lastPage = map[string]jsonrpc.ID{}
	}
	l.lastPage[method] = id
	l.mu.Unlock()
	var list []json.RawMessage
	if json.Unmarshal(items, &list) != nil {
		return
	}
	ref := findings.FrameRef{In: true, ID: id.Raw()}
	for i, it := range list {
		got, err := wire.ExactMembers(it)
		if err != nil {
			l.Find(findings.ResultMalformed, ref, "%s: item %d is not an object", method, i)
			continue
		}
		for _, k := range want {
			if _, ok := got[k]; !ok {
				l.Find(findings.MembersRequired, ref, "%s: item %d (%s) without %q", method, i, clip(itemName(got)), k)
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

// Cursor reports a page whose nextCursor an earlier page had.
func (l *Linter) Cursor(method string, id jsonrpc.ID, cursor string) {
	l.Find(findings.RepeatedCursor, findings.FrameRef{In: true, ID: id.Raw()}, "%s repeated nextCursor %q", method, clip(cursor))
}
