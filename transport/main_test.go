package transport_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// serverEnv names the test server a re-executed test binary should run
// instead of the tests (the fork-exec trick: stdio tests need a real
// subprocess, and the test binary itself is the one we are sure exists).
const serverEnv = "ELICIT_TEST_SERVER"

func TestMain(m *testing.M) {
	if name := os.Getenv(serverEnv); name != "" {
		run, ok := testServer(name)
		if !ok {
			fmt.Fprintf(os.Stderr, "unknown test server %q\n", name)
			os.Exit(2)
		}
		run()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}
