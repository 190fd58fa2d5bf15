package lint

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The checks of tools: names, results against outputSchema.

// validToolName is the name rule of 2025-11-25 (server/tools, "Tool
// names"): 1 to 128 of A-Z, a-z, 0-9, _, - and . (a byte loop: the regexp
// `^[A-Za-z0-9_.-]{1,128}$` compiled to 118 KB at every start).
func validToolName(name string) bool {
	if len(name) < 1 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-', c == '.':
		default:
			return false
		}
	}
	return true
}

// Tools checks a whole tools/list: names, and keeps each tool's
// outputSchema for its results.
func (l *Linter) Tools(tools []wire.Tool) {
	if !l.On() {
		return
	}
	ref := l.ListFrame(wire.MethodToolsList)
	seen := map[string]bool{}
	outputs := map[string]*lintSchema{}
	for _, t := range tools {
		if seen[t.Name] {
			l.Find(findings.ToolNameDuplicate, ref, "tools/list has two tools named %q", clip(t.Name))
		}
		seen[t.Name] = true
		if t.Name != "" && !validToolName(t.Name) {
			l.Find(findings.ToolNameInvalid, ref, "tool name %q", clip(t.Name))
		}
		if len(bytes.TrimSpace(t.OutputSchema)) > 0 {
			outputs[t.Name] = &lintSchema{raw: t.OutputSchema}
		}
	}
	l.mu.Lock()
	for name, o := range outputs {
		if old := l.outputs[name]; old != nil && bytes.Equal(old.raw, o.raw) {
			outputs[name] = old // compiled already
		}
	}
	l.outputs = outputs
	waiting := l.unjudged
	l.unjudged = nil
	l.mu.Unlock()
	for name, u := range waiting {
		l.ToolResult(name, u.res, u.id)
	}
}

// ListFrame names the last page of the list method's last listing.
func (l *Linter) ListFrame(method string) findings.FrameRef {
	l.mu.Lock()
	id := l.lastPage[method]
	l.mu.Unlock()
	return InFrame(id, "", time.Time{})
}

// unjudged is a tool result waiting for its tool's outputSchema.
type unjudged struct {
	res *wire.CallToolResult
	id  jsonrpc.ID
}

// unjudgedKeep bounds Linter.unjudged (tools, one result each).
const unjudgedKeep = 16

// maxLinted bounds the structuredContent checked against an outputSchema.
const maxLinted = 4 << 20

// ToolResult checks a tool's result against the outputSchema its last
// tools/list gave; before any tools/list, it is kept to be judged by the
// first (a tool not in it is not judged).
func (l *Linter) ToolResult(name string, res *wire.CallToolResult, id jsonrpc.ID) {
	if !l.On() || res == nil || res.IsError {
		return
	}
	l.mu.Lock()
	o := l.outputs[name]
	if l.outputs == nil && len(bytes.TrimSpace(res.StructuredContent)) <= maxLinted {
		// No tools/list yet: kept for the first (Tools).
		if l.unjudged == nil {
			l.unjudged = map[string]unjudged{}
		}
		if _, ok := l.unjudged[name]; ok || len(l.unjudged) < unjudgedKeep {
			l.unjudged[name] = unjudged{res: res, id: id}
		}
	}
	l.mu.Unlock()
	if o == nil {
		return
	}
	ref := findings.FrameRef{In: true}
	if id.IsValid() {
		ref.ID = id.Raw()
	}
	sc := bytes.TrimSpace(res.StructuredContent)
	if len(sc) == 0 || bytes.Equal(sc, []byte("null")) {
		l.Find(findings.OutputMissing, ref, "tool %q declares an outputSchema and returned no structuredContent", clip(name))
		return
	}
	if len(sc) > maxLinted {
		return
	}
	o.once.Do(func() { o.doc, o.err = schema.CompileDocument(o.raw) })
	if o.err != nil {
		return // a schema we cannot compile judges nothing
	}
	if err := o.doc.Check(sc); err != nil {
		var me *schema.MismatchError
		if errors.As(err, &me) && len(me.Problems) > 0 {
			err = fmt.Errorf("%s", me.Problems[0].String())
		}
		l.Find(findings.OutputSchema, ref, "tool %q: structuredContent %v", clip(name), err)
	}
}
