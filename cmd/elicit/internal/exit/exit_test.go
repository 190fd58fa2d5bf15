package exit

import (
	"errors"
	"fmt"
	"testing"
)

// TestCodeOf: an Error anywhere in the chain gives its code (the first
// one met), nil is OK, any other error is Internal; the failure object
// names the code.
func TestCodeOf(t *testing.T) {
	wrapped := fmt.Errorf("running: %w", Fail(Connect, "dial: %w", errors.New("refused")))
	for _, tc := range []struct {
		err  error
		code int
		kind string
	}{
		{nil, OK, ""},
		{errors.New("bug"), Internal, "internal"},
		{Usagef("bad --x %q", "y"), Usage, "usage"},
		{wrapped, Connect, "connect"},
		{Fail(ToolError, "isError"), ToolError, "tool-error"},
		{Fail(NotAccepted, "declined"), NotAccepted, "not-accepted"},
		{Fail(Differs, "differs"), Differs, "differs"},
	} {
		if got := CodeOf(tc.err); got != tc.code {
			t.Errorf("CodeOf(%v) = %d, want %d", tc.err, got, tc.code)
		}
		f := FailureOf(tc.err)
		if tc.err == nil {
			if f != nil {
				t.Errorf("FailureOf(nil) = %+v, want nil", f)
			}
			continue
		}
		if f.Exit != tc.code || f.Kind != tc.kind || f.Message != tc.err.Error() {
			t.Errorf("FailureOf(%v) = %+v, want exit %d kind %s", tc.err, f, tc.code, tc.kind)
		}
	}
	if !errors.Is(wrapped, errors.Unwrap(errors.Unwrap(wrapped))) {
		t.Error("an Error does not unwrap to what it carries")
	}
}
