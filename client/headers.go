package client

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
)

// This file mirrors tool arguments into Mcp-Param-{Name} headers
// (2026-07-28 Streamable HTTP, SEP-2243): an input-schema property
// annotated "x-mcp-header": "Region" makes a tools/call carry
// "Mcp-Param-Region: <the argument's value>", which the server checks
// against the body (-32020 on a mismatch). The rules are go-sdk v1.8.0's
// (mcp/streamable_headers.go), cited below by function name.
//
// Which schema: the tool's inputSchema from our last tools/list, cached
// per session. A call of a tool we have not listed goes out without the
// headers; if the server then refuses it with -32020, the session lists
// the tools again and, if that changes the headers, sends the call once
// more. That is what SEP-2243 asks of a client that lacks the schema
// ("send the request without custom headers ... call tools/list ... then
// retry"); go-sdk's client only does the first half. The cache ignores the
// list's ttlMs: a stale schema costs one retry, which the -32020 path
// already pays for.

// paramHeaderPrefix starts every mirrored header's name.
const paramHeaderPrefix = "Mcp-Param-"

// maxSafeInteger bounds the integers a header may carry: the ones a double
// holds exactly (go-sdk: maxSafeInteger, from SEP-2243).
const maxSafeInteger = 1<<53 - 1

// headerBinding ties one (possibly nested) argument to its header.
type headerBinding struct {
	path   []string // property names from the arguments object down
	header string   // the x-mcp-header value; the header is Mcp-Param-<header>
}

// toolHeaders is a session's cache of the header bindings of the tools it
// listed, by tool name. Tools without bindings are not kept.
type toolHeaders struct {
	h  headersHandle
	mu sync.Mutex
	m  map[string][]headerBinding
}

// none reports whether no tool has bindings, so that a tools/call need
// not be parsed.
func (h *toolHeaders) none() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.m) == 0
}

func (h *toolHeaders) get(name string) []headerBinding {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.m[name]
}

// put records the bindings of tools; complete replaces the whole cache (a
// full list), otherwise (a list that failed part way) it only adds.
func (h *toolHeaders) put(bindings map[string][]headerBinding, complete bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if complete || h.m == nil {
		h.m = bindings
		return
	}
	maps.Copy(h.m, bindings)
}

// mirrors reports whether this session's requests carry Mcp-Param
// headers: 2026-07-28 on a connection that sends message headers
// (Streamable HTTP; stdio has none).
func (h *toolHeaders) mirrors() bool {
	return h.h.stateless() && h.h.sendsHeaders()
}

// remember is ListTools' hook: on a session that mirrors headers it
// caches every tool's bindings and drops the tools whose annotations are
// invalid, with a Notice each. SEP-2243 says a Streamable HTTP client MUST
// reject such tool definitions, and go-sdk's client leaves them out of
// tools/list (filterValidTools); a call to one could never carry the right
// headers. Other sessions get tools back unchanged.
func (h *toolHeaders) remember(tools []wire.Tool, complete bool) []wire.Tool {
	if !h.mirrors() {
		return tools
	}
	bindings := make(map[string][]headerBinding)
	kept := tools[:0:0]
	for _, t := range tools {
		b, err := toolBindings(t.InputSchema)
		if err != nil {
			h.h.notice("tool %q left out: its input schema %v (x-mcp-header, 2026-07-28)", t.Name, err)
			h.h.lint.Find(findings.HeaderAnnotation, h.h.lint.ListFrame(wire.MethodToolsList), "tool %q: %v", t.Name, err)
			continue
		}
		if len(b) > 0 {
			bindings[t.Name] = b
		}
		kept = append(kept, t)
	}
	h.put(bindings, complete)
	return kept
}

// params is the Mcp-Param headers of one request (nil for all but a
// tools/call of a tool with bindings, on a session that mirrors headers),
// read from the params as sent (name and arguments, so Session.Request
// gets them too), like go-sdk's generateParamHeaders.
func (h *toolHeaders) params(c *call, params json.RawMessage) map[string]string {
	if c.method != wire.MethodToolsCall || h.none() || !h.mirrors() {
		return nil
	}
	var p struct {
		Name      string                     `json:"name"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(params, &p) != nil || p.Arguments == nil {
		return nil
	}
	b := h.get(p.Name)
	if len(b) == 0 {
		return nil
	}
	return mirror(b, p.Arguments)
}

// relist handles -32020 on a tools/call: it lists the tools again
// (the server may have a schema we lack or an older one of) and reports
// whether that changed the call's headers, in which case the call is worth
// sending once more. The server refuses a mismatch before running the tool,
// so the retry repeats nothing.
func (h *toolHeaders) relist(ctx context.Context, c *call, params json.RawMessage) bool {
	if c.method != wire.MethodToolsCall || !h.mirrors() {
		return false
	}
	before := h.params(c, params)
	if err := h.h.listTools(ctx); err != nil {
		h.h.log.Debug("tools/list after a header mismatch failed", "tool", c.name, "err", err)
		return false
	}
	after := h.params(c, params)
	if maps.Equal(before, after) {
		return false
	}
	h.h.notice("%s: the server refused our Mcp-Param headers; listed the tools again and retrying with the new ones", c.describe())
	return true
}

// mirror computes the headers of bindings for args. An argument that is
// absent or null gets no header; one that is not a string, a boolean or an
// integer in the safe range gets none either (go-sdk: generateParamHeaders,
// lookupArgument, unmarshalPrimitive).
func mirror(bindings []headerBinding, args map[string]json.RawMessage) map[string]string {
	var out map[string]string
	for _, b := range bindings {
		raw, ok := lookupArgument(args, b.path)
		if !ok {
			continue
		}
		v, ok := headerValue(raw)
		if !ok {
			continue
		}
		if out == nil {
			out = make(map[string]string, len(bindings))
		}
		out[paramHeaderPrefix+b.header] = v
	}
	return out
}

// lookupArgument follows path through nested argument objects.
func lookupArgument(args map[string]json.RawMessage, path []string) (json.RawMessage, bool) {
	if len(path) == 0 {
		return nil, false
	}
	cur, ok := args[path[0]]
	for _, name := range path[1:] {
		if !ok {
			return nil, false
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) != nil {
			return nil, false
		}
		cur, ok = obj[name]
	}
	return cur, ok
}

// headerValue formats one argument for its header, before the transport's
// =?base64?...?= encoding (go-sdk: unmarshalPrimitive, primitiveToString):
// a string as is, a boolean as true or false, a number only if it is an
// integer within ±(2^53-1), in decimal ("1e3" and "1.0" are integers: 1000,
// 1). null, objects, arrays, fractions and larger numbers get no header.
func headerValue(raw json.RawMessage) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch v := v.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > maxSafeInteger {
			return "", false // also NaN and ±Inf, which JSON cannot carry anyway
		}
		return strconv.FormatInt(int64(v), 10), true
	default:
		return "", false
	}
}

// toolBindings reads the x-mcp-header annotations of an input schema and
// checks them by go-sdk's rules (validateParamHeaderAnnotations): an
// annotation may sit on a property at any depth reached through
// "properties" (nowhere else: not under items or anyOf, not on the root),
// its property's type must be "string", "integer" or "boolean", its value a
// non-empty HTTP token, unique across the schema ignoring case. One bad
// annotation makes the whole tool invalid.
//
// Unlike go-sdk, which reads the schema into a struct and so sees no
// annotations at all when any property's "type" is not a string (["string",
// "null"]), this reads each property on its own: such a property elsewhere
// does not hide the annotations. Against a go-sdk server that only adds
// headers it ignores.
func toolBindings(inputSchema json.RawMessage) ([]headerBinding, error) {
	var root map[string]json.RawMessage
	if json.Unmarshal(inputSchema, &root) != nil {
		return nil, nil // not an object: nothing to mirror
	}
	var out []headerBinding
	seen := map[string]string{} // lower-case header -> where
	if err := collectBindings(root["properties"], nil, seen, &out); err != nil {
		return nil, err
	}
	// Sorted so that an unchanged schema gives equal bindings.
	slices.SortFunc(out, func(a, b headerBinding) int { return strings.Compare(a.header, b.header) })
	return out, nil
}

// collectBindings walks one "properties" object.
func collectBindings(props json.RawMessage, prefix []string, seen map[string]string, out *[]headerBinding) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(props, &m) != nil {
		return nil
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		var prop map[string]json.RawMessage
		if json.Unmarshal(m[name], &prop) != nil {
			continue
		}
		path := append(slices.Clip(prefix), name)
		where := strings.Join(path, ".")
		if ann, ok := prop["x-mcp-header"]; ok {
			var typ, header string
			_ = json.Unmarshal(prop["type"], &typ)
			if typ != "string" && typ != "integer" && typ != "boolean" {
				return fmt.Errorf("marks property %q, of type %s, with x-mcp-header: only string, integer and boolean may be", where, schemaExcerpt(prop["type"]))
			}
			if json.Unmarshal(ann, &header) != nil || header == "" {
				return fmt.Errorf("gives property %q an x-mcp-header that is not a non-empty string", where)
			}
			if !transport.ValidHeaderName(header) {
				return fmt.Errorf("gives property %q x-mcp-header %q, which is not an HTTP header name", where, header)
			}
			lower := strings.ToLower(header)
			if other, dup := seen[lower]; dup {
				return fmt.Errorf("gives properties %q and %q the same x-mcp-header %q", other, where, header)
			}
			seen[lower] = where
			*out = append(*out, headerBinding{path: path, header: header})
		}
		if sub, ok := prop["properties"]; ok {
			if err := collectBindings(sub, path, seen, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// schemaExcerpt shows a schema value in an error, briefly ("none" if
// absent).
func schemaExcerpt(raw json.RawMessage) string {
	const limit = 40
	switch s := string(raw); {
	case s == "":
		return "none"
	case len(s) > limit:
		return s[:limit] + "..."
	default:
		return s
	}
}
