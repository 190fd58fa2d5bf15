package acp

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// authRequired is err as an AuthRequiredError when the agent answered
// -32000 and listed sign-in methods; nil otherwise.
func (c *Client) authRequired(err error) *AuthRequiredError {
	var ae *AuthRequiredError
	if errors.As(err, &ae) {
		return ae
	}
	var re *RPCError
	if errors.As(err, &re) && re.Err.Code == CodeAuthRequired && len(c.init.AuthMethods) > 0 {
		return &AuthRequiredError{Methods: c.init.AuthMethods, Err: err}
	}
	return nil
}

// signedIn runs call; if the agent wants a sign-in first (-32000, on any
// session method: codex-acp wants it for session/list too) and
// Options.ChooseAuth picks a method, it signs in and runs call once
// more.
func (c *Client) signedIn(ctx context.Context, call func() error) error {
	err := call()
	ae := c.authRequired(err)
	if ae == nil || c.opts.ChooseAuth == nil {
		if ae != nil {
			return ae
		}
		return err
	}
	id, cerr := c.opts.ChooseAuth(ctx, ae.Methods)
	if cerr != nil {
		return fmt.Errorf("%w (no method chosen: %v)", ae, cerr)
	}
	i := slices.IndexFunc(ae.Methods, func(m AuthMethod) bool { return m.ID == id })
	if i < 0 {
		return fmt.Errorf("%w (%q is not one of them)", ae, id)
	}
	if ae.Methods[i].Type == AuthTerminal {
		err = c.terminalAuth(ctx, ae.Methods[i])
	} else {
		err = c.Authenticate(ctx, id)
	}
	if err != nil {
		return err
	}
	return call()
}
