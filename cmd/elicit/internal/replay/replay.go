package replay

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

const Usage = `Usage: elicit replay FILE [--json] [--recorded NAME] [flags] [-- CMD ARGS... | --url URL]

Runs the calls of a recording (elicit --record FILE, docs/record.md) again,
in order, against the recorded server or the one given, answers each
question as it was answered (a question is matched by its message and
schema, never its id), and reports what differs: results, errors,
question shapes, outcomes, a question that did not come or an extra one.
The session is set up as recorded (protocol, elicitation modes, sampling,
roots); --protocol, --elicit, --sample and --url-wait given override it.
Ids, timestamps, session ids, task ids and sealed request state differ
between runs by design and are not compared (the report lists them).
A recording of an ACP agent (elicit acp --record) starts the recorded
agent (or -- AGENT ARGS), sends each recorded prompt again, answers each
permission request and elicitation as recorded (matched by the tool
call's title and kind and the options' ids and kinds, or message and
schema) and compares the stopReason, the message text, the tool calls'
titles, kinds and statuses, and the questions.
A recording is shared data: a server's or agent's command, or a URL,
named only in the file is run when you name the server instead
(-- CMD ARGS..., --url URL, --demo, --config FILE --server NAME), confirm
it on a terminal (it is shown whole first), or pass
--trust-recorded-command; else replay exits 2 and runs nothing. So are
the recording's roots offered to a server you name (--root replaces
them) and an agent's session cwd other than this directory. A recorded
allow of an agent's tool call that may change things (any kind but read,
search, think) is answered so only with your word (y on a terminal, or
--trust-recorded-command); else it is rejected and reported. The
embedded demo server and demo agent are elicit's own code.
Exit codes: 0 everything matched, 6 something differs, 2 usage (or what
the recording names was not confirmed), 3 the server could not be reached.
`

// replayWait bounds how long a replay waits for something the recording
// says happened by itself (a question the server withdrew, a timeout),
// and for the last outcomes of a call to be reported.
const replayWait = 30 * time.Second

// Env is what elicit replay gets from the binary.
type Env struct {
	// Version is elicit's: the replayed sessions' clientInfo and the
	// --record header.
	Version string
}

// Run is elicit replay.
func (e Env) Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var c cli.Flags
	var asJSON bool
	var only string
	var wait time.Duration
	var trusted bool
	fs := cli.NewFlagSet("replay", stderr, Usage)
	c.Register(fs)
	c.RegisterConfig(fs)
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fs.StringVar(&only, "recorded", "", "replay only the calls of this recorded server (needed with a server given when the recording has several)")
	fs.BoolVar(&trusted, "trust-recorded-command", false, trustFlagUsage)
	fs.DurationVar(&wait, "wait", replayWait, "how long to wait for what the recording says the server did by itself (withdrew a question), and for a call's outcomes")
	before, after := cli.SplitDashDash(args)
	c.Command = after
	pos, err := cli.ParseInterleaved(fs, before)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return exit.Usagef("replay needs exactly one FILE (see elicit replay -h)")
	}
	if wait <= 0 {
		return exit.Usagef("--wait must be positive")
	}
	rec, err := record.ReadFile(pos[0])
	if err != nil {
		return exit.Usagef("%v", err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	protocolSet := set["protocol"]
	// The session is set up as recorded; a flag given says otherwise.
	if set["elicit"] {
		if _, err := cli.ParseElicit(c.Elicit); err != nil {
			return err
		}
		rec.Settings.Elicit = c.Elicit
	}
	if set["sample"] {
		if _, _, err := cli.ParseSample(c.Sample); err != nil {
			return err
		}
		rec.Settings.Sampling = c.Sample
	}
	if set["url-wait"] {
		rec.Settings.URLWaitMS = c.URLWait.Milliseconds()
	}
	gate := replayGate(pos[0], trusted, stdin, stderr)
	if len(rec.Settings.Agents) > 0 && len(rec.Settings.Servers) == 0 {
		// An ACP session (elicit acp --record): acp.go.
		return runReplayACP(ctx, rec, acpReplayOptions{version: e.Version, file: pos[0], command: c.Command, record: c.Record, asJSON: asJSON, wait: wait, gate: gate}, stdout, stderr)
	}
	targets, err := replayTargets(rec, &c, only, protocolSet)
	if err != nil {
		return err
	}
	// The agents beside the servers (elicit demo's TUI), as recorded;
	// those the session used only. Replayed after the servers' calls.
	agentSpecs, agentDemos, err := replayAgentsAsRecorded(rec)
	if err != nil {
		return err
	}
	for _, spec := range agentSpecs {
		serverspec.SecretsOf(stderr).Add(spec.SecretValues()...)
	}
	launches := append(serverLaunches(targets), agentLaunches(rec, agentSpecs, agentDemos, false)...)
	if err := gate.Allow(ctx, launches); err != nil {
		return err
	}
	permits, err := agentPermits(ctx, gate, rec, agentDemos, false)
	if err != nil {
		return err
	}
	rep := &Report{File: pos[0], Ignored: volatileRules(), Truncated: rec.End == nil}
	r := &replayer{version: e.Version, rec: rec, c: &c, wait: wait, stderr: stderr, findings: findings.NewRecorder(nil)}
	// --record records the replay itself (to see what a red one did).
	var specs []serverspec.Server
	for _, t := range targets {
		specs = append(specs, t.spec)
	}
	slices.SortFunc(specs, func(a, b serverspec.Server) int { return strings.Compare(a.Name, b.Name) })
	if r.out, err = recording.Open(c.Record, e.Version, c.RecordSettings("replay", specs, 0, ""), serverspec.SecretsOf(stderr)); err != nil {
		return err
	}
	defer recording.Close(r.out, c.Record, stderr)
	r.connect(ctx, targets)
	defer r.close(targets)
	for _, t := range targets {
		rep.Servers = append(rep.Servers, t.summary())
	}
	for _, call := range rec.Calls {
		t := targets[call.Server]
		if t == nil {
			continue // a server not replayed (--recorded)
		}
		rep.Calls = append(rep.Calls, r.replay(ctx, t, call))
		if ctx.Err() != nil {
			break
		}
	}
	r.close(targets)
	rep.Unattached = r.unattached(targets)
	rep.Findings = headless.FindingsOf(r.findings)
	if len(agentSpecs) > 0 && ctx.Err() == nil {
		set := startACPReplay(ctx, e.Version, rec, agentSpecs, permits, r.out, wait, stderr)
		rep.Servers = append(rep.Servers, set.servers...)
		rep.Calls = append(rep.Calls, set.run(ctx)...)
		set.close()
		rep.Unattached = append(rep.Unattached, set.unattached()...)
		slices.SortStableFunc(rep.Calls, func(a, b callReport) int { return cmp.Compare(a.Call, b.Call) })
		rep.Ignored = append(rep.Ignored, acpVolatileRules()...)
	}
	return rep.end(ctx, pos[0], asJSON, rep.print, stdout)
}

// end totals the report, prints it (as JSON, or by print) and says how
// the replay of file ended: interrupted, a server or agent that could not
// be reached, differences, or all matched.
func (r *Report) end(ctx context.Context, file string, asJSON bool, print func(io.Writer), stdout io.Writer) error {
	r.finish()
	if asJSON {
		if err := headless.WriteJSON(stdout, r); err != nil {
			return err
		}
	} else {
		print(stdout)
	}
	if ctx.Err() != nil {
		return exit.Fail(exit.Internal, "replay interrupted")
	}
	for _, s := range r.Servers {
		if s.Error != "" {
			return exit.Fail(exit.Connect, "replay of %s: %s: %s", file, s.Name, s.Error)
		}
	}
	if !r.Match {
		return exit.Fail(exit.Differs, "replay of %s: %d difference(s)", file, r.Differences)
	}
	return nil
}

// replayTarget is one recorded server and where it is replayed.
type replayTarget struct {
	recorded record.Server
	spec     serverspec.Server
	protocol string // the session's (spec.Protocol also pins a demo)
	sess     *client.Session
	err      error
	prompter *replayPrompter
	// fromFile: the recording alone names what is started or connected
	// to (not the demo, not a server the person gave); rootsFromFile: the
	// server the person gave is offered the recording's roots
	// (trust.go).
	fromFile, rootsFromFile bool
}

func (t *replayTarget) summary() replayServer {
	s := replayServer{Name: t.recorded.Name, Against: t.spec.Describe()}
	if t.err != nil {
		s.Error = t.err.Error()
	} else if t.sess != nil {
		s.Protocol = t.sess.Protocol()
	}
	return s
}

// replayTargets decides where each recorded server is replayed: the
// server the flags give (one recorded server only), or the recorded one.
func replayTargets(rec *record.Recording, c *cli.Flags, only string, protocolSet bool) (map[string]*replayTarget, error) {
	servers := rec.Settings.Servers
	if only != "" {
		i := slices.IndexFunc(servers, func(s record.Server) bool { return s.Name == only })
		if i < 0 {
			return nil, exit.Usagef("--recorded %s: the recording has no such server (it has %s)", only, recordedNames(servers))
		}
		servers = servers[i : i+1]
	}
	if len(servers) == 0 {
		return nil, exit.Usagef("the recording names no server")
	}
	given := c.URL != "" || len(c.Command) > 0 || c.Demo || c.Config != "" || c.Server != ""
	if given && len(servers) > 1 {
		return nil, exit.Usagef("the recording has %d servers (%s): say which the given server stands for with --recorded NAME", len(servers), recordedNames(servers))
	}
	out := map[string]*replayTarget{}
	for _, rs := range servers {
		var spec serverspec.Server
		var err error
		rootsFromFile := false
		if given {
			spec, err = c.Spec(false)
			if len(spec.Roots) == 0 {
				spec.Roots = recordedRoots(rs)
				rootsFromFile = len(spec.Roots) > 0 && !spec.Demo
			}
		} else {
			spec, err = specOfRecorded(rs)
		}
		if err != nil {
			return nil, err
		}
		spec.Name = rs.Name // the calls name it so
		// A pinned server (the TUI's demo per era) is pinned again; the
		// session speaks the version it spoke, --protocol over both.
		spec.Protocol = rs.Protocol
		protocol := cmpOr(rs.Protocol, rec.Settings.Protocol)
		if protocolSet {
			spec.Protocol, protocol = c.Protocol, c.Protocol
		}
		out[rs.Name] = &replayTarget{recorded: rs, spec: spec, protocol: protocol, fromFile: !given && !spec.Demo, rootsFromFile: rootsFromFile}
	}
	return out, nil
}

func recordedNames(servers []record.Server) string {
	var names []string
	for _, s := range servers {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

func recordedRoots(rs record.Server) []client.Root {
	var roots []client.Root
	for _, u := range rs.Roots {
		roots = append(roots, client.Root{URI: u})
	}
	return roots
}

// specOfRecorded is the recorded server itself. What the recording
// masked cannot be had from it: a masked argument or URL asks for the
// server to be given; environment variables are taken from this
// process's environment by the names recorded.
func specOfRecorded(rs record.Server) (serverspec.Server, error) {
	s := serverspec.Server{Name: rs.Name, Protocol: rs.Protocol, Roots: recordedRoots(rs)}
	switch rs.Kind {
	case "demo":
		s.Demo = true
	case "stdio":
		if slices.Contains(rs.Args, serverspec.Masked) || strings.Contains(strings.Join(rs.Args, " "), serverspec.Masked) {
			return s, exit.Usagef("the recorded command of %s has a masked (secret) argument: give the server with -- CMD ARGS...", rs.Name)
		}
		s.Command, s.Args, s.Dir = rs.Command, rs.Args, rs.Dir
		for _, name := range rs.EnvNames {
			if v, ok := os.LookupEnv(name); ok {
				s.Env = append(s.Env, name+"="+v)
			}
		}
	case "http", "sse":
		if strings.Contains(rs.URL, serverspec.Masked) || len(rs.HeaderNames) > 0 {
			return s, exit.Usagef("the recorded URL of %s had secrets (masked query values, a password or headers %s): give it with --url URL [--header …]", rs.Name, strings.Join(rs.HeaderNames, ", "))
		}
		s.URL, s.LegacySSE = rs.URL, rs.Kind == "sse"
	default:
		return s, exit.Usagef("recorded server %s is of kind %q, which this elicit cannot start: give it with -- CMD or --url", rs.Name, rs.Kind)
	}
	return s, nil
}

// replayer runs a recording's calls again.
type replayer struct {
	version string // elicit's
	rec     *record.Recording
	out     *record.Recorder // --record of the replay (nil: none)
	// findings are the server's spec violations the replayed sessions
	// noticed, as the live ones do.
	findings *findings.Recorder
	c        *cli.Flags
	wait     time.Duration
	stderr   io.Writer
}

// connect starts a session to every target, with the recorded settings.
func (r *replayer) connect(ctx context.Context, targets map[string]*replayTarget) {
	st := r.rec.Settings
	modes, err := cli.ParseElicit(st.Elicit)
	if err != nil {
		modes = client.ElicitBoth
	}
	sampling := client.SamplingOn
	if st.Sampling == "off" {
		sampling = client.SamplingOff
	}
	urlWait := time.Duration(st.URLWaitMS) * time.Millisecond
	if urlWait <= 0 {
		urlWait = min(r.wait, 10*time.Second)
	}
	names := make([]string, 0, len(targets))
	for n := range targets {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		t := targets[name]
		t.prompter = newReplayPrompter(r.wait)
		for _, a := range r.rec.Answers {
			if a.Call == 0 && a.Server == name {
				t.prompter.addOutside(a)
			}
		}
		t.spec.Auth = serverspec.HeadlessAuth(r.stderr, r.c.AuthTimeout)
		roots := t.spec.Roots
		if roots == nil && (st.Command == "tui" || st.Command == "demo") {
			roots = []client.Root{} // the TUI always declares roots
		}
		w := &app.Wiring{
			Name:           name,
			Version:        r.version,
			Protocol:       t.protocol,
			Elicit:         modes,
			Roots:          roots,
			Sampling:       sampling,
			Prompter:       t.prompter,
			Observer:       t.prompter,
			Recorder:       r.out,
			Findings:       r.findings,
			URLWait:        urlWait,
			ConnectTimeout: r.c.ConnectTimeout,
			RequestTimeout: r.c.RequestTimeout,
			OnStderr:       func(line string) { fmt.Fprintf(r.stderr, "[%s] %s\n", name, untrusted.Line(line)) },
		}
		tr, err := t.spec.Transport(w.TransportObserver(), serverspec.SecretsOf(r.stderr))
		if err != nil {
			t.err = err
			continue
		}
		t.sess, t.err = w.Connect(ctx, tr)
	}
}

// close ends every session (idempotent): their last outcomes are in.
func (r *replayer) close(targets map[string]*replayTarget) {
	for _, t := range targets {
		if t.sess != nil {
			t.sess.Close()
		}
	}
}

// answersOf is what the recording answered to the questions of call.
func answersOf(rec *record.Recording, call record.RecordedCall) []record.Answer {
	var out []record.Answer
	for _, a := range rec.Answers {
		if a.Call == call.Call.Call && a.Server == call.Server {
			out = append(out, a)
		}
	}
	return out
}

// replay makes one recorded call again and compares how it went.
func (r *replayer) replay(ctx context.Context, t *replayTarget, call record.RecordedCall) callReport {
	out := callReport{Call: call.Call.Call, Server: call.Server, Method: call.Method, Name: callName(call.Call)}
	if t.err != nil {
		out.add(Difference{What: "server", Text: "not connected: " + t.err.Error()})
		return out.done()
	}
	expected := answersOf(r.rec, call)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t.prompter.begin(expected, cancel)
	rc := r.out.Begin(call.Server, call.Method, out.Name, call.Params, call.AsTask)
	result, skip, err := runRecordedCall(cctx, t.sess, call.Call)
	rc.End(result, err)
	// Compared as a recording holds it: with the run's secrets masked
	// (a server that echoes a header is recorded masked).
	result, err = maskedResult(serverspec.SecretsOf(r.stderr), result), serverspec.SecretsOf(r.stderr).Error(err)
	seen := t.prompter.end(ctx)
	if skip != "" {
		out.Status, out.Note = "skipped", skip
		return out
	}
	for _, d := range compareQuestions(expected, seen) {
		out.add(d)
	}
	var recQs, nowQs []*record.Question
	for _, a := range expected {
		recQs = append(recQs, a.Question)
	}
	for _, s := range seen {
		nowQs = append(nowQs, s.q)
	}
	if call.Result != nil && call.Result.Error != nil && call.Result.Error.Closed {
		out.Note = "the recorded session was closed before this call ended: how it ends is not compared"
		return out.done()
	}
	for _, d := range compareResult(call.Result, result, err, questionVolatiles(recQs), questionVolatiles(nowQs)) {
		out.add(d)
	}
	return out.done()
}

// unattached reports the recorded answers that belonged to no call and
// did not come again.
func (r *replayer) unattached(targets map[string]*replayTarget) []Difference {
	var out []Difference
	for _, a := range r.rec.Answers {
		if a.Call != 0 || targets[a.Server] == nil {
			continue
		}
		if !targets[a.Server].prompter.cameOutside(a) {
			out = append(out, Difference{What: "question missing", Text: fmt.Sprintf("%s (asked outside any call) did not come again", describeQuestion(a.Question))})
		}
	}
	return out
}
