package exit

import (
	"errors"
	"fmt"
	"io"

	"github.com/elicit-dev/elicit/themes/untrusted"
)

// Exit codes are part of the CLI's contract; scripts depend on them, so the
// numbers never change (README, "Exit codes").
const (
	OK          = 0 // success
	Internal    = 1 // a bug or an unexpected failure
	Usage       = 2 // bad flags or arguments
	Connect     = 3 // could not start or reach the server, or the handshake failed
	ToolError   = 4 // the call failed: JSON-RPC error or a result with isError
	NotAccepted = 5 // the call finished but a prompt ended other than accept
	Differs     = 6 // elicit replay: the server did not do what the recording did
	Findings    = 6 // elicit check: the server broke a MUST of the spec (the code replay uses: a test that failed)
)

// ErrHelp is returned when the usage was printed because it was asked
// for (-h): no error, exit 0.
var ErrHelp = errors.New("help shown")

// Error carries an exit code up to main with a one-line message.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Fail is an error that exits with code, its message formatted as
// fmt.Errorf does (%w wraps).
func Fail(code int, format string, args ...any) error {
	return &Error{Code: code, Err: fmt.Errorf(format, args...)}
}

// Usagef is a usage error (bad flags or arguments): exit 2.
func Usagef(format string, args ...any) error { return Fail(Usage, format, args...) }

// CodeOf maps an error to its exit code: OK for nil, the code an Error
// in its chain carries, else Internal.
func CodeOf(err error) int {
	if err == nil {
		return OK
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// Failure is the JSON a headless command prints for a non-zero exit, so a
// CI step can read why without parsing stderr.
type Failure struct {
	Exit    int    `json:"exit"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// FailureOf is err as a failure object; nil for nil.
func FailureOf(err error) *Failure {
	if err == nil {
		return nil
	}
	code := CodeOf(err)
	return &Failure{Exit: code, Kind: Kind(code), Message: err.Error()}
}

// Kind names an exit code in the failure object.
func Kind(code int) string {
	switch code {
	case Usage:
		return "usage"
	case Connect:
		return "connect"
	case ToolError:
		return "tool-error"
	case NotAccepted:
		return "not-accepted"
	case Differs:
		return "differs"
	}
	return "internal"
}

// Print writes the run's last line, "elicit: " and err. Errors carry
// server text (a JSON-RPC error message, a dying server's stderr), so it
// goes through the sanitizer like everything else elicit prints.
func Print(w io.Writer, err error) {
	fmt.Fprintf(w, "elicit: %s\n", untrusted.Text(err.Error()))
}
