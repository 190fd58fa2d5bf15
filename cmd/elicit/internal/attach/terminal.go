package attach

import "errors"

// errNotTerminal: elicit attach draws a TUI, which needs a terminal on
// both stdin and stdout.
var errNotTerminal = errors.New("elicit attach needs a terminal on stdin and stdout")

// IsNotTerminal reports whether err is OSTerminal's "not a terminal".
func IsNotTerminal(err error) bool { return errors.Is(err, errNotTerminal) }
