package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/themes/untrusted"
)

// VS Code's ${input:ID} in a config, in the TUI: before any server starts,
// the person is asked for each input the environment does not give
// (ELICIT_INPUT_ID), in one form; a password input is not echoed. The
// values go into the servers' env and headers and nowhere else: they are
// never logged, printed or put in an error.

// inputQuestion is one input to ask for: its id and what the config
// declares about it (zero when it declares nothing).
type inputQuestion struct {
	ID    string
	Input configInput
}

// inputAsker asks the person for the values of qs, by id; an error means
// nothing was given (the person aborted).
type inputAsker func(ctx context.Context, path string, qs []inputQuestion) (map[string]string, error)

// loadConfigAsking is loadConfig for a person: inputs the environment does
// not give are asked for with ask, all at once, before the config's
// servers are built.
func loadConfigAsking(ctx context.Context, path string, ask inputAsker) (*config, error) {
	var missing []string
	cfg, err := loadConfigWith(path, func(id string) (string, bool) {
		if v, ok := envInput(id); ok {
			return v, true
		}
		if !slices.Contains(missing, id) {
			missing = append(missing, id)
		}
		return "", true // a stand-in: this pass only learns what is missing
	})
	if err != nil || len(missing) == 0 {
		return cfg, err
	}
	// In the order the file declares them, then the undeclared by id:
	// the order they were met in follows Go's map order (env, headers).
	rank := func(id string) int {
		if i := slices.IndexFunc(cfg.Inputs, func(in configInput) bool { return in.ID == id }); i >= 0 {
			return i
		}
		return len(cfg.Inputs)
	}
	slices.SortFunc(missing, func(a, b string) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b))
	})
	qs := make([]inputQuestion, 0, len(missing))
	for _, id := range missing {
		q := inputQuestion{ID: id}
		if i := rank(id); i < len(cfg.Inputs) {
			q.Input = cfg.Inputs[i]
		}
		qs = append(qs, q)
	}
	answers, err := ask(ctx, path, qs)
	if err != nil {
		return nil, err
	}
	return loadConfigWith(path, func(id string) (string, bool) {
		if v, ok := answers[id]; ok {
			return v, true
		}
		return envInput(id)
	})
}

// terminalAsker asks with a huh form on the terminal (stdin, out). Esc or
// ctrl+c aborts start-up.
func terminalAsker(out io.Writer) inputAsker {
	return func(ctx context.Context, path string, qs []inputQuestion) (map[string]string, error) {
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
func abortedInputs(qs []inputQuestion) error {
	names, envs := make([]string, len(qs)), make([]string, len(qs))
	for i, q := range qs {
		names[i], envs[i] = "${input:"+untrusted.Line(q.ID)+"}", inputEnv(q.ID)
	}
	verb := "was"
	if len(qs) > 1 {
		verb = "were"
	}
	return usageErr("start-up aborted: %s %s not given (set %s to start without the question)",
		strings.Join(names, ", "), verb, strings.Join(envs, ", "))
}

// inputField is the form field of one input: a choice for a pickString
// with options, else a text input (masked for a password), prefilled
// with the declared default. Config text is shown through untrusted: a
// .vscode/mcp.json may come with a cloned repository.
func inputField(q inputQuestion, v *string) huh.Field {
	in := q.Input
	title := untrusted.Line(in.Description)
	if title == "" {
		title = "Value for ${input:" + untrusted.Line(q.ID) + "}"
	}
	desc := "${input:" + untrusted.Line(q.ID) + "} · " + inputEnv(q.ID) + " gives it without asking"
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
