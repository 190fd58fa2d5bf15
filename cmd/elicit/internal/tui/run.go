package tui

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/agents"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/shown"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/ui"
)

// Flags are the flags of the interactive mode.
type Flags struct {
	cli.Flags // its Config is --config (every server of the file)
	theme     string
	fps       int
	// urlWaitSet: --url-wait was given; else the person's "done" (r on
	// the pane) ends a -32042's wait, with no timer.
	urlWaitSet bool
	// stdin and stderr ask the person to confirm what a project's config
	// found here would start (serverspec.ProjectGate).
	stdin  io.Reader
	stderr io.Writer
	// ask asks the person for the config's ${input:ID} values the
	// environment does not give; nil takes them from the environment only.
	ask serverspec.InputAsker
	// agents are the ACP agents the TUI runs beside the servers: set by
	// servers() from the config or the demo, or beforehand by elicit acp
	// (acpOnly: no MCP server at all).
	agents  []serverspec.Agent
	acpOnly bool
	// allowFS and allowTerminal are elicit acp's --allow-fs and
	// --allow-terminal: the agent's fs and terminal requests served, each
	// write and command asked first.
	allowFS, allowTerminal bool
	// version is elicit's (Env.Version).
	version string
	// demoDir is the demo agent's folder, removed when the TUI ends.
	demoDir string
}

// Env is what the TUI gets from the binary.
type Env struct {
	// Version is elicit's: the sessions' clientInfo, the --record header.
	Version string
	// Stdin confirms what a project's config found here would start
	// (nil: no terminal to ask on).
	Stdin io.Reader
	// Ask asks the person for the config's ${input:ID} values the
	// environment does not give (nil: from the environment only).
	Ask serverspec.InputAsker
}

// renderFPS is how often a second the screen is redrawn while it
// changes, unless --fps says otherwise. bubbletea v2.1.1's renderer
// flushes on a time.Ticker at this rate (startRenderer, tea.go:1441-1470;
// WithFPS clamps to 1-120), which upstream never stops: about 5 context
// switches a tick over the runtime's threads, 100 a second at 20, with
// nothing moving. The frame governor (governor.go) stops it a few ticks
// after the last change and starts it on the next message, so the rate
// bounds only the latency: 20 keeps a keystroke's echo within 50 ms (25
// on average), which a person does not see as late (BENCHMARKS.md,
// "Idle").
const renderFPS = 20

// Visited notes what of fs's flags was given: --url-wait bounds a
// -32042's wait, else the person's "done" ends it.
func (f *Flags) Visited(fs *flag.FlagSet) {
	fs.Visit(func(fl *flag.Flag) { f.urlWaitSet = f.urlWaitSet || fl.Name == "url-wait" })
}

// Register adds the TUI's flags (the session's, --config, --theme, --fps) to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	f.Flags.Register(fs)
	fs.StringVar(&f.Config, "config", "", `servers file in the "mcpServers" JSON shape (Claude Desktop, Cursor, MCP Inspector) or VS Code's "servers"`)
	fs.StringVar(&f.theme, "theme", "", "colour theme: "+strings.Join(themes.Names(), ", ")+" (default charm; NO_COLOR is honoured)")
	fs.IntVar(&f.fps, "fps", renderFPS, "most redraws a second while the screen changes, 1-120: a keystroke shows up to 1/fps s later (the renderer stops when nothing changes)")
}

// servers resolves which servers the TUI talks to: the one on the command
// line, or those of a config file (given, or found in the usual places).
func (f *Flags) servers(ctx context.Context) ([]serverspec.Server, string, error) {
	theme := f.theme
	if err := f.CheckTimeouts(); err != nil {
		return nil, "", err
	}
	if f.acpOnly {
		return nil, theme, nil
	}
	if f.URL != "" || len(f.Command) > 0 || f.Demo {
		if f.Config != "" {
			return nil, "", exit.Usagef("give either a server or --config, not both")
		}
		spec, err := f.Spec(false)
		if err != nil {
			return nil, "", err
		}
		if spec.Demo {
			specs, err := demoSpecs(spec, f.Protocol, f.Name)
			if err != nil {
				return nil, "", err
			}
			// The demo shows everything elicit does: the demo ACP agent
			// runs beside the demo servers (its view is alt+a).
			agent, err := agents.Demo(agents.DemoName)
			if err != nil {
				return nil, "", err
			}
			// Its fs and terminal scenes are served too (each write and
			// command asked first), in a folder of its own that goes
			// with the TUI: the demo never writes where it was started.
			if agent.Dir, err = os.MkdirTemp("", "elicit-demo-agent-"); err != nil {
				return nil, "", fmt.Errorf("the demo agent's folder: %w", err)
			}
			f.demoDir, f.allowFS, f.allowTerminal = agent.Dir, true, true
			f.agents = append(f.agents, agent)
			return specs, theme, nil
		}
		return []serverspec.Server{spec}, theme, nil
	}
	path := f.Config
	if path == "" {
		p, err := serverspec.Find(os.Getenv)
		if err != nil {
			return nil, "", err
		}
		path = p
	}
	if f.Config == "" && serverspec.IsProject(path) {
		// What it would start, before anything is asked (its inputs) or
		// started: the values of ${input:…} are not needed to show it.
		pre, err := serverspec.LoadWith(path, func(string) (string, bool) { return "", true })
		if err != nil {
			return nil, "", exit.Usagef("%v", err)
		}
		if err := serverspec.ProjectGate(path, f.stdin, f.stderr).Allow(ctx, serverspec.Launches(pre, pre.Servers, pre.Agents)); err != nil {
			return nil, "", err
		}
	}
	var cfg *serverspec.Config
	var err error
	if f.ask != nil {
		cfg, err = serverspec.LoadAsking(ctx, path, f.ask)
	} else {
		cfg, err = serverspec.Load(path)
	}
	if err != nil {
		return nil, "", exit.Usagef("%v", err)
	}
	if theme == "" {
		theme = cfg.Theme
	}
	f.agents = append(f.agents, cfg.Agents...)
	flagRoots, err := f.Roots.Roots()
	if err != nil {
		return nil, "", err
	}
	for i := range cfg.Servers {
		cfg.Servers[i].Roots = serverspec.WithRoots(flagRoots, cfg.Servers[i].Roots)
	}
	return cfg.Servers, theme, nil
}

// Run opens the TUI with f's servers and agents.
func (e Env) Run(ctx context.Context, f *Flags, stdout, stderr io.Writer) error {
	if f.fps < 1 || f.fps > 120 {
		return exit.Usagef("--fps %d: want 1 to 120 redraws a second", f.fps)
	}
	f.version, f.stdin, f.ask, f.stderr = e.Version, e.Stdin, e.Ask, stderr
	specs, theme, err := f.servers(ctx)
	if f.demoDir != "" {
		defer os.RemoveAll(f.demoDir)
	}
	if err != nil {
		return err
	}
	if theme != "" {
		if _, err := themes.Lookup(theme); err != nil {
			return exit.Usagef("--theme: %v", err)
		}
	}
	modes, err := cli.ParseElicit(f.Elicit)
	if err != nil {
		return err
	}
	// In the TUI the person answers sampling; --sample off declares none.
	sampling, _, err := cli.ParseSample(f.Sample)
	if err != nil {
		return err
	}
	urlWait := time.Duration(0)
	if f.urlWaitSet {
		urlWait = f.URLWait
	}
	command := "tui"
	if f.Demo {
		command = "demo"
	}
	settings := f.RecordSettings(command, specs, urlWait, "")
	settings.Agents = agents.RecordsOf(f.agents)
	rec, err := recording.Open(f.Record, f.version, settings, serverspec.SecretsOf(stderr))
	if err != nil {
		return err
	}
	// Deferred, so it runs after the sessions are closed below (their
	// last answers are recorded) and on every way out.
	defer recording.Close(rec, f.Record, stderr)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	br := ui.NewBridge(ui.BridgeOptions{})
	defer br.Close()
	state, stateErr := loadTaskState(taskStatePath(os.Getenv))
	if stateErr != nil {
		exit.Print(stderr, stateErr)
	}
	sec := serverspec.SecretsOf(stderr)
	// Each session's observer (the wiring's, below: the recording
	// first, then this).
	obs := client.ObserverFunc(func(e client.Event) {
		if err := state.observe(e); err != nil {
			br.Event(client.Notice{Text: err.Error()})
		}
		br.Event(shown.Event(sec, e))
	})
	mgr := client.NewManager(&client.ManagerOptions{})
	// The servers' spec violations (client/findings): the sessions report
	// into it, the transports' undecodable frames too; the findings view
	// reads it.
	found := findings.NewRecorder(br.FindingsChanged)
	eng := &engine{ctx: ctx, version: f.version, m: mgr, state: state, specs: map[string]serverspec.Server{}, pending: map[string]error{}, findings: found,
		secrets: sec}
	var order []string
	for _, s := range specs {
		if _, dup := eng.specs[s.Name]; dup {
			return exit.Usagef("two servers are named %q", s.Name)
		}
		eng.specs[s.Name] = s
		order = append(order, s.Name)
	}
	for _, s := range specs {
		for _, w := range s.Warnings {
			exit.Print(stderr, errors.New("warning: "+w))
		}
	}
	eng.order = order
	if eng.Hub, err = agents.NewHub(br, mgr.Journal(), f.agents, agents.HubOptions{Version: f.version, Recorder: rec, Secrets: eng.secrets,
		AllowFS: f.allowFS, AllowTerminal: f.allowTerminal}); err != nil {
		return err
	}
	for _, a := range f.agents {
		if _, dup := eng.specs[a.Name]; dup {
			// Questions and the journal are keyed by the peer's name.
			return exit.Usagef("a server and an agent are both named %q", a.Name)
		}
	}
	eng.rec = rec
	// wiring is a server's session as the TUI opens it (internal/app).
	wiring := func(name string) *app.Wiring {
		protocol := f.Protocol
		if p := eng.specs[name].Protocol; p != "" {
			protocol = p
		}
		// The TUI always declares roots, an empty list too: its roots
		// view may add some, and a server is told only if it was
		// declared when it connected.
		roots := eng.specs[name].Roots
		if roots == nil {
			roots = []client.Root{}
		}
		return &app.Wiring{
			Name:     name,
			Version:  f.version,
			Protocol: protocol,
			Elicit:   modes,
			Roots:    roots,
			Sampling: sampling,
			// The tools view hosts a tool's MCP App (its key: elicit
			// app's host over this session), so the TUI declares it.
			AppsUI: true,
			// The person says when a -32042's page is done (r on its
			// pane, client.Session.CompleteElicitation), or cancels the
			// call: the wait is theirs, unless --url-wait bounds it.
			URLWait:        urlWait,
			Prompter:       shown.Prompter{Next: br, Secrets: sec},
			Observer:       obs,
			Recorder:       rec,
			Findings:       found,
			PromptTimeout:  f.PromptTimeout,
			ConnectTimeout: f.ConnectTimeout,
			RequestTimeout: f.RequestTimeout,
			OnFrame:        func(fr transport.Frame) { br.Frame(name, fr) },
			OnStderr:       func(line string) { br.Stderr(name, line) },
		}
	}
	eng.sessionOpts = func(name string) *client.Options { return wiring(name).Options() }
	eng.apps = appHosts{
		frame: func(server string, f client.Frame) { br.Frame(appServer(server), f) },
		note:  func(server, line string) { br.Stderr(appServer(server), line) },
	}
	eng.transports = func(spec serverspec.Server) (transport.Transport, error) {
		spec.Auth = tuiAuth(br, f.AuthTimeout)
		return spec.Transport(wiring(spec.Name).TransportObserver(), eng.secrets)
	}

	uiOpts := ui.Options{Theme: theme, Context: ctx, OpenURL: serverspec.BrowserOpener()}
	if len(specs) == 0 && len(f.agents) > 0 {
		uiOpts.StartView = "Agent"
	}
	// The governor stops the renderer's ticker while nothing changes
	// (governor.go); --fps is the rate while something does.
	gov := newFrameGovernor(f.fps)
	p := tea.NewProgram(gov.wrap(ui.New(eng, br, uiOpts)), tea.WithContext(ctx), tea.WithOutput(gov.output(stdout)), tea.WithFPS(f.fps))
	gov.bind(p)
	br.Attach(p.Send)
	done := make(chan struct{})
	go func() {
		defer close(done)
		eng.connectAll(ctx, order)
	}()
	eng.Hub.Start(ctx)
	_, runErr := p.Run()
	gov.close()
	// The agents first: their open questions are answered -32800 and
	// their processes stopped, bounded (client/acp's Close).
	eng.Hub.Close()
	// Quitting closes the sessions first: open prompts end as abandoned,
	// running calls end, and tasks stay on their servers (remembered in
	// the state file, resumed next time) instead of being cancelled. Then
	// everything else the UI started stops.
	mgr.Close()
	cancel()
	<-done
	eng.bg.Wait()
	if runErr != nil && ctx.Err() == nil {
		return fmt.Errorf("tui: %w", runErr)
	}
	return nil
}
