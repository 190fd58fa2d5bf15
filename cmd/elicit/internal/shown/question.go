package shown

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/redact"
)

// A question is shown to the person with the run's secrets masked in all
// of it that is shown (the message, the URL, each field's title,
// description, option labels and default, a sampling request, an agent's
// permission request), while
// what goes back to the server is its own: an option's value is never
// masked (its label is what is shown), and a default the person left as
// shown goes back as the server sent it. The engine and the recording
// keep the question as it came; the answer goes back by its key.

// Prompter gives the person (the TUI) the question as Question
// makes it, and gives the engine the answer to the question as it came.
type Prompter struct {
	Next    question.Prompter
	Secrets *redact.Secrets
}

// Prompt implements question.Prompter.
func (p Prompter) Prompt(ctx context.Context, q *question.Question) question.Outcome {
	shown, back := Question(p.Secrets, q)
	return back(p.Next.Prompt(ctx, shown))
}

// Question is q as the person is shown it (q itself when it holds
// no secret), and how an answer to it becomes the answer to q.
func Question(sec *redact.Secrets, q *question.Question) (*question.Question, func(question.Outcome) question.Outcome) {
	same := func(o question.Outcome) question.Outcome { return o }
	if sec.Len() == 0 {
		return q, same
	}
	shown := *q
	shown.Message, shown.URL = sec.String(q.Message), sec.String(q.URL)
	back := same
	if q.Schema != nil {
		var changed map[string]any
		shown.Schema, changed = schemaOf(sec, q.Schema)
		shown.RawSchema = sec.Bytes(q.RawSchema)
		if len(changed) > 0 {
			back = func(o question.Outcome) question.Outcome {
				o.Content = serverDefaults(o.Content, changed, q.Schema)
				return o
			}
		}
	}
	if q.Sampling != nil {
		shown.Sampling = sampling(sec, q.Sampling)
	}
	if q.Permission != nil {
		shown.Permission = permission(sec, q.Permission)
	}
	return &shown, back
}

// schemaOf is s with the secrets masked in what a form shows of each
// property, and the properties whose default it masked, by name with the
// default as shown. Names and option values stay as sent (they are the
// answer's); a name that holds a secret is shown through a masked title.
func schemaOf(sec *redact.Secrets, s *schema.Schema) (*schema.Schema, map[string]any) {
	props := make([]*schema.Property, len(s.Properties))
	var changed map[string]any
	for i, p := range s.Properties {
		c := *p
		c.Title, c.Description, c.Raw = sec.String(c.Title), sec.String(c.Description), sec.Bytes(c.Raw)
		if n := sec.String(c.Name); n != c.Name && c.Title == "" {
			c.Title = n
		}
		if len(c.Options) > 0 {
			c.Options = make([]schema.Option, len(p.Options))
			for j, o := range p.Options {
				if l := sec.String(cmp.Or(o.Label, o.Value)); l != cmp.Or(o.Label, o.Value) {
					o.Label = l
				}
				c.Options[j] = o
			}
		}
		if len(c.Options) == 0 && c.Default != nil {
			if d := Value(sec, c.Default); !sameJSON(d, c.Default) {
				c.Default = d
				if changed == nil {
					changed = map[string]any{}
				}
				changed[c.Name] = d
			}
		}
		props[i] = &c
	}
	// A Schema is not copied (it caches its compiled form): a new one
	// compiles the schema as sent when the form validates.
	return &schema.Schema{Properties: props, Raw: s.Raw}, changed
}

// serverDefaults is content with each value the person left at a masked
// default put back to the default the server sent.
func serverDefaults(content, changed map[string]any, s *schema.Schema) map[string]any {
	if content == nil {
		return nil
	}
	out := make(map[string]any, len(content))
	for k, v := range content {
		if d, ok := changed[k]; ok && sameJSON(v, d) {
			v = s.Property(k).Default
		}
		out[k] = v
	}
	return out
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// sampling is a sampling request with the secrets masked in what its
// pane shows: the messages and system prompt, the tools' titles and
// descriptions (their names are what a reply calls).
func sampling(sec *redact.Secrets, s *question.Sampling) *question.Sampling {
	c := *s
	c.Params = Value(sec, s.Params)
	c.Raw = sec.Bytes(s.Raw)
	if len(s.Tools) > 0 {
		c.Tools = make([]question.SamplingTool, len(s.Tools))
		for i, t := range s.Tools {
			t.Title, t.Description = sec.String(t.Title), sec.String(t.Description)
			c.Tools[i] = t
		}
	}
	return &c
}

// permission is an agent's permission request with the secrets
// masked in its tool call and its options' names; the answer names an
// option by its id, which stays as sent.
func permission(sec *redact.Secrets, p *question.Permission) *question.Permission {
	c := question.Permission{ToolCall: sec.Bytes(p.ToolCall), Options: make([]question.PermissionOption, len(p.Options))}
	for i, o := range p.Options {
		o.Name = sec.String(o.Name)
		c.Options[i] = o
	}
	return &c
}
