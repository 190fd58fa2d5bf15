package tui

import (
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/shown"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// What the TUI is shown of servers passes the run's secrets too: the
// engine masks them in the errors and answers it gives the UI, and in
// the events on their way to it (the frames and stderr lines are masked
// where the transports report them, serverspec.RedactObserver). The Manager and
// sessions keep what the servers sent; only what is shown changes.

// secretsNow is the engine's set (one is made when none was given).
func (e *engine) secretsNow() *redact.Secrets {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.secrets == nil {
		e.secrets = redact.NewSecrets()
	}
	return e.secrets
}

// shownErr is err as the UI is given it.
func (e *engine) shownErr(err error) error { return e.secretsNow().Error(err) }

// Journal implements ui.Engine: the journal with the run's secrets masked
// in what the servers sent (an accept's content holds the defaults a
// server gave, a sampling entry its request).
func (e *engine) Journal() ui.JournalSnapshot {
	snap := ui.JournalOf(e.m.Journal())
	sec := e.secretsNow()
	if sec.Len() == 0 {
		return snap
	}
	entries := make([]question.JournalEntry, len(snap.Entries))
	for i, en := range snap.Entries {
		entries[i] = shown.Entry(sec, en)
	}
	snap.Entries = entries
	return snap
}

// Findings implements ui.Engine: the details quote the servers, so the
// run's secrets are masked in them.
func (e *engine) Findings(seen uint64) ([]findings.Finding, uint64) {
	list, ver := ui.FindingsOf(e.findings, seen) // a copy
	sec := e.secretsNow()
	for i := range list {
		list[i].Detail = sec.String(list[i].Detail)
	}
	return list, ver
}
