package client

import (
	"errors"
	"fmt"
)

// ErrUndeclared is wrapped by the error of a request for a capability the
// server did not declare (tools, resources, prompts, logging): it is not
// sent, since asking would only earn -32601 "Method not found". The error
// is an *UndeclaredError, which says which capability.
var ErrUndeclared = errors.New("the server did not declare the capability")

// UndeclaredError is the error of a request not sent because the server
// did not declare its capability.
type UndeclaredError struct {
	Server, Method string
	// Capability is the one missing: "tools", "resources", "prompts" or
	// "logging".
	Capability string
}

func (e *UndeclaredError) Error() string {
	return fmt.Sprintf("%s on %s: not asked, the server did not declare %s", e.Method, e.Server, e.Capability)
}

// Is makes errors.Is(err, ErrUndeclared) hold.
func (e *UndeclaredError) Is(target error) bool { return target == ErrUndeclared }

// require returns an *UndeclaredError for method on server unless caps
// declare capability.
func (caps ServerCapabilities) require(server, method, capability string) error {
	ok := map[string]bool{
		"tools":     caps.Tools,
		"resources": caps.Resources,
		"prompts":   caps.Prompts,
		"logging":   caps.Logging,
	}[capability]
	if ok {
		return nil
	}
	return &UndeclaredError{Server: server, Method: method, Capability: capability}
}
