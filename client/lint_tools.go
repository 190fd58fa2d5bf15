package client

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

// The findings checks of tools (names, results against outputSchema) and
// tasks (status changes, cancellation); the rest is lint.go.

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

// lintTools checks a whole tools/list: names, and keeps each tool's
// outputSchema for its results.
func (s *Session) lintTools(tools []wire.Tool) {
	if !s.lintOn() {
		return
	}
	ref := s.listFrame(wire.MethodToolsList)
	seen := map[string]bool{}
	outputs := map[string]*lintSchema{}
	for _, t := range tools {
		if seen[t.Name] {
			s.find(findings.ToolNameDuplicate, ref, "tools/list has two tools named %q", clip(t.Name))
		}
		seen[t.Name] = true
		if t.Name != "" && !validToolName(t.Name) {
			s.find(findings.ToolNameInvalid, ref, "tool name %q", clip(t.Name))
		}
		if len(bytes.TrimSpace(t.OutputSchema)) > 0 {
			outputs[t.Name] = &lintSchema{raw: t.OutputSchema}
		}
	}
	s.lint.mu.Lock()
	for name, o := range outputs {
		if old := s.lint.outputs[name]; old != nil && bytes.Equal(old.raw, o.raw) {
			outputs[name] = old // compiled already
		}
	}
	s.lint.outputs = outputs
	waiting := s.lint.unjudged
	s.lint.unjudged = nil
	s.lint.mu.Unlock()
	for name, u := range waiting {
		s.lintToolResult(name, u.res, u.id)
	}
}

// listFrame names the last page of the list method's last listing.
func (s *Session) listFrame(method string) findings.FrameRef {
	s.lint.mu.Lock()
	id := s.lint.lastPage[method]
	s.lint.mu.Unlock()
	return inFrame(id, "", time.Time{})
}

// unjudged is a tool result waiting for its tool's outputSchema.
type unjudged struct {
	res *wire.CallToolResult
	id  jsonrpc.ID
}

// unjudgedKeep bounds lintState.unjudged (tools, one result each).
const unjudgedKeep = 16

// maxLinted bounds the structuredContent checked against an outputSchema.
const maxLinted = 4 << 20

// lintToolResult checks a tool's result against the outputSchema its last
// tools/list gave; before any tools/list, it is kept to be judged by the
// first (a tool not in it is not judged).
func (s *Session) lintToolResult(name string, res *wire.CallToolResult, id jsonrpc.ID) {
	if !s.lintOn() || res == nil || res.IsError {
		return
	}
	s.lint.mu.Lock()
	o := s.lint.outputs[name]
	if s.lint.outputs == nil && len(bytes.TrimSpace(res.StructuredContent)) <= maxLinted {
		// No tools/list yet: kept for the first (lintTools).
		if s.lint.unjudged == nil {
			s.lint.unjudged = map[string]unjudged{}
		}
		if _, ok := s.lint.unjudged[name]; ok || len(s.lint.unjudged) < unjudgedKeep {
			s.lint.unjudged[name] = unjudged{res: res, id: id}
		}
	}
	s.lint.mu.Unlock()
	if o == nil {
		return
	}
	ref := findings.FrameRef{In: true}
	if id.IsValid() {
		ref.ID = id.Raw()
	}
	sc := bytes.TrimSpace(res.StructuredContent)
	if len(sc) == 0 || bytes.Equal(sc, []byte("null")) {
		s.find(findings.OutputMissing, ref, "tool %q declares an outputSchema and returned no structuredContent", clip(name))
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
		s.find(findings.OutputSchema, ref, "tool %q: structuredContent %v", clip(name), err)
	}
}

// taskLint is what one task observation looked like, taken under the
// task's lock (observeTask) and judged after it.
//
// A finding is raised only on what the server really did. A snapshot can
// be stale: a tasks/get the server answered from the state it read
// before it sent "completed" (server-everything's research task under
// load), or a notification overtaken on another HTTP stream. So an
// observation proves a later state only by the server's own clock (a
// lastUpdatedAt after the one it is compared with) or by the order of
// frames (it answers a request that went out after what it is compared
// with was known); one that proves nothing judges nothing.
type taskLint struct {
	id         string
	design     TaskDesign
	prev, next TaskStatus
	upd        time.Time // next's lastUpdatedAt (zero if it had none)
	asked      time.Time // no later than the request it answers went out; zero for a notification
	termAt     time.Time // when prev, if terminal, was folded in
	termUpd    time.Time // prev's lastUpdatedAt, if terminal (zero if it had none)
	cancelOK   time.Time // when a tasks/cancel was answered with success
}

func (f *taskFollow) lintLocked(w *wireTask, asked time.Time) taskLint {
	return taskLint{id: f.id, design: f.design, prev: f.snap.Status, next: w.Status, upd: stamp(w.LastUpdatedAt),
		asked: asked, termAt: f.termAt, termUpd: f.termUpd, cancelOK: f.cancelOK}
}

// after reports whether the observation proves a state later than one
// folded in at ours (our clock) and stamped theirs (the server's, zero
// if unstamped).
func (t taskLint) after(ours, theirs time.Time) bool {
	if !t.upd.IsZero() && !theirs.IsZero() && t.upd.After(theirs) {
		return true
	}
	return !t.asked.IsZero() && !ours.IsZero() && t.asked.After(ours)
}

// lintTask judges one task observation: a terminal status that changed,
// and a task still working long after a successful tasks/cancel.
func (s *Session) lintTask(t taskLint) {
	if !s.lintOn() || t.next == "" || !knownStatus(t.next) {
		return
	}
	ref := findings.FrameRef{In: true}
	if t.prev.Terminal() {
		// Two terminal statuses are both real (neither is ever stale); a
		// live one is real only when proved later than the terminal one.
		if t.next != t.prev && (t.next.Terminal() || t.after(t.termAt, t.termUpd)) {
			s.find(findings.TaskTransition, ref, "task %s went from %s to %s", t.id, t.prev, t.next)
		}
		return
	}
	grace := s.lint.rec.Grace()
	// Only an answer to a request that went out a grace after the cancel
	// was answered says what the server did with the cancel.
	if t.cancelOK.IsZero() || t.next.Terminal() || t.asked.IsZero() || t.asked.Sub(t.cancelOK) < grace {
		return
	}
	rule := findings.TaskCancelIgnored
	if t.design == TaskDesignCore {
		rule = findings.TaskCancelNotCancelled
	}
	s.find(rule, ref, "task %s still %s more than %v after tasks/cancel", t.id, t.next, grace)
}
