package main

import (
	"context"
	"encoding/json"
	"io"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
)

const questionsUsage = `Usage: elicit questions --session NAME

Prints the session's open questions as a JSON array, oldest first: key,
server, call (the id elicit call --no-wait printed, when the question is
tied to one), message, mode, requestedSchema (form) or url (URL mode),
since; a question several calls in flight may own says
"origin": "ambiguous" and names them in "maybe". [] for none.
Exit codes: 0 ok, 2 usage, 3 no such session or the hub is gone.
`

const answerUsage = `Usage: elicit answer KEY --session NAME (--accept JSON | --accept-defaults | --decline | --cancel)

Answers the open question KEY (elicit questions lists them) and prints
{"key", "outcome", "sent", "content"} once the answer went out. --accept
JSON is merged over the schema's defaults, as answer files are, and
checked against the schema here: a field it lacks or a value it refuses
exits 2 naming the field, and nothing is sent. A URL-mode question's
accept is consent only (--accept-defaults).
Exit codes: 0 sent, 2 usage or content the schema refuses, 3 no such
session or the hub is gone, 5 the question had already ended (it says
how: answered, withdrawn, abandoned, disconnected).
`

const resultUsage = `Usage: elicit result ID --session NAME

Waits for the call elicit call --no-wait started (ID is the "call" it
printed) and prints its JSON, exiting as elicit call would have.
Exit codes: those of elicit call; 3 also when the session stopped first.
`

// sessionFlags parses --session and the positionals of a command on a
// session.
func sessionFlags(name, usage string, args []string, stderr io.Writer, npos int, extra func(fsRegister)) (string, []string, error) {
	var session string
	fs := cli.NewFlagSet(name, stderr, usage)
	fs.StringVar(&session, "session", "", "the session (elicit session list)")
	if extra != nil {
		extra(fs)
	}
	pos, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return "", nil, err
	}
	if session == "" {
		return "", nil, exit.Usagef("%s needs --session NAME (elicit session list)", name)
	}
	if len(pos) != npos {
		return "", nil, exit.Usagef("%s takes %d argument(s), got %d (see elicit %s -h)", name, npos, len(pos), name)
	}
	return session, pos, nil
}

// fsRegister is the part of a flag set a command adds its flags with.
type fsRegister interface {
	StringVar(p *string, name, value, usage string)
	BoolVar(p *bool, name string, value bool, usage string)
}

func runQuestions(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	session, _, err := sessionFlags("questions", questionsUsage, args, stderr, 0, nil)
	if err != nil {
		return err
	}
	p, err := hub.Locate()
	if err != nil {
		return exit.Fail(exit.Connect, "%w", err)
	}
	list := []hub.QuestionInfo{}
	if err := hub.Request(ctx, p, hub.MethodQuestions, hub.NameParams{Session: session}, &list); err != nil {
		return hubFailure(session, err)
	}
	return headless.WriteJSON(stdout, list)
}

func runAnswer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var accept string
	var defaults, decline, cancel bool
	session, pos, err := sessionFlags("answer", answerUsage, args, stderr, 1, func(fs fsRegister) {
		fs.StringVar(&accept, "accept", "", `accept with these field values, a JSON object ({"name": "Ada"}), merged over the schema's defaults`)
		fs.BoolVar(&defaults, "accept-defaults", false, "accept with the schema's defaults (URL mode: consent)")
		fs.BoolVar(&decline, "decline", false, "decline (the explicit no)")
		fs.BoolVar(&cancel, "cancel", false, "cancel (dismissed without a decision)")
	})
	if err != nil {
		return err
	}
	params := hub.AnswerParams{Session: session, Key: pos[0]}
	n := 0
	if accept != "" {
		n++
		params.Action = "accept"
		if err := json.Unmarshal([]byte(accept), &params.Content); err != nil || params.Content == nil {
			return exit.Usagef("--accept wants a JSON object of field values, like '{\"name\": \"Ada\"}'")
		}
	}
	for _, f := range []struct {
		set    bool
		action string
	}{{defaults, "accept"}, {decline, "decline"}, {cancel, "cancel"}} {
		if f.set {
			n++
			params.Action = f.action
		}
	}
	params.Defaults = defaults
	if n != 1 {
		return exit.Usagef("answer takes exactly one of --accept JSON, --accept-defaults, --decline, --cancel")
	}
	p, err := hub.Locate()
	if err != nil {
		return exit.Fail(exit.Connect, "%w", err)
	}
	var r hub.AnswerResult
	if err := hub.Request(ctx, p, hub.MethodAnswer, params, &r); err != nil {
		return hubFailure(session, err)
	}
	return headless.WriteJSON(stdout, &r)
}

func runResult(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	session, pos, err := sessionFlags("result", resultUsage, args, stderr, 1, nil)
	if err != nil {
		return err
	}
	p, err := hub.Locate()
	if err != nil {
		return exit.Fail(exit.Connect, "%w", err)
	}
	var r hub.RunResult
	if err := hub.Request(ctx, p, hub.MethodResult, hub.ResultParams{Session: session, Call: pos[0]}, &r); err != nil {
		return hubFailure(session, err)
	}
	return printRun(r, stdout, stderr)
}
