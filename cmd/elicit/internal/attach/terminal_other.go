//go:build !unix

package attach

// OSTerminal: the hub is reached over a unix socket; elsewhere there is
// nothing to attach to.
func OSTerminal() (Terminal, func(), error) { return Terminal{}, nil, errNotTerminal }
