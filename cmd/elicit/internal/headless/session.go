package headless

import (
	"context"
	"flag"
	"io"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport/redact"
)

// A session of the session hub is opened here (OpenSession), as connect
// opens a one-shot command's, from the command line of elicit session
// start; a headless command given --session NAME runs in the hub, where
// connect hands it that session (kept) instead of starting a server.

// CheckStart checks session start's command line where it is typed: a
// usage error needs no hub. The server is named, never looked for: a
// config's --server needs its --config.
func (e Env) CheckStart(args []string, usage string, stderr io.Writer) error {
	var apps bool
	r, err := e.parse("session", usage, args, stderr, withLogLevel, appsFlag(&apps))
	if err != nil {
		return err
	}
	if err := r.startable(); err != nil {
		return err
	}
	_, err = r.flags.Spec(true)
	return err
}

// appsFlag is session start's --apps, into apps: the session declares
// the MCP Apps extension, so that elicit app --session hosts its apps
// (app.go). Only when asked: a server may answer a client that declares
// it with an app where it would else send text.
func appsFlag(apps *bool) func(*flag.FlagSet) {
	return func(fs *flag.FlagSet) {
		fs.BoolVar(apps, "apps", false, "declare MCP Apps (io.modelcontextprotocol/ui), for elicit app --session")
	}
}

// startable refuses what session start does not take.
func (r *run) startable() error {
	if len(r.pos) > 0 {
		return exit.Usagef("session start takes one NAME, then flags; got %q too", r.pos[0])
	}
	if r.session != "" {
		return exit.Usagef("session start takes no --session (its NAME comes first)")
	}
	if r.flags.Server != "" && r.flags.Config == "" {
		return exit.Usagef("session start --server needs --config FILE (a session's server is named, never looked for)")
	}
	if err := r.flags.CheckOne(); err != nil {
		return err
	}
	if r.logLevel != "" && !slices.Contains(wire.LogLevels(), r.logLevel) {
		return exit.Usagef("bad --log-level %q: want one of %s (RFC 5424, lowest first)", r.logLevel, strings.Join(wire.LogLevels(), ", "))
	}
	return nil
}

// OpenSession opens a session of the hub from elicit session start's
// command line (p.Args), where the caller stands: a stdio server runs in
// the caller's folder with the caller's environment, and dies with the
// hub. Its stderr and notes go to log, masked with the session's own
// secrets, which every command run on it masks too.
func (e Env) OpenSession(ctx context.Context, p hub.StartParams, h hub.Hooks, usage string, log io.Writer) (*hub.Opened, error) {
	sec := redact.NewSecrets()
	errw := sec.Writer(log)
	var apps bool
	r, err := e.parse("session", usage, p.Args, errw, withLogLevel, appsFlag(&apps))
	if err == nil {
		r.appsUI = apps
		err = r.startable()
	}
	if err != nil {
		errw.Flush()
		return nil, err
	}
	r.prompter, r.observer = h.Prompter, h.Observer
	if e.Tap != nil {
		r.tap = *e.Tap
	}
	r.sec = sec
	r.hubSpec = func(s *serverspec.Server) {
		if s.Command != "" {
			if s.Dir == "" {
				s.Dir = p.Cwd
			}
			s.Env = append(slices.Clone(p.Env), s.Env...)
		}
		if r.tap.Spec != nil {
			r.tap.Spec(*s, r.sec)
		}
	}
	if err := r.connect(ctx); err != nil {
		errw.Flush()
		return nil, err
	}
	return &hub.Opened{Client: r.sess, Findings: r.findings, Recorder: r.rec, Pid: r.sess.Details().Conn.Pid, Secrets: sec, Apps: r.appsUI,
		Close: func() { r.close(); errw.Flush() }}, nil
}

// kept is connect in the hub: the session kept there, its findings and
// recording. A command on it names no server of its own.
func (r *run) kept(k *hub.Session) error {
	if err := r.noServer(k.Name); err != nil {
		return err
	}
	if err := k.Err(); err != nil {
		return exit.Fail(exit.Connect, "%w", err)
	}
	r.sess, r.findings, r.rec = k.Client(), k.Findings(), k.Recorder()
	r.close = func() {} // the session outlives the command
	return nil
}

// noServer refuses a server named beside --session NAME.
func (r *run) noServer(session string) error {
	c := &r.flags
	if c.URL != "" || c.Demo || len(c.Command) > 0 || c.Config != "" || c.Server != "" {
		return exit.Usagef("--session %s runs on the session's server: give no server (-- CMD, --url, --demo, --config, --server)", session)
	}
	if c.Record != "" {
		return exit.Usagef("--record on a session: give it to elicit session start, which records the whole session")
	}
	return nil
}

// hubCallOptions tie a tool call of a command running in the hub to its
// hub call (its questions are then known as the call's); nil elsewhere.
func hubCallOptions(ctx context.Context) *client.CallOptions {
	if hc := hub.CallFrom(ctx); hc != nil {
		return &client.CallOptions{OnID: hc.OnID}
	}
	return nil
}

// flagGiven says whether name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
