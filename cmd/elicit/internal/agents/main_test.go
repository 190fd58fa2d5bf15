package agents

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if runTappedAgent() { // the binary is the demo ACP agent (tap_test.go)
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}
