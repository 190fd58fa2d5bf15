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
// empty.
func (s *Session) Complete(ctx context.Context, ref wire.CompleteRef, arg, value string, others map[string]string) (*wire.Completion, error) {
	if !s.ServerCapabilities().Completions {
		return nil, fmt.Errorf("completion/complete on %s: %w", s.name, ErrNoCompletions)
	}
	var p wire.CompleteParams
	p.Ref = ref
	p.Argument.Name, p.Argument.Value = arg, value
	if len(others) > 0 {
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
