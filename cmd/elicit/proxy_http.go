package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/proxy"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport"
)

// runProxyHTTP is elicit proxy --listen: a Streamable HTTP endpoint for
// the host forwarding to the --url upstream, until ctx ends.
func runProxyHTTP(ctx context.Context, c *cli.Flags, cfg proxy.Config, spec serverspec.Server, listen, answer string, stderr io.Writer) error {
	if spec.URL == "" {
		return exit.Usagef("proxy --listen forwards to an HTTP server: give --url UPSTREAM")
	}
	if len(spec.Header) > 0 {
		return exit.Usagef("proxy --listen: the host's own headers go upstream; --header does not apply")
	}
	up, err := url.Parse(spec.URL)
	if err != nil {
		return exit.Usagef("bad --url: %v", err)
	}
	host, _, err := net.SplitHostPort(listen)
	if err != nil || (host != "127.0.0.1" && host != "localhost" && host != "::1") {
		return exit.Usagef("--listen %q: want 127.0.0.1:PORT (a local address: the host's headers pass through it)", listen)
	}
	rec, err := recording.Open(c.Record, version, c.RecordSettings("proxy", []serverspec.Server{spec}, c.URLWait, answer), serverspec.SecretsOf(stderr))
	if err != nil {
		return err
	}
	defer recording.Close(rec, c.Record, stderr)
	sec := serverspec.SecretsOf(stderr)
	if cfg.Elicit != nil {
		cfg.Elicit = rec.Prompter(cfg.Elicit)
	}
	if cfg.Sample != nil {
		cfg.Sample = rec.Prompter(cfg.Sample)
	}
	cfg.Name = spec.Name
	cfg.Findings = findings.NewRecorder(nil)
	cfg.Notice = func(s string) { fmt.Fprintf(stderr, "elicit proxy: %s\n", untrusted.Line(s)) }
	obs := serverspec.RedactObserver(transport.ObserverFuncs{OnFrame: func(f transport.Frame) { rec.Frame(spec.Name, f) }}, sec)
	hp := proxy.NewHTTP(ctx, proxy.HTTPConfig{Config: cfg, Upstream: up, OnFrame: func(in bool, raw []byte) {
		dir := transport.Out
		if in {
			dir = transport.In
		}
		obs.Frame(transport.Frame{Time: time.Now(), Dir: dir, Raw: append([]byte(nil), raw...)})
	}})
	l, err := net.Listen("tcp", listen)
	if err != nil {
		return exit.Fail(exit.Connect, "proxy --listen %s: %w", listen, err)
	}
	srv := &http.Server{Handler: hp, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "elicit proxy: the host's endpoint is http://%s/mcp, forwarding to %s\n", l.Addr(), untrusted.Line(up.Redacted()))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case <-ctx.Done():
	case err = <-done:
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	hp.Wait()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return exit.Fail(exit.Connect, "proxy --listen %s: %w", listen, err)
	}
	return nil
}
