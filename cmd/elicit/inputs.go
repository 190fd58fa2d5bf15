package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// VS Code's ${input:ID} in a config, in the TUI: before any server starts,
// the person is asked for each input the environment does not give
// (ELICIT_INPUT_ID), in one form; a password input is not echoed. The
// values go into the servers' env and headers and nowhere else: they are
// never logged, printed or put in an error. serverspec.LoadAsking decides
// what to ask; this is the form that asks it.

// terminalAsker asks with a huh form on the terminal (stdin, out). Esc or
// ctrl+c aborts start-up.
func terminalAsker(out io.Writer) serverspec.InputAsker {
	return func(ctx context.Context, path string, qs []serverspec.InputQuestion) (map[string]string, error) {
		values := make([]string, len(qs))
		fields := make([]huh.Field, 0, len(qs))
		for i, q := range qs {
			fields = append(fields, inputField(q, &values[i]))
		}
		km := huh.NewDefaultKeyMap()
		km.Quit = key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "abort start-up"))
		form := huh.NewForm(huh.NewGroup(fields...).
			Title("elicit: " + untrusted.Line(path) + " asks for values before its servers start").
			Description("Each goes only to the server that names it; nothing typed here is shown or logged. Esc aborts.")).
			WithKeyMap(km).WithOutput(out)
		if err := form.RunWithContext(ctx); err != nil {
			if errors.Is(err, huh.ErrUserAborted) {
				return nil, abortedInputs(qs)
			}
			return nil, fmt.Errorf("asking for the config's inputs: %w", err)
		}
		answers := make(map[string]string, len(qs))
		for i, q := range qs {
			answers[q.ID] = values[i]
		}
		return answers, nil
	}
}

// abortedInputs says what was not given and how to give it without the
// form.
func abortedInputs(qs []serverspec.InputQuestion) error {
	names, envs := make([]string, len(qs)), make([]string, len(qs))
	for i, q := range qs {
		names[i], envs[i] = "${input:"+untrusted.Line(q.ID)+"}", serverspec.InputEnv(q.ID)
	}
	verb := "was"
	if len(qs) > 1 {
		verb = "were"
	}
	return exit.Usagef("start-up aborted: %s %s not given (set %s to start without the question)",
		strings.Join(names, ", "), verb, strings.Join(envs, ", "))
}

// inputField is the form field of one input: a choice for a pickString
// with options, else a text input (masked for a password), prefilled
// with the declared default. Config text is shown through untrusted: a
// .vscode/mcp.json may come with a cloned repository.
func inputField(q serverspec.InputQuestion, v *string) huh.Field {
	in := q.Input
	title := untrusted.Line(in.Description)
	if title == "" {
		title = "Value for ${input:" + untrusted.Line(q.ID) + "}"
	}
	desc := "${input:" + untrusted.Line(q.ID) + "} · " + serverspec.InputEnv(q.ID) + " gives it without asking"
	*v = in.Default
	if in.Type == "pickString" && len(in.Options) > 0 {
		opts := make([]huh.Option[string], 0, len(in.Options))
		for _, o := range in.Options {
			opts = append(opts, huh.NewOption(untrusted.Line(o), o))
		}
		return huh.NewSelect[string]().Title(title).Description(desc).Options(opts...).Value(v)
	}
	f := huh.NewInput().Title(title).Description(desc).Value(v)
	if in.Password {
		f = f.EchoMode(huh.EchoModePassword)
	}
	return f
}
