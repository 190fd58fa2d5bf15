package lint

import (
	"time"

	"github.com/elicit-dev/elicit/client/findings"
)

// The checks of tasks: status changes, cancellation.

// Task is what one task observation looked like, taken under the task's
// lock (client's observeTask) and judged after it. The statuses come with
// what the engine knows of them (terminal, known), so that the task
// vocabulary stays the engine's.
//
// A finding is raised only on what the server really did. A snapshot can
// be stale: a tasks/get the server answered from the state it read
// before it sent "completed" (server-everything's research task under
// load), or a notification overtaken on another HTTP stream. So an
// observation proves a later state only by the server's own clock (a
// lastUpdatedAt after the one it is compared with) or by the order of
// frames (it answers a request that went out after what it is compared
// with was known); one that proves nothing judges nothing.
type Task struct {
	ID string
	// Core: the task speaks the 2025-11-25 core design (a cancel ignored
	// is then task-cancel-not-cancelled).
	Core                       bool
	Prev, Next                 string
	PrevTerminal, NextTerminal bool // Prev, Next is terminal
	NextKnown                  bool // Next is one of the five statuses

	Upd      time.Time // Next's lastUpdatedAt (zero if it had none)
	Asked    time.Time // no later than the request it answers went out; zero for a notification
	TermAt   time.Time // when Prev, if terminal, was folded in
	TermUpd  time.Time // Prev's lastUpdatedAt, if terminal (zero if it had none)
	CancelOK time.Time // when a tasks/cancel was answered with success
}

// after reports whether the observation proves a state later than one
// folded in at ours (our clock) and stamped theirs (the server's, zero
// if unstamped).
func (t Task) after(ours, theirs time.Time) bool {
	if !t.Upd.IsZero() && !theirs.IsZero() && t.Upd.After(theirs) {
		return true
	}
	return !t.Asked.IsZero() && !ours.IsZero() && t.Asked.After(ours)
}

// Task judges one task observation: a terminal status that changed,
// and a task still working long after a successful tasks/cancel.
func (l *Linter) Task(t Task) {
	if !l.On() || t.Next == "" || !t.NextKnown {
		return
	}
	ref := findings.FrameRef{In: true}
	if t.PrevTerminal {
		// Two terminal statuses are both real (neither is ever stale); a
		// live one is real only when proved later than the terminal one.
		if t.Next != t.Prev && (t.NextTerminal || t.after(t.TermAt, t.TermUpd)) {
			l.Find(findings.TaskTransition, ref, "task %s went from %s to %s", t.ID, t.Prev, t.Next)
		}
		return
	}
	grace := l.rec.Grace()
	// Only an answer to a request that went out a grace after the cancel
	// was answered says what the server did with the cancel.
	if t.CancelOK.IsZero() || t.NextTerminal || t.Asked.IsZero() || t.Asked.Sub(t.CancelOK) < grace {
		return
	}
	rule := findings.TaskCancelIgnored
	if t.Core {
		rule = findings.TaskCancelNotCancelled
	}
	l.Find(rule, ref, "task %s still %s more than %v after tasks/cancel", t.ID, t.Next, grace)
}
