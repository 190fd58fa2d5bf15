package client

import (
	"time"

	"github.com/elicit-dev/elicit/client/lint"
	"github.com/elicit-dev/elicit/client/wire"
)

// The findings checks are client/lint: each hook in the engine is one call
// into s.lint, made where the engine already notices what the server did,
// never under Session.mu (the Handle's funcs read the protocol under it).
// Here: the handle, and what only the session can tell the checks.

// newLinter gives the checks their narrow handle on s.
func newLinter(s *Session) *lint.Linter {
	return lint.New(s.opts.Findings, lint.Handle{
		Server:    s.name,
		Protocol:  s.Protocol,
		Stateless: s.stateless,
		Declared: func() lint.Declared {
			c := s.ServerCapabilities()
			return lint.Declared{ToolsListChanged: c.ToolsListChanged, ResourcesListChanged: c.ResourcesListChanged,
				PromptsListChanged: c.PromptsListChanged, Logging: c.Logging, ResourcesSubscribe: c.ResourcesSubscribe}
		},
		CapabilityOf: capabilityOf,
	})
}

// unrelatedRequest reports whether a server request that asks a person has
// nothing to belong to: no call of ours carried it or owns it, it names no
// task, and no request of ours (open: the peer's calls awaiting an answer)
// but pings is open.
func unrelatedRequest(e *incoming, open []*call) bool {
	if e.origin.CallID.IsValid() || e.origin.TaskID != "" {
		return false
	}
	for _, c := range open {
		if c.method != wire.MethodPing {
			return false
		}
	}
	return true
}

// lintLocked is what one observation of the task looked like (lint.Task),
// taken under f.mu and judged after it.
func (f *taskFollow) lintLocked(w *wireTask, asked time.Time) lint.Task {
	return lint.Task{ID: f.id, Core: f.design == TaskDesignCore,
		Prev: string(f.snap.Status), Next: string(w.Status),
		PrevTerminal: f.snap.Status.Terminal(), NextTerminal: w.Status.Terminal(), NextKnown: knownStatus(w.Status),
		Upd: stamp(w.LastUpdatedAt), Asked: asked, TermAt: f.termAt, TermUpd: f.termUpd, CancelOK: f.cancelOK}
}
