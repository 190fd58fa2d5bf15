package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/cmd/elicit/demo/acpagent"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/tui"
)

const demoUsage = `Usage:
  elicit demo [flags]                         the TUI against two embedded demo servers, one per
                                              protocol era: demo-2025-11-25 (questions are
                                              elicitation/create requests) and demo-2026-07-28
                                              (input_required results); --protocol V runs one, demo-V
  elicit demo --acp                           serve the demo ACP agent on stdio
  elicit demo --serve stdio                   serve the demo over stdin/stdout
  elicit demo --serve http [--addr ADDR] [--stateless]
                                              serve the demo over Streamable HTTP at http://ADDR/mcp;
                                              --stateless serves 2026-07-28 (input_required) instead
                                              of the stateful 2025-11-25 handler
With --serve, --protocol restricts the versions the demo offers.
`

func runDemo(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var serve, addr string
	var stateless, acpAgent, acpAuth, acpSlow bool
	var f tui.Flags
	fs := cli.NewFlagSet("demo", stderr, demoUsage)
	fs.BoolVar(&acpAgent, "acp", false, "serve the demo ACP agent on stdio (for elicit acp and other ACP clients)")
	fs.BoolVar(&acpAuth, "acp-auth", false, "with --acp: require authenticate before session/new")
	fs.BoolVar(&acpSlow, "acp-slow", false, "with --acp: answer session/new and authenticate only after a minute (-32800 to $/cancel_request meanwhile)")
	fs.StringVar(&serve, "serve", "", "serve the demo instead of running the TUI: stdio or http")
	fs.StringVar(&addr, "addr", "127.0.0.1:3001", "listen address for --serve http")
	fs.BoolVar(&stateless, "stateless", false, "with --serve http: serve 2026-07-28 statelessly (go-sdk's stateless handler)")
	f.Register(fs)
	pos, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if f.Record != "" && (serve != "" || acpAgent) {
		return exit.Usagef("--record records a session elicit has with a server (the TUI, a headless command), not a server elicit serves")
	}
	if acpAgent {
		if serve != "" || len(pos) > 0 {
			return exit.Usagef("--acp serves the demo ACP agent on stdio and takes nothing else")
		}
		if err := acpagent.Serve(ctx, stdin, stdout, acpagent.Options{RequireAuth: acpAuth, SlowNew: slow(acpSlow), SlowAuth: slow(acpSlow)}); err != nil && ctx.Err() == nil {
			return fmt.Errorf("demo agent: %w", err)
		}
		return nil
	}
	opts := &demo.Options{Protocol: f.Protocol, Stateless: stateless}
	if serve != "" && f.Protocol != "" {
		if err := demo.CheckProtocol(f.Protocol); err != nil {
			return exit.Usagef("--protocol: %v", err)
		}
	}
	if stateless && serve != "http" {
		return exit.Usagef("--stateless goes with --serve http")
	}
	switch {
	case serve == "stdio" && len(pos) == 0:
		if err := demo.ServeIO(ctx, stdin, stdout, opts); err != nil && ctx.Err() == nil {
			return fmt.Errorf("demo server: %w", err)
		}
		return nil
	case serve == "http" && len(pos) == 0:
		mode := "stateful (2025-11-25 and older)"
		if stateless {
			mode = "stateless (2026-07-28)"
		}
		fmt.Fprintf(stderr, "elicit demo: serving Streamable HTTP, %s, on http://%s/mcp (ctrl+c to stop)\n", mode, addr)
		if err := demo.ServeHTTP(ctx, addr, opts); err != nil && !errors.Is(err, http.ErrServerClosed) && ctx.Err() == nil {
			return exit.Fail(exit.Connect, "demo server on %s: %w", addr, err)
		}
		return nil
	case serve != "" && serve != "stdio" && serve != "http":
		return exit.Usagef("bad --serve %q: want stdio or http", serve)
	case len(pos) > 0:
		return exit.Usagef("demo takes no arguments, got %q", pos[0])
	}
	if f.URL != "" || f.Config != "" {
		return exit.Usagef("elicit demo runs the embedded demo; use elicit --url or --config for other servers")
	}
	f.Demo = true
	return tui.Env{Version: version, Ask: terminalAsker(stdout)}.Run(ctx, &f, stdout, stderr)
}

// slow is the demo agent's delay for --acp-slow.
func slow(on bool) time.Duration {
	if on {
		return time.Minute
	}
	return 0
}
