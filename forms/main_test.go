package forms

import (
	"testing"

	"go.uber.org/goleak"
)

// The driver runs commands in goroutines; cursor blinks outlive their
// timeout by at most half a second, which goleak's retries absorb.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
