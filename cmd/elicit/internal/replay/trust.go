package replay

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/trust"
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

// launchOfServer is s, started as the recording names it; envNames are
// the variables it was recorded with.
func launchOfServer(s serverspec.Server, envNames []string) trust.Launch {
	l := trust.Launch{What: "server", Name: s.Name, Command: s.Command, Args: s.Args, URL: s.URL, LegacySSE: s.LegacySSE, Dir: s.Dir, Env: envNames}
	for _, r := range s.Roots {
		l.Roots = append(l.Roots, r.URI)
	}
	return l
}

func launchOfAgent(s serverspec.Agent, ra record.Agent, cwd string) trust.Launch {
	return trust.Launch{What: "agent", Name: s.Name, Command: s.Command, Args: s.Args, Dir: s.Dir, Env: ra.EnvNames, Cwd: cwd, AllowFS: ra.AllowFS}
}

// serverLaunches are what the replay of targets starts, or offers,
// that only the recording names, in the order of their names.
func serverLaunches(targets map[string]*replayTarget) []trust.Launch {
	var out []trust.Launch
	for _, name := range slices.Sorted(maps.Keys(targets)) {
		switch t := targets[name]; {
		case t.fromFile:
			out = append(out, launchOfServer(t.spec, t.recorded.EnvNames))
		case t.rootsFromFile:
			out = append(out, trust.Launch{What: "server", Name: name, Whose: namedWhose, Roots: t.recorded.Roots})
		}
	}
	return out
}

// agentLaunches are what of the recording's agents (specs[i] stands for
// agent i; demos[i]: elicit's demo agent) only the recording names: a
// command, unless named (the person gave -- AGENT), and a session cwd
// elsewhere.
func agentLaunches(rec *record.Recording, specs []serverspec.Agent, demos []bool, named bool) []trust.Launch {
	var out []trust.Launch
	for i, ra := range rec.Settings.Agents {
		whose := namedWhose
		switch {
		case demos[i]:
			whose = demoAgentWhose
		case !named:
			l := launchOfAgent(specs[i], ra, agentCwd(rec, ra))
			l.Extra = append(l.Extra, recordedAllows(rec, ra.Name)...) // permit.go
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

// agentElsewhere is what of an agent the person named, or of the demo
// agent, the recording decides: a session cwd other than this directory
// (where the agent works, and with allowFS where it reads and writes
// files through elicit). The demo agent touches files only with allowFS.
// ok false: nothing.
func agentElsewhere(name, whose, cwd string, allowFS bool) (trust.Launch, bool) {
	if cwd == "" || cwd == "." || whose == demoAgentWhose && !allowFS {
		return trust.Launch{}, false
	}
	if wd, err := os.Getwd(); err == nil {
		if abs, err := filepath.Abs(cwd); err == nil && abs == wd {
			return trust.Launch{}, false
		}
	}
	return trust.Launch{What: "agent", Name: name, Whose: whose, Cwd: cwd, AllowFS: allowFS}, true
}

const (
	namedWhose     = "the one you named"
	demoAgentWhose = "elicit's demo agent"
)

// replayGate is the gate of elicit replay FILE.
func replayGate(file string, trusted bool, stdin io.Reader, stderr io.Writer) trust.Gate {
	return trust.Gate{File: file, Trusted: trusted, Stdin: stdin, Stderr: stderr, Whose: "the recording's content, not yours",
		How: "name the server instead (-- CMD ARGS..., --url URL, --demo or --config FILE --server NAME; " +
			"-- AGENT ARGS for an agent), or pass --trust-recorded-command to run what the recording names"}
}
