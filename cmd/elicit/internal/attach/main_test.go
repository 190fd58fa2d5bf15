package attach

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks for leaked goroutines: the program's, the forwarders'
// and the emulator's all end with each test.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
