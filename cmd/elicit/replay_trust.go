package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport/redact"
)

// A recording is data people share (bug reports, pull requests, CI
// fixtures). So a replay starts a command, or connects to a URL, that is
// named only inside the file when the person says so: by naming the
// server (-- CMD, --url, --demo, --config FILE --server NAME; -- AGENT
// for an agent), by confirming what the file names, shown whole, on a
// terminal, or with --trust-recorded-command. Otherwise it exits 2, saying
// how, before anything runs. The embedded demo server and demo agent are
// elicit's own code: a recording naming them runs nothing of the file's.

// trustFlagUsage is --trust-recorded-command in elicit replay -h.
const trustFlagUsage = "run the servers' and agents' commands, and connect to the URLs, that the recording names (a recording is shared data: without this, replay asks on a terminal, or refuses)"

// recordedLaunch is what a replay would start, or connect to, that only
// the recording names.
type recordedLaunch struct {
	what, name string // "server" or "agent", and its recorded name
	command    string // a stdio command and its arguments
	args       []string
	url        string // an HTTP server
	legacySSE  bool
	dir        string   // where the command runs
	env        []string // the variables it was recorded with, by name
	envByFile  []string // the variables the file sets, by name (a config's)
	headers    []string // the HTTP headers the file sets, by name
	extra      []string // more of what it does with the person's (a config's oauth files)
	cwd        string   // an agent's session directory
	allowFS    bool     // the agent may read and write files under cwd
	// roots are offered to the server: where it may work (a filesystem
	// server takes them for its allowed directories).
	roots []string
	// whose, when set, says the server or agent is not the file's (the
	// person named it, or it is elicit's demo agent): only where it works
	// (roots, cwd, allowFS) is.
	whose string
}

// launchOfServer is s, started as the recording names it; envNames are
// the variables it was recorded with.
func launchOfServer(s serverSpec, envNames []string) recordedLaunch {
	l := recordedLaunch{what: "server", name: s.Name, command: s.Command, args: s.Args, url: s.URL, legacySSE: s.LegacySSE, dir: s.Dir, env: envNames}
	for _, r := range s.Roots {
		l.roots = append(l.roots, r.URI)
	}
	return l
}

func launchOfAgent(s agentSpec, ra record.Agent, cwd string) recordedLaunch {
	return recordedLaunch{what: "agent", name: s.Name, command: s.Command, args: s.Args, dir: s.Dir, env: ra.EnvNames, cwd: cwd, allowFS: ra.AllowFS}
}

// serverLaunches are what the replay of targets starts, or offers,
// that only the recording names, in the order of their names.
func serverLaunches(targets map[string]*replayTarget) []recordedLaunch {
	var out []recordedLaunch
	for _, name := range slices.Sorted(maps.Keys(targets)) {
		switch t := targets[name]; {
		case t.fromFile:
			out = append(out, launchOfServer(t.spec, t.recorded.EnvNames))
		case t.rootsFromFile:
			out = append(out, recordedLaunch{what: "server", name: name, whose: namedWhose, roots: t.recorded.Roots})
		}
	}
	return out
}

// agentLaunches are what of the recording's agents (specs[i] stands for
// agent i; demos[i]: elicit's demo agent) only the recording names: a
// command, unless named (the person gave -- AGENT), and a session cwd
// elsewhere.
func agentLaunches(rec *record.Recording, specs []agentSpec, demos []bool, named bool) []recordedLaunch {
	var out []recordedLaunch
	for i, ra := range rec.Settings.Agents {
		whose := namedWhose
		switch {
		case demos[i]:
			whose = demoAgentWhose
		case !named:
			l := launchOfAgent(specs[i], ra, agentCwd(rec, ra))
			l.extra = append(l.extra, recordedAllows(rec, ra.Name)...) // replay_permit.go
			out = append(out, l)
			continue
		}
		if l, ok := agentElsewhere(ra.Name, whose, agentCwd(rec, ra), ra.AllowFS); ok {
			out = append(out, l)
		}
	}
	return out
}

// agentCwd is where the replay opens ra's session: the first prompt's
// recorded cwd (acpReplayer.turn), else the agent's.
func agentCwd(rec *record.Recording, ra record.Agent) string {
	for _, c := range rec.Calls {
		if c.Server != ra.Name || c.Method != app.PromptMethod {
			continue
		}
		var p app.PromptParams
		_ = decodeParams(c.Params, &p)
		return cmpOr(p.Cwd, ra.Cwd, ".")
	}
	return cmpOr(ra.Cwd, ".")
}

// lines is the launch as the person is shown it: every argument, quoted
// as a shell would need it (so a space or an empty argument shows), and
// all of it through untrusted, since it is the file's content.
func (l recordedLaunch) lines() []string {
	head := fmt.Sprintf("%s %q", l.what, l.name)
	var out []string
	switch {
	case l.whose != "":
		out = append(out, fmt.Sprintf("%s (%s), as the recording says:", head, l.whose))
	case l.url != "":
		how := "connects to"
		if l.legacySSE {
			how = "connects (HTTP+SSE) to"
		}
		// Where it goes, not what it carries: a URL's user info and query
		// values (a password, an API key) are masked as everywhere else.
		out = append(out, fmt.Sprintf("%s %s: %s", head, how, shownURL(l.url)))
	default:
		cmd := []string{shellQuote(l.command)}
		for _, a := range l.args {
			cmd = append(cmd, shellQuote(a))
		}
		out = append(out, fmt.Sprintf("%s runs: %s", head, strings.Join(cmd, " ")))
	}
	if l.dir != "" {
		out = append(out, "  in the directory "+shellQuote(l.dir))
	}
	if len(l.env) > 0 {
		// A command inherits elicit's environment: these are its values
		// here, which the recording never had.
		out = append(out, "  in this environment; recorded with "+strings.Join(l.env, ", ")+" set (values not shown)")
	}
	if len(l.envByFile) > 0 {
		out = append(out, "  with "+strings.Join(l.envByFile, ", ")+" set as the file says (values not shown)")
	}
	if len(l.headers) > 0 {
		out = append(out, "  with the headers "+strings.Join(l.headers, ", ")+" (values not shown)")
	}
	for _, e := range l.extra {
		out = append(out, "  "+e)
	}
	if len(l.roots) > 0 {
		s := "  offered the roots " + strings.Join(l.roots, ", ")
		if l.whose != "" {
			s += " (--root replaces them)"
		}
		out = append(out, s)
	}
	if l.cwd != "" {
		out = append(out, "  its session in "+shellQuote(l.cwd))
	}
	if l.allowFS {
		out = append(out, "  allowed to read and write files there (--allow-fs as recorded)")
	}
	for i, s := range out {
		out[i] = untrusted.Line(s)
	}
	return out
}

// agentElsewhere is what of an agent the person named, or of the demo
// agent, the recording decides: a session cwd other than this directory
// (where the agent works, and with allowFS where it reads and writes
// files through elicit). The demo agent touches files only with allowFS.
// ok false: nothing.
func agentElsewhere(name, whose, cwd string, allowFS bool) (recordedLaunch, bool) {
	if cwd == "" || cwd == "." || whose == demoAgentWhose && !allowFS {
		return recordedLaunch{}, false
	}
	if wd, err := os.Getwd(); err == nil {
		if abs, err := filepath.Abs(cwd); err == nil && abs == wd {
			return recordedLaunch{}, false
		}
	}
	return recordedLaunch{what: "agent", name: name, whose: whose, cwd: cwd, allowFS: allowFS}, true
}

const (
	namedWhose     = "the one you named"
	demoAgentWhose = "elicit's demo agent"
)

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote is s as a POSIX shell would take it back as one word.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// trustGate decides whether the launches a file names may run.
type trustGate struct {
	file string
	// whose says what the file is to the person ("the recording's
	// content, not yours"); how, how to go on without confirming.
	whose, how string
	trusted    bool // --trust-recorded-command
	stdin      io.Reader
	stderr     io.Writer
}

// replayGate is the gate of elicit replay FILE.
func replayGate(file string, trusted bool, stdin io.Reader, stderr io.Writer) trustGate {
	return trustGate{file: file, trusted: trusted, stdin: stdin, stderr: stderr, whose: "the recording's content, not yours",
		how: "name the server instead (-- CMD ARGS..., --url URL, --demo or --config FILE --server NAME; " +
			"-- AGENT ARGS for an agent), or pass --trust-recorded-command to run what the recording names"}
}

// allow returns nil when launches may run: none, the flag given, or the
// person confirmed on a terminal. Else a usage error saying how.
func (g trustGate) allow(ctx context.Context, launches []recordedLaunch) error {
	if len(launches) == 0 {
		return nil
	}
	var shown strings.Builder
	for _, l := range launches {
		for _, s := range l.lines() {
			shown.WriteString("  " + s + "\n")
		}
	}
	file := untrusted.Line(g.file)
	if g.trusted {
		fmt.Fprintf(g.stderr, "elicit replay: --trust-recorded-command: running what %s names:\n%s", file, shown.String())
		return nil
	}
	in, ok := terminalIn(g.stdin, g.stderr)
	if !ok {
		orAsk := "; or run it on a terminal to confirm"
		if g.stdin == nil {
			orAsk = "" // a command that never asks
		}
		return usageErr("%s names what to run (%s), and elicit runs only what you name or confirm:\n%sNothing was run. To go on, %s%s",
			file, g.whose, shown.String(), g.how, orAsk)
	}
	question := "Run it? [y/N] "
	if len(launches) > 1 {
		question = "Run them? [y/N] "
	}
	fmt.Fprintf(g.stderr, "%s names what to run (%s: check it):\n%s%s", file, g.whose, shown.String(), question)
	answer, err := readLine(ctx, in)
	if ctx.Err() != nil {
		return fail(exitInternal, "interrupted before anything ran")
	}
	if err != nil {
		return fmt.Errorf("the answer to run what %s names: %w", file, err)
	}
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes":
		return nil
	}
	return usageErr("not confirmed: nothing was run. To go on, %s", g.how)
}

// terminalIn is stdin when both stdin and stderr are terminals: a person
// is there to read the question and answer it.
func terminalIn(stdin io.Reader, stderr io.Writer) (*os.File, bool) {
	in, ok := stdin.(*os.File)
	if !ok || !term.IsTerminal(in.Fd()) {
		return nil, false
	}
	out, ok := fileOf(stderr)
	if !ok || !term.IsTerminal(out.Fd()) {
		return nil, false
	}
	return in, true
}

// shownURL is raw as written when it carries nothing to mask (so a
// ${VAR} in its path shows as the file has it), else redact.URL's form.
func shownURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User == nil && u.RawQuery == "" && u.Fragment == "" {
		return raw
	}
	return redact.URL(raw)
}

// fileOf is the file w writes to, looking through writers that wrap
// another (the run's secrets masking stderr).
func fileOf(w io.Writer) (*os.File, bool) {
	for {
		switch v := w.(type) {
		case *os.File:
			return v, true
		case interface{ Unwrap() io.Writer }:
			w = v.Unwrap()
		default:
			return nil, false
		}
	}
}

// readLine reads one line of in; ctx ending (Ctrl+C) ends the wait. A
// person answering has no time limit. The reader is left blocked when ctx
// ends: the process is on its way out (it runs only on a terminal, never
// in the in-process tests).
func readLine(ctx context.Context, in io.Reader) (string, error) {
	type line struct {
		s   string
		err error
	}
	got := make(chan line, 1)
	go func() {
		s, err := bufio.NewReader(in).ReadString('\n')
		if err == io.EOF {
			err = nil // Ctrl+D: no answer, which is no
		}
		got <- line{s, err}
	}()
	select {
	case l := <-got:
		return l.s, l.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
