package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/proxy"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport"
)

const proxyUsage = `Usage: elicit proxy [--session NAME] [--answer POLICY] [--sample …] [--elicit MODES] [--root PATH]
                    [--record FILE] [server flags] -- CMD ARGS...

Put in a host's config (Claude Desktop, Claude Code, Cursor, VS Code) in
place of the server's command: elicit speaks MCP with the host on its
stdin and stdout and runs the server (-- CMD ARGS, --url URL,
--config FILE --server NAME, or --demo: elicit's own demo server) as it
would for itself. Every frame goes
both ways unchanged in meaning and order, under the host's own ids.

What the host does not declare, elicit declares in its place and answers
itself: elicitation (the modes of --elicit, default both) by --answer
(accept-defaults, accept, decline, cancel or FILE.json, as elicit call),
sampling by --sample (decline, echo or FILE.json; off: not filled in),
roots with the --root paths (none given: not filled in). What the host
declares goes to the host, and elicit never answers it. In 2026-07-28
elicit completes the input_required rounds it answers and the host gets
the final result under its own id.

With --listen 127.0.0.1:PORT --url UPSTREAM the host speaks Streamable
HTTP to http://127.0.0.1:PORT/mcp instead, and each of its requests goes
to the upstream with the host's own headers (Mcp-Session-Id,
Last-Event-ID, Authorization…; to the upstream's origin only, no redirect
followed): its sessions, SSE streams and resumption pass through.
elicit's own OAuth is not used there.

With --session NAME the proxy joins the sessions hub (started as elicit
session start does): elicit session list shows it (proxy, its host's
name), and what elicit fills in waits there for a person, with no
timeout: elicit questions --session NAME, elicit answer KEY --session
NAME, or elicit attach NAME (the questions as panes, the traffic). An
--answer or --sample given still answers at once. elicit session stop
NAME ends the open questions abandoned; the proxy passes frames on and
answers cancel.

The host closing its end stops the server; the server going away closes
the host's end (exit 3). What elicit has to say (what it answered, the
host's violations as findings: docs/findings.md, the host- rules) and
the server's stderr (escaped) go to stderr; --record FILE keeps the
server's traffic and elicit's answers (docs/proxy.md).
`

func runProxy(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var c cli.Flags
	var answer string
	fs := cli.NewFlagSet("proxy", stderr, proxyUsage)
	c.Register(fs)
	c.RegisterConfig(fs)
	var listen, session string
	fs.StringVar(&session, "session", "", "join the sessions hub as NAME: the questions elicit fills in for the host wait there for a person (elicit attach NAME, elicit questions/answer --session NAME) unless --answer/--sample is given")
	fs.StringVar(&listen, "listen", "", "serve the host Streamable HTTP at http://ADDR/mcp (ADDR 127.0.0.1:PORT), forwarding to --url, instead of stdio")
	fs.StringVar(&answer, "answer", "accept-defaults", "how elicit answers the elicitations it fills in for the host: accept-defaults, accept, decline, cancel or FILE.json")
	before, after := cli.SplitDashDash(args)
	c.Command = after
	pos, err := cli.ParseInterleaved(fs, before)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return exit.Usagef("proxy takes no arguments, got %q (the server's command goes after --)", pos[0])
	}
	if c.Protocol != "" {
		return exit.Usagef("proxy: --protocol does not apply: the host chooses the protocol")
	}
	spec, err := c.Spec(false)
	if err != nil {
		return err
	}
	for _, w := range spec.Warnings {
		fmt.Fprintf(stderr, "elicit: warning: %s\n", untrusted.Line(w))
	}
	cfg, err := proxyFill(&c, answer, spec)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["session"] {
		if err := hub.CheckName(session); err != nil {
			return exit.Usagef("proxy: %v", err) // before a hub is started for it
		}
	}
	if listen != "" {
		if session != "" {
			return exit.Usagef("proxy: --session with --listen is not built yet (docs/proxy.md)")
		}
		return runProxyHTTP(ctx, &c, cfg, spec, listen, answer, stderr)
	}
	spec.Auth = serverspec.HeadlessAuth(stderr, c.AuthTimeout)
	rec, err := recording.Open(c.Record, version, c.RecordSettings("proxy", []serverspec.Server{spec}, c.URLWait, answer), serverspec.SecretsOf(stderr))
	if err != nil {
		return err
	}
	defer recording.Close(rec, c.Record, stderr)
	found := findings.NewRecorder(nil) // the server's (frames) and the host's
	notice := func(s string) { fmt.Fprintf(stderr, "elicit proxy: %s\n", untrusted.Line(s)) }
	w := &app.Wiring{Name: spec.Name, Version: version, Recorder: rec, Findings: found,
		OnStderr: func(line string) { fmt.Fprintf(stderr, "[%s] %s\n", spec.Name, untrusted.Line(line)) }}
	if session != "" {
		person, err := openProxySession(ctx, session, spec.Name, notice)
		if err != nil {
			return err
		}
		defer person.Close()
		// What no policy given answers, a person does.
		if !set["answer"] {
			cfg.Elicit = nil
		}
		if !set["sample"] {
			cfg.Sample, cfg.PersonSamples = nil, true
		}
		cfg.Person, cfg.OnHost = person, person.link.Host
		w.OnFrame = person.link.Frame
		notice(fmt.Sprintf("session %s in the hub: elicit attach %s, elicit questions --session %s", session, session, session))
	}
	t, err := spec.Transport(w.TransportObserver(), serverspec.SecretsOf(stderr))
	if err != nil {
		return err
	}
	dctx, cancel := context.WithTimeout(ctx, c.ConnectTimeout)
	server, err := t.Dial(dctx)
	cancel()
	if err != nil {
		return exit.Fail(exit.Connect, "proxy: start %s: %w", spec.Name, err)
	}
	cfg.Server = server
	// No closer: closing a blocking stdin does not end a read of it, and
	// the stream's Close would wait for that read. The host's end is
	// closed below, once the proxy is over; the read dies with the process.
	cfg.Host = transport.NewStream(stdin, stdout, nil, nil)
	cfg.Name = spec.Name
	if cfg.Elicit != nil { // the recording keeps elicit's answers
		cfg.Elicit = rec.Prompter(cfg.Elicit)
	}
	if cfg.Sample != nil {
		cfg.Sample = rec.Prompter(cfg.Sample)
	}
	cfg.Notice = notice
	cfg.Findings = found
	err = proxy.Run(ctx, cfg)
	if c, ok := stdout.(io.Closer); ok {
		_ = c.Close() // the host sees its server gone
	}
	for _, f := range found.All() {
		if f.Party == "" { // the host's were said as they came
			fmt.Fprintf(stderr, "elicit proxy: finding (the server's) %s: %s\n", f.Rule, untrusted.Line(f.Detail))
		}
	}
	if err != nil {
		return exit.Fail(exit.Connect, "proxy: %s: %w", spec.Name, err)
	}
	return nil
}

// proxyFill is what elicit fills in for the host, from the flags.
func proxyFill(c *cli.Flags, answer string, spec serverspec.Server) (proxy.Config, error) {
	var cfg proxy.Config
	modes, err := cli.ParseElicit(c.Elicit)
	if err != nil {
		return cfg, err
	}
	cfg.Modes = question.Modes{Form: modes == client.ElicitBoth || modes == client.ElicitForm,
		URL: modes == client.ElicitBoth || modes == client.ElicitURL}
	if cfg.Modes.Form || cfg.Modes.URL {
		if cfg.Elicit, err = cli.Policy(answer); err != nil {
			return cfg, err
		}
	}
	if _, cfg.Sample, err = cli.ParseSample(c.Sample); err != nil {
		return cfg, err
	}
	if len(spec.Roots) > 0 {
		b, err := json.Marshal(struct {
			Roots any `json:"roots"`
		}{spec.Roots})
		if err != nil {
			return cfg, fmt.Errorf("proxy: roots: %w", err)
		}
		cfg.Roots = b
	}
	return cfg, nil
}
