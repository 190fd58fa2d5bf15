package serverspec

import (
	"cmp"
	"context"
	"slices"
	"strings"
)

// VS Code's ${input:ID} in a config, in the TUI: before any server starts,
// the person is asked for each input the environment does not give
// (ELICIT_INPUT_ID), in one form; a password input is not echoed. The
// values go into the servers' env and headers and nowhere else: they are
// never logged, printed or put in an error.

// InputQuestion is one input to ask for: its id and what the config
// declares about it (zero when it declares nothing).
type InputQuestion struct {
	ID    string
	Input Input
}

// InputAsker asks the person for the values of qs, by id; an error means
// nothing was given (the person aborted).
type InputAsker func(ctx context.Context, path string, qs []InputQuestion) (map[string]string, error)

// LoadAsking is Load for a person: inputs the environment does
// not give are asked for with ask, all at once, before the config's
// servers are built.
func LoadAsking(ctx context.Context, path string, ask InputAsker) (*Config, error) {
	var missing []string
	cfg, err := LoadWith(path, func(id string) (string, bool) {
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
		if i := slices.IndexFunc(cfg.Inputs, func(in Input) bool { return in.ID == id }); i >= 0 {
			return i
		}
		return len(cfg.Inputs)
	}
	slices.SortFunc(missing, func(a, b string) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b))
	})
	qs := make([]InputQuestion, 0, len(missing))
	for _, id := range missing {
		q := InputQuestion{ID: id}
		if i := rank(id); i < len(cfg.Inputs) {
			q.Input = cfg.Inputs[i]
		}
		qs = append(qs, q)
	}
	answers, err := ask(ctx, path, qs)
	if err != nil {
		return nil, err
	}
	return LoadWith(path, func(id string) (string, bool) {
		if v, ok := answers[id]; ok {
			return v, true
		}
		return envInput(id)
	})
}
