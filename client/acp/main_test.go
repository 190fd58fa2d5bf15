package acp_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo/acpagent"
	"go.uber.org/goleak"
)

// agentEnv, when set, makes the test binary the demo ACP agent on its
// stdio ("auth": it requires authentication; "slow": session/new is slow)
// instead of running tests: the tests fork-exec themselves to get a real
// subprocess peer.
const agentEnv = "ELICIT_ACP_TEST_AGENT"

func TestMain(m *testing.M) {
	if kind := os.Getenv(agentEnv); kind != "" {
		opts := acpagent.Options{RequireAuth: kind == "auth", Step: 50 * time.Millisecond}
		opts.AskOnNew = kind == "asknew"
		opts.AskOnNewThenAnswer = kind == "asknewfast"
		opts.CommandsOnNew = kind == "cmdsnew"
		opts.Minimal = kind == "minimal"
		if kind == "slow" {
			opts.SlowNew = time.Minute
		}
		if kind == "slowauth" {
			opts.RequireAuth, opts.SlowAuth = true, time.Minute
		}
		if err := acpagent.Serve(context.Background(), os.Stdin, os.Stdout, opts); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}
