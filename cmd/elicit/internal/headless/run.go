package headless

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/redact"
)

// Env is what the headless commands get from the binary; its methods
// are the commands (Tools, Call, Ping…), as the command table runs them.
type Env struct {
	// Version is elicit's, for the handshake and a recording's header.
	Version string
	// Tap, when set, also gets what a session of the hub does
	// (OpenSession): cmd/elicit keeps it for elicit attach's TUI.
	Tap *SessionTap
}

// SessionTap is told what a session of the hub does besides what the
// hub itself hears (its questions and events, hub.Hooks): the server's
// spec once it is settled and the session's secrets (before it
// connects), the transport's frames, the server's stderr lines, and word
// that its findings moved. Any may be nil.
type SessionTap struct {
	Spec            func(serverspec.Server, *redact.Secrets)
	OnFrame         func(transport.Frame)
	OnStderr        func(string)
	FindingsChanged func()
}

// run is one headless command's run: what parse read of its command line,
// then what connect made of it. Every headless command goes through
// these two, so a new one is its own flags and its body.
type run struct {
	env    Env
	name   string // the command, as a recording names it
	flags  cli.Flags
	pos    []string // the positional arguments, for the command to check
	stderr io.Writer
	// logLevel is --log-level, when the command takes it.
	logLevel string
	// session is --session NAME: this process forwards the command to
	// the session hub (cmd/elicit), where connect hands it the kept
	// session (session.go).
	session string

	// Set by the command before connect, when it needs them.
	prompter question.Prompter // answers the questions (nil: all cancelled, nobody is there)
	answer   string            // the --answer policy, noted in a recording
	observer client.Observer   // hears the session's events
	appsUI   bool              // a host renders the session's MCP Apps (app.go)
	// hubSpec, for a session of the hub (OpenSession): where the caller
	// stands, applied to the server's spec; the server dies with the hub.
	hubSpec func(*serverspec.Server)
	// tap, for a session of the hub: what its TUI is also given; sec,
	// that session's secrets.
	tap SessionTap
	sec *redact.Secrets

	// Set by connect.
	sess        *client.Session
	rec         *record.Recorder   // the recording (nil: none)
	findings    *findings.Recorder // the server's spec violations
	logLevelOut *LogLevelOutput    // what became of --log-level
	close       func()             // ends the session, then the recording; more than once is fine
	// toolsKnown says the session has listed the tools already (a kept
	// session can: kept): its results are judged against their
	// outputSchema with no tools/list of the command's own (call).
	toolsKnown bool
}

// withLogLevel says a command takes --log-level.
const withLogLevel = true

// parse reads a headless command's command line: the flags naming the
// server and those of the session, --config and --server, --log-level
// when logLevel, the command's own (own, nil for none), before or after
// the positional arguments; what follows "--" is the server's command.
func (e Env) parse(name, usage string, args []string, stderr io.Writer, logLevel bool, own func(*flag.FlagSet)) (*run, error) {
	r := &run{env: e, name: name, stderr: stderr}
	fs := cli.NewFlagSet(name, stderr, usage)
	r.flags.Register(fs)
	r.flags.RegisterConfig(fs)
	if logLevel {
		fs.StringVar(&r.logLevel, "log-level", "", logLevelFlagUsage)
	}
	fs.StringVar(&r.session, "session", "", "run on the session NAME (elicit session start): no server started, no handshake")
	if own != nil {
		own(fs)
	}
	before, after := cli.SplitDashDash(args)
	r.flags.Command = after
	pos, err := cli.ParseInterleaved(fs, before)
	if err != nil {
		return nil, err
	}
	r.pos = pos
	return r, nil
}

// noArgs refuses positional arguments, for a command that takes none.
func (r *run) noArgs() error {
	if len(r.pos) > 0 {
		return exit.Usagef("%s takes no arguments, got %q", r.name, r.pos[0])
	}
	return nil
}

// connect is the one place a headless command gets its session: it
// starts the server the flags name and connects through app.Wiring,
// with the recording (--record), the findings, the prompter, the
// observers and the server's stderr (passed through to ours, so a
// failing server explains itself), then sends --log-level.
func (r *run) connect(ctx context.Context) error {
	if k := hub.SessionFrom(ctx); k != nil {
		return r.kept(k) // session.go
	}
	if r.session != "" {
		return exit.Fail(exit.Internal, "--session %s reached a command outside the session hub", r.session)
	}
	c := &r.flags
	if err := c.CheckOne(); err != nil {
		return err
	}
	if r.logLevel != "" && !slices.Contains(wire.LogLevels(), r.logLevel) {
		return exit.Usagef("bad --log-level %q: want one of %s (RFC 5424, lowest first)", r.logLevel, strings.Join(wire.LogLevels(), ", "))
	}
	spec, err := c.Spec(true)
	if err != nil {
		return err
	}
	if r.hubSpec != nil {
		r.hubSpec(&spec)
	}
	stderr := r.stderr
	for _, w := range spec.Warnings {
		fmt.Fprintf(stderr, "elicit: warning: %s\n", untrusted.Line(w))
	}
	spec.Auth = serverspec.HeadlessAuth(stderr, c.AuthTimeout)
	r.findings = findings.NewRecorder(r.tap.FindingsChanged)
	rec, err := recording.Open(c.Record, r.env.Version, c.RecordSettings(r.name, []serverspec.Server{spec}, c.URLWait, r.answer), serverspec.SecretsOf(stderr))
	if err != nil {
		return err
	}
	r.rec = rec
	var once sync.Once
	closeRec := func() { once.Do(func() { recording.Close(rec, c.Record, stderr) }) }
	modes, _ := cli.ParseElicit(c.Elicit)
	sampling, sampler, err := cli.ParseSample(c.Sample)
	if err != nil {
		closeRec()
		return err
	}
	prompter := r.prompter
	if prompter == nil {
		prompter = question.CancelAll
	}
	var obs client.Observer = headlessObserver{name: spec.Name, stderr: stderr, next: r.observer}
	if r.logLevel != "" {
		obs = logPrinter{name: spec.Name, stderr: stderr, next: obs} // loglevel.go
	}
	w := &app.Wiring{
		Name:           spec.Name,
		Version:        r.env.Version,
		Protocol:       c.Protocol,
		Elicit:         modes,
		Roots:          spec.Roots, // declared only when some were given
		Sampling:       sampling,
		AppsUI:         r.appsUI,
		Prompter:       question.Route{question.KindElicitation: prompter, question.KindSampling: sampler},
		Observer:       obs,
		Recorder:       rec,
		Findings:       r.findings,
		URLWait:        c.URLWait,
		PromptTimeout:  c.PromptTimeout,
		ConnectTimeout: c.ConnectTimeout,
		RequestTimeout: c.RequestTimeout,
		OnStderr: func(line string) {
			fmt.Fprintf(stderr, "[%s] %s\n", spec.Name, untrusted.Line(line))
			if r.tap.OnStderr != nil {
				r.tap.OnStderr(line)
			}
		},
		OnFrame: r.tap.OnFrame,
	}
	t, err := spec.Transport(w.TransportObserver(), serverspec.SecretsOf(stderr))
	if err != nil {
		closeRec()
		return err
	}
	if st, ok := t.(*transport.Stdio); ok && r.hubSpec != nil {
		st.DieWithParent = true // no server outlives the hub
	}
	sess, err := w.Connect(ctx, t)
	if err != nil {
		closeRec()
		return exit.Fail(exit.Connect, "%w", err) // "connect to NAME: …", naming the command or URL where it failed
	}
	r.sess = sess
	r.logLevelOut = applyLogLevel(ctx, r.logLevel, r.rec, sess, stderr)
	// The recording is closed after the session: closing it settles the
	// open questions, whose answers are recorded.
	r.close = func() { sess.Close(); closeRec() }
	return nil
}
