package client_test

import (
	"context"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// serverEnv, when set, makes the test binary a go-sdk stdio server (the
// "ask" server of the stateful era, with "book" the booking server of
// 2026-07-28, with "sample" or "sample-legacy" the sampling server of
// both eras or of the stateful one; "deaf" the raw server of
// TestDeafServerWritesEnd) instead of running tests: the stdio
// tests fork-exec themselves to get a real subprocess peer.
const serverEnv = "ELICIT_CLIENT_TEST_SERVER"

func TestMain(m *testing.M) {
	if kind := os.Getenv(serverEnv); kind == "deaf" {
		serveDeaf()
		os.Exit(0)
	}
	if kind := os.Getenv(serverEnv); kind != "" {
		srv := newAskServer(nil)
		switch kind {
		case "book":
			srv = newBookServer(nil)
		case "sample":
			srv = newSampleServer(nil)
		case "sample-legacy":
			srv = newSampleServer(legacyOpts(nil))
		}
		if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}
