package schema_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind (the concurrency
// tests start some).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
