package shown

import (
	"encoding/json"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// Result is a tool result as the UI is given it: decoded again from
// its raw bytes with the secrets masked, when it holds any.
func Result(sec *redact.Secrets, res *wire.CallToolResult) *wire.CallToolResult {
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

// Value is v with the secrets masked in its strings, through JSON
// (a list, resource contents, a prompt): v itself when it holds none.
func Value[T any](sec *redact.Secrets, v T) T {
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

// Event is e as the UI is given it.
func Event(sec *redact.Secrets, e client.Event) client.Event {
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
		ev.Task = Task(sec, ev.Task)
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

// Update is an agent's update as the TUI is given it: its text, the
// tool call's title, content and input and output, the plan, the raw
// update, with the secrets masked (an agent may print its environment).
func Update(sec *redact.Secrets, u ui.AgentUpdate) ui.AgentUpdate {
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

// Entry is a journal entry as the TUI is given it; the entry's
// pointers are the journal's, so what changes is copied.
func Entry(sec *redact.Secrets, en question.JournalEntry) question.JournalEntry {
	en.Reason = sec.String(en.Reason)
	en.Origin.Name, en.Origin.TaskID = sec.String(en.Origin.Name), sec.String(en.Origin.TaskID)
	en.Content = Value(sec, en.Content)
	en.Option = Value(sec, en.Option)
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

// Tasks are tasks as the TUI is given them (a new slice).
func Tasks(sec *redact.Secrets, tasks []client.Task) []client.Task {
	if sec.Len() == 0 || len(tasks) == 0 {
		return tasks
	}
	out := make([]client.Task, len(tasks))
	for i, t := range tasks {
		out[i] = Task(sec, t)
	}
	return out
}

// Task is a task as the TUI is given it: the server's status
// message, immediate response, result and error masked.
func Task(sec *redact.Secrets, t client.Task) client.Task {
	t.StatusMessage, t.ImmediateResponse = sec.String(t.StatusMessage), sec.String(t.ImmediateResponse)
	t.Result, t.Err = Result(sec, t.Result), sec.Error(t.Err)
	return t
}
