package client

import (
	"context"
	"errors"
	"fmt"

	"github.com/elicit-dev/elicit/client/wire"
)

// ErrNoCompletions is returned by Complete when the server did not
// declare the completions capability: asking would only earn -32601.
var ErrNoCompletions = errors.New("the server declared no completions capability")

// maxCompletionValues is the spec's bound on values (2026-07-28
// @maxItems 100); more are cut, not trusted.
const maxCompletionValues = 100

// Complete asks the server for values of argument arg of ref (a prompt or
// a resource template) that continue value, given the other arguments
// filled so far (completion/complete). The context is left out when it is
// empty, and before 2025-06-18.
func (s *Session) Complete(ctx context.Context, ref wire.CompleteRef, arg, value string, others map[string]string) (*wire.Completion, error) {
	if !s.ServerCapabilities().Completions {
		return nil, fmt.Errorf("completion/complete on %s: %w", s.name, ErrNoCompletions)
	}
	var p wire.CompleteParams
	p.Ref = ref
	p.Argument.Name, p.Argument.Value = arg, value
	// context is 2025-06-18's: an older server may refuse a member it
	// does not know, so it hears only the argument.
	if len(others) > 0 && s.Protocol() >= wire.Protocol2025_06_18 {
		p.Context = &wire.CompleteContext{Arguments: others}
	}
	var res wire.CompleteResult
	if err := s.Request(ctx, wire.MethodCompletionComplete, p, &res); err != nil {
		return nil, err
	}
	c := res.Completion
	if len(c.Values) > maxCompletionValues {
		c.Values, c.HasMore = c.Values[:maxCompletionValues], true
	}
	if c.Values == nil {
		c.Values = []string{}
	}
	return &c, nil
}
