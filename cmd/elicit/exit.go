package main

import (
	"errors"
	"fmt"
)

// Exit codes are part of the CLI's contract; scripts depend on them, so the
// numbers never change (README, "Exit codes").
const (
	exitOK          = 0 // success
	exitInternal    = 1 // a bug or an unexpected failure
	exitUsage       = 2 // bad flags or arguments
	exitConnect     = 3 // could not start or reach the server, or the handshake failed
	exitToolError   = 4 // the call failed: JSON-RPC error or a result with isError
	exitNotAccepted = 5 // the call finished but a prompt ended other than accept
	exitDiffers     = 6 // elicit replay: the server did not do what the recording did
	exitFindings    = 6 // elicit check: the server broke a MUST of the spec (the code replay uses: a test that failed)
)

// exitError carries an exit code up to main with a one-line message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func fail(code int, format string, args ...any) error {
	return &exitError{code: code, err: fmt.Errorf(format, args...)}
}

func usageErr(format string, args ...any) error { return fail(exitUsage, format, args...) }

// codeOf maps an error to its exit code.
func codeOf(err error) int {
	if err == nil {
		return exitOK
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return exitInternal
}

// failure is the JSON a headless command prints for a non-zero exit, so a
// CI step can read why without parsing stderr.
type failure struct {
	Exit    int    `json:"exit"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// failureOf is err as a failure object; nil for nil.
func failureOf(err error) *failure {
	if err == nil {
		return nil
	}
	code := codeOf(err)
	return &failure{Exit: code, Kind: exitKind(code), Message: err.Error()}
}

// exitKind names an exit code in the failure object.
func exitKind(code int) string {
	switch code {
	case exitUsage:
		return "usage"
	case exitConnect:
		return "connect"
	case exitToolError:
		return "tool-error"
	case exitNotAccepted:
		return "not-accepted"
	case exitDiffers:
		return "differs"
	}
	return "internal"
}
