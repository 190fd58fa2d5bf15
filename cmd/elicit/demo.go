package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
)

const demoUsage = `Usage:
  elicit demo [flags]                         the TUI against the embedded demo server
  elicit demo --serve stdio                   serve the demo over stdin/stdout
  elicit demo --serve http [--addr ADDR]      serve the demo over Streamable HTTP at http://ADDR/mcp
`

func runDemo(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var serve, addr string
	var f tuiFlags
	fs := newFlagSet("demo", stderr, demoUsage)
	fs.StringVar(&serve, "serve", "", "serve the demo instead of running the TUI: stdio or http")
	fs.StringVar(&addr, "addr", "127.0.0.1:3001", "listen address for --serve http")
	f.register(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	switch {
	case serve == "stdio" && len(pos) == 0:
		if err := demo.ServeIO(ctx, stdin, stdout, nil); err != nil && ctx.Err() == nil {
			return fmt.Errorf("demo server: %w", err)
		}
		return nil
	case serve == "http" && len(pos) == 0:
		fmt.Fprintf(stderr, "elicit demo: serving Streamable HTTP on http://%s/mcp (ctrl+c to stop)\n", addr)
		if err := demo.ServeHTTP(ctx, addr, nil); err != nil && !errors.Is(err, http.ErrServerClosed) && ctx.Err() == nil {
			return fail(exitConnect, "demo server on %s: %w", addr, err)
		}
		return nil
	case serve != "" && serve != "stdio" && serve != "http":
		return usageErr("bad --serve %q: want stdio or http", serve)
	case len(pos) > 0:
		return usageErr("demo takes no arguments, got %q", pos[0])
	}
	if f.url != "" || f.config != "" {
		return usageErr("elicit demo runs the embedded demo; use elicit --url or --config for other servers")
	}
	f.demo = true
	return runTUIWith(ctx, &f, stdout, stderr)
}
