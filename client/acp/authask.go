package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/forms/schema"
)

// AskAuth is an Options.ChooseAuth that asks p which method to sign in
// with: a form question (question.AuthChoice) with one choice per
// authMethod, so that a UI's form panes show it with nothing new to
// draw. Accept authenticates with the method chosen; decline, cancel or
// ctx ending leave the AuthRequiredError standing. The answer is
// journalled (outcome kinds, no bucket) when journal is not nil.
func AskAuth(agent string, p question.Prompter, journal *question.Journal) func(context.Context, []AuthMethod) (string, error) {
	return func(ctx context.Context, methods []AuthMethod) (string, error) {
		q, err := authQuestion(agent, methods)
		if err != nil {
			return "", err
		}
		asker := question.Asker{Prompter: p}
		d := asker.Settle(ctx, q, func(ctx context.Context) (string, error) {
			return "", context.Cause(ctx)
		})
		r, out := d.Reply(q)
		if journal != nil {
			now := time.Now()
			journal.Record(question.JournalEntry{Key: q.Key, Server: agent, Kind: out.Kind, Latency: now.Sub(q.Arrived),
				Reason: out.Reason, At: now, Sent: r.Sent, Asked: q.Kind, Content: out.Content})
		}
		if out.Kind != question.Accept {
			return "", fmt.Errorf("sign-in %s", out.Kind)
		}
		id, _ := out.Content["method"].(string)
		return id, nil
	}
}

// authQuestion is the form asking which method to sign in with.
func authQuestion(agent string, methods []AuthMethod) (*question.Question, error) {
	if len(methods) == 0 {
		return nil, fmt.Errorf("the agent lists no authMethods")
	}
	choices := make([]map[string]string, len(methods))
	for i, m := range methods {
		title := m.Name
		if title == "" {
			title = m.ID
		}
		choices[i] = map[string]string{"const": m.ID, "title": title}
		if m.Description != "" {
			choices[i]["description"] = m.Description
		}
	}
	params, err := json.Marshal(map[string]any{
		"mode":    "form",
		"message": agent + " asks you to sign in first. Which way?",
		"requestedSchema": map[string]any{"type": "object", "required": []string{"method"},
			"properties": map[string]any{"method": map[string]any{"type": "string", "title": "Sign-in method",
				"oneOf": choices, "default": methods[0].ID}}},
	})
	if err != nil {
		return nil, err
	}
	q := &question.Question{Server: agent, Arrived: time.Now(), Kind: question.KindElicitation,
		Key: question.Key{Server: agent, Delivery: question.AuthChoice}}
	var cache question.SchemaCache
	if perr := question.Parse(q, params, question.Modes{Form: true}, schema.Subset2025_11_25, &cache); perr != nil {
		// The methods' ids and names are the agent's: a schema they make
		// unacceptable is the agent's fault, said plainly.
		return nil, fmt.Errorf("the agent's authMethods cannot be asked: %s", perr.Msg)
	}
	return q, nil
}
