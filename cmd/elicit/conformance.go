package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
)

const conformanceUsage = `Usage: elicit conformance URL

The client side of the official MCP conformance suite:
  npx @modelcontextprotocol/conformance@0.1.13 client \
      --command "elicit conformance" --scenario NAME
The runner appends the server URL and sets MCP_CONFORMANCE_SCENARIO. elicit
connects over Streamable HTTP with the same engine and the same
accept-defaults policy as "elicit call", and plays the scenario.
`

// conformanceCalls maps a scenario to the tool calls it expects.
var conformanceCalls = map[string][]struct {
	tool string
	args map[string]any
}{
	"initialize":                          nil,
	"tools_call":                          {{"add_numbers", map[string]any{"a": 5, "b": 3}}},
	"elicitation-sep1034-client-defaults": {{"test_client_elicitation_defaults", map[string]any{}}},
	"sse-retry":                           {{"test_reconnection", map[string]any{}}},
}

func runConformance(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("conformance", stderr, conformanceUsage)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("conformance needs the server URL as its last argument")
	}
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	calls, known := conformanceCalls[scenario]
	if !known {
		fmt.Fprintf(stderr, "elicit: unknown scenario %q; connecting and listing tools only\n", scenario)
	}
	ctx, cancel := context.WithTimeout(ctx, 25*time.Second)
	defer cancel()
	logFrame := transport.ObserverFuncs{OnFrame: func(f transport.Frame) {
		fmt.Fprintf(stderr, "%s %s %s\n", f.Time.Format("15:04:05.000"), f.Dir, untrusted.Line(string(f.Raw)))
	}}
	sess, err := client.Connect(ctx, &transport.HTTP{URL: pos[0], Observer: logFrame}, &client.Options{
		Name:       "conformance",
		ClientInfo: wire.Implementation{Name: "elicit", Version: version},
		Elicit:     client.ElicitBoth,
		Prompter:   question.AcceptDefaults,
	})
	if err != nil {
		return fail(exitConnect, "connect to %s: %w", pos[0], err)
	}
	defer sess.Close()
	if _, err := sess.ListTools(ctx); err != nil {
		return fail(exitToolError, "tools/list: %w", err)
	}
	for _, c := range calls {
		res, err := sess.CallTool(ctx, c.tool, c.args, nil)
		if err != nil {
			return fail(exitToolError, "tools/call %s: %w", c.tool, err)
		}
		fmt.Fprintf(stdout, "%s: %s\n", c.tool, untrusted.Line(string(res.Raw)))
	}
	return nil
}
