package app

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/demo/acpagent"
	"go.uber.org/goleak"
)

// agentEnv, when set, makes the test binary the demo ACP agent on its
// stdio, requiring a sign-in, instead of running tests: the agent tests
// fork-exec themselves to get a real subprocess peer. It prints its
// arguments on stderr first, as an agent may print its command line.
const agentEnv = "ELICIT_APP_TEST_AGENT"

func TestMain(m *testing.M) {
	if os.Getenv(agentEnv) != "" {
		fmt.Fprintln(os.Stderr, "started with", os.Args[1:])
		if err := acpagent.Serve(context.Background(), os.Stdin, os.Stdout, acpagent.Options{RequireAuth: true}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}
