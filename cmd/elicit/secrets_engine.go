package main

import (
	"encoding/json"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// What the TUI is shown of servers passes the run's secrets too: the
// engine masks them in the errors and answers it gives the UI, and in
// the events on their way to it (the frames and stderr lines are masked
// where the transports report them, redactObserver). The Manager and
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

// shownResult is a tool result as the UI is given it: decoded again from
// its raw bytes with the secrets masked, when it holds any.
func shownResult(sec *redact.Secrets, res *wire.CallToolResult) *wire.CallToolResult {
	if res == nil || len(res.Raw) == 0 {
		return res
	}
	red := sec.Bytes(res.Raw)
	if len(red) == len(res.Raw) && string(red) == string(res.Raw) {
		return res
	}
	out, err := wire.DecodeToolResult(red)
	if err != nil {
		// Masking inside JSON strings keeps them JSON; should it not,
		// the text alone is shown, masked.
		return &wire.CallToolResult{IsError: res.IsError, Raw: red,
			Content: []wire.ContentBlock{{Type: "text", Text: sec.String(res.Text())}}}
	}
	return out
}

// shownValue is v with the secrets masked in its strings, through JSON
// (a list, resource contents, a prompt): v itself when it holds none.
func shownValue[T any](sec *redact.Secrets, v T) T {
	if sec.Len() == 0 {
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	red := sec.Bytes(b)
	if len(red) == len(b) && string(red) == string(b) {
		return v
	}
	var out T
	if err := json.Unmarshal(red, &out); err != nil {
		var zero T
		return zero // never the unmasked value
	}
	return out
}

// shownEvent is e as the UI is given it.
func shownEvent(sec *redact.Secrets, e client.Event) client.Event {
	if sec.Len() == 0 {
		return e
	}
	switch ev := e.(type) {
	case client.ServerStateChanged:
		ev.Err = sec.Error(ev.Err)
		return ev
	case client.CallProgress:
		ev.Message = sec.String(ev.Message)
		return ev
	case client.CallFinished:
		ev.Err = sec.Error(ev.Err)
		return ev
	case client.LogMessage:
		ev.Data = sec.Bytes(ev.Data)
		return ev
	case client.Notice:
		ev.Text = sec.String(ev.Text)
		return ev
	case client.URLRetry:
		ev.Why = sec.String(ev.Why)
		return ev
	case client.TaskChanged:
		ev.Task = shownTask(sec, ev.Task)
		return ev
	case client.ResourceSubscriptionEnded:
		ev.Err = sec.Error(ev.Err)
		return ev
	case client.RequestRefused:
		if ev.Err != nil {
			je := *ev.Err
			je.Message, je.Data = sec.String(je.Message), sec.Bytes(je.Data)
			ev.Err = &je
		}
		return ev
	}
	return e
}

// shownUpdate is an agent's update as the TUI is given it: its text, the
// tool call's title, content and input and output, the plan, the raw
// update, with the secrets masked (an agent may print its environment).
func shownUpdate(sec *redact.Secrets, u ui.AgentUpdate) ui.AgentUpdate {
	if sec.Len() == 0 {
		return u
	}
	u.Text, u.Raw = sec.String(u.Text), sec.Bytes(u.Raw)
	if t := u.Tool; t != nil {
		c := *t
		c.Title, c.Content, c.Locations = sec.String(c.Title), sec.Bytes(c.Content), sec.Bytes(c.Locations)
		c.RawInput, c.RawOutput = sec.Bytes(c.RawInput), sec.Bytes(c.RawOutput)
		u.Tool = &c
	}
	if len(u.Plan) > 0 {
		plan := make([]ui.AgentPlanEntry, len(u.Plan))
		for i, p := range u.Plan {
			p.Content = sec.String(p.Content)
			plan[i] = p
		}
		u.Plan = plan
	}
	return u
}

// Journal implements ui.Engine: the journal with the run's secrets masked
// in what the servers sent (an accept's content holds the defaults a
// server gave, a sampling entry its request).
func (e *engine) Journal() ui.JournalSnapshot {
	snap := ui.JournalOf(e.m.Journal())
	sec := e.secretsNow()
	if sec.Len() == 0 {
		return snap
	}
	shown := make([]question.JournalEntry, len(snap.Entries))
	for i, en := range snap.Entries {
		shown[i] = shownEntry(sec, en)
	}
	snap.Entries = shown
	return snap
}

// shownEntry is a journal entry as the TUI is given it; the entry's
// pointers are the journal's, so what changes is copied.
func shownEntry(sec *redact.Secrets, en question.JournalEntry) question.JournalEntry {
	en.Reason = sec.String(en.Reason)
	en.Origin.Name, en.Origin.TaskID = sec.String(en.Origin.Name), sec.String(en.Origin.TaskID)
	en.Content = shownValue(sec, en.Content)
	en.Option = shownValue(sec, en.Option)
	if r := en.Sampling; r != nil {
		c := *r
		c.Request, c.Result = sec.Bytes(c.Request), sec.Bytes(c.Result)
		if c.Error != nil {
			je := *c.Error
			je.Message, je.Data = sec.String(je.Message), sec.Bytes(je.Data)
			c.Error = &je
		}
		en.Sampling = &c
	}
	return en
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

// shownTasks are tasks as the TUI is given them (a new slice).
func shownTasks(sec *redact.Secrets, tasks []client.Task) []client.Task {
	if sec.Len() == 0 || len(tasks) == 0 {
		return tasks
	}
	out := make([]client.Task, len(tasks))
	for i, t := range tasks {
		out[i] = shownTask(sec, t)
	}
	return out
}

// shownTask is a task as the TUI is given it: the server's status
// message, immediate response, result and error masked.
func shownTask(sec *redact.Secrets, t client.Task) client.Task {
	t.StatusMessage, t.ImmediateResponse = sec.String(t.StatusMessage), sec.String(t.ImmediateResponse)
	t.Result, t.Err = shownResult(sec, t.Result), sec.Error(t.Err)
	return t
}
