package agents

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/shown"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// DemoName names the embedded demo agent in the TUI and headless.
const DemoName = "demo-agent"

// Demo runs the embedded demo agent (elicit demo --acp).
func Demo(name string) (serverspec.Agent, error) {
	exe, err := os.Executable()
	if err != nil {
		return serverspec.Agent{}, fmt.Errorf("the demo agent: %w", err)
	}
	return serverspec.Agent{Name: name, Command: exe, Args: []string{"demo", "--acp"}}, nil
}

// StartTimeout bounds starting an agent (initialize);
// sessionTimeout session/new, which may wait for the person to pick a
// sign-in method.
const (
	StartTimeout   = 30 * time.Second
	sessionTimeout = 10 * time.Minute
)

// IdleTimeout is how long a turn may go without a word from the agent
// (while none of its questions is open) before it is stopped, unless
// elicit acp --idle-timeout says otherwise: long enough for an agent at
// work without a word (a long tool run), short of hanging a job.
const IdleTimeout = 10 * time.Minute

// Hub runs the TUI's agents over client/acp and implements
// ui.AgentEngine. The agents' questions go through the Bridge as prompt
// panes and into the one journal; their updates into the Bridge's agent
// transcripts; their state changes tell the Bridge.
type Hub struct {
	br      *ui.Bridge
	journal *question.Journal
	order   []string
	// rec is the TUI's --record (nil: none): the agents' frames, their
	// questions with the person's answers, and each prompt as a call.
	rec *record.Recorder
	// secrets are the run's (serverspec.SecretsOf), masked in the
	// agents' frames and stderr; each agent's secret arguments and
	// environment join.
	secrets *redact.Secrets
	version string
	// allowFS and allowTerminal: HubOptions'.
	allowFS, allowTerminal bool

	// ctx is start's: restarts run under it too; close cancels it.
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	agents map[string]*agentConn
	wg     sync.WaitGroup
}

// agentConn is one agent and where it stands.
type agentConn struct {
	spec  serverspec.Agent
	state client.ServerState
	err   error
	c     *acp.Client
	w     *app.AgentWiring // c's: records its turns
	sid   string
	cwd   string
	info  wire.Implementation
	// settings are the session's modes and config options, as opened
	// and as the agent's updates and answers change them.
	settings sessionSettings
}

// HubOptions are what the hub's agents share with the rest of the
// run.
type HubOptions struct {
	// Version is elicit's, sent as clientInfo.
	Version string
	// Recorder is the TUI's --record (nil: none).
	Recorder *record.Recorder
	// Secrets are the run's (nil: none to mask).
	Secrets *redact.Secrets
	// AllowFS and AllowTerminal serve the agents' fs and terminal
	// requests (each write and command asked first, as a pane).
	AllowFS, AllowTerminal bool
}

func NewHub(br *ui.Bridge, journal *question.Journal, specs []serverspec.Agent, o HubOptions) (*Hub, error) {
	h := &Hub{br: br, journal: journal, agents: map[string]*agentConn{}, version: o.Version, rec: o.Recorder, secrets: o.Secrets,
		allowFS: o.AllowFS, allowTerminal: o.AllowTerminal}
	for _, s := range specs {
		if _, dup := h.agents[s.Name]; dup {
			return nil, exit.Usagef("two agents are named %q", s.Name)
		}
		h.agents[s.Name] = &agentConn{spec: s}
		h.order = append(h.order, s.Name)
	}
	return h, nil
}

// Start starts every agent concurrently; each one's state shows as it
// goes.
func (h *Hub) Start(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	h.mu.Lock()
	h.ctx, h.cancel = ctx, cancel
	h.mu.Unlock()
	for _, name := range h.order {
		h.wg.Go(func() { h.connect(ctx, name) })
	}
}

func (h *Hub) set(name string, f func(a *agentConn)) {
	h.mu.Lock()
	f(h.agents[name])
	h.mu.Unlock()
	h.br.AgentsChanged()
}

// connect starts one agent, runs initialize and opens its session.
func (h *Hub) connect(ctx context.Context, name string) {
	h.mu.Lock()
	spec := h.agents[name].spec
	h.mu.Unlock()
	if spec.Broken != nil {
		h.set(name, func(a *agentConn) { a.state, a.err = client.StateFailed, spec.Broken })
		return
	}
	h.set(name, func(a *agentConn) { a.state, a.err = client.StateConnecting, nil })
	w := &app.AgentWiring{Name: name, Version: h.version, Command: spec.Command, Args: spec.Args, Env: spec.Env, Dir: spec.Dir,
		Secrets: h.secrets, SecretValues: spec.SecretValues(), Recorder: h.rec,
		Prompter: shown.Prompter{Next: h.br, Secrets: h.secrets}, Journal: h.journal,
		// An agent that wants a sign-in asks which method, as a form pane;
		// a terminal method's command runs on the TUI's terminal, the TUI
		// suspended meanwhile.
		AskAuth: h.br,
		TerminalAuth: func(ctx context.Context, cmd *exec.Cmd) error {
			return h.br.RunOnTerminal(ctx, name+": terminal sign-in", cmd)
		},
		OnUpdate: func(u acp.Update) {
			h.settingsUpdate(name, u)
			h.br.AgentUpdate(name, shown.Update(h.secrets, uiUpdate(u)))
		},
		OnStderr: func(line string) { h.br.Stderr(name, line) },
		// Each request of ours beyond the turn ends in the transcript;
		// a page of session/list that went well shows in the list.
		OnAction: func(a acp.Action) {
			if a.Method != acp.MethodSessionList || a.Ended != "ok" {
				h.br.AgentUpdate(name, h.uiAction(a))
			}
		},
		AllowFS: h.allowFS, AllowTerminal: h.allowTerminal,
		OnFrame: func(fr transport.Frame) { h.br.Frame(name, fr) },
		OnResolved: func(e question.JournalEntry) {
			h.br.Event(client.PromptResolved{Key: e.Key, Entry: e, Sent: e.Sent})
		}}
	sctx, cancel := context.WithTimeout(ctx, StartTimeout)
	defer cancel()
	c, err := w.Start(sctx)
	if err != nil {
		h.set(name, func(a *agentConn) { a.state, a.err = client.StateFailed, err })
		return
	}
	cwd := spec.Dir
	if cwd == "" {
		cwd = "."
	}
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	h.set(name, func(a *agentConn) {
		a.c, a.w, a.state, a.cwd = c, w, client.StateReady, cwd
		if in := c.Info().AgentInfo; in != nil {
			a.info = wire.Implementation{Name: in.Name, Title: in.Title, Version: in.Version}
		}
	})
	// session/new may wait on the person: an agent that wants a sign-in
	// asks for the method first (AskAuth).
	nctx, ncancel := context.WithTimeout(ctx, sessionTimeout)
	defer ncancel()
	sess, err := c.OpenSession(nctx, acp.SessionParams{Cwd: cwd})
	if err != nil {
		c.Close()
		h.set(name, func(a *agentConn) { a.state, a.err = client.StateFailed, err })
		return
	}
	h.set(name, func(a *agentConn) { a.sid, a.settings = sess.ID, settingsOf(sess) })
	select {
	case <-c.Done():
		h.set(name, func(a *agentConn) {
			if a.c == c && a.state == client.StateReady { // not a restart's
				a.state, a.err = client.StateDisconnected, errors.New("the agent's connection ended")
			}
		})
	case <-ctx.Done():
	}
}

// Agents implements ui.AgentEngine.
func (h *Hub) Agents() []ui.AgentStatus {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]ui.AgentStatus, 0, len(h.order))
	for _, name := range h.order {
		a := h.agents[name]
		// What the agent said (its agentInfo, its errors) with the secrets masked.
		out = append(out, ui.AgentStatus{Name: name, State: a.state, Err: h.secrets.Error(a.err), Info: shown.Value(h.secrets, a.info),
			Command: a.spec.Describe(), Cwd: a.cwd, SessionID: a.sid})
		a.settings.status(&out[len(out)-1], h.secrets)
		out[len(out)-1].Can = can(a.c)
	}
	return out
}

// session is agent name's client, its wiring and its session, when it
// has one.
func (h *Hub) session(name string) (*acp.Client, *app.AgentWiring, string, error) {
	if h == nil {
		return nil, nil, "", fmt.Errorf("no agent %q", name)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	a := h.agents[name]
	switch {
	case a == nil:
		return nil, nil, "", fmt.Errorf("no agent %q", name)
	case a.c == nil || a.sid == "" || a.state != client.StateReady:
		return nil, nil, "", fmt.Errorf("agent %s has no session (%s)", name, a.state)
	}
	return a.c, a.w, a.sid, nil
}

// AgentPrompt implements ui.AgentEngine.
func (h *Hub) AgentPrompt(ctx context.Context, name, text string) (ui.AgentTurnEnd, error) {
	c, w, sid, err := h.session(name)
	if err != nil {
		return ui.AgentTurnEnd{}, err
	}
	h.mu.Lock()
	cwd := cmp.Or(h.agents[name].spec.Dir, ".")
	h.mu.Unlock()
	res, err := w.Turn(app.PromptParams{Prompt: text, Cwd: cwd}, func() (acp.TurnResult, error) {
		return c.Prompt(ctx, sid, text)
	})
	return ui.AgentTurnEnd{StopReason: res.StopReason, Stopped: res.Stopped, RequestCancelled: res.RequestCancelled}, err
}

// AgentStop implements ui.AgentEngine.
func (h *Hub) AgentStop(name string) error {
	c, _, sid, err := h.session(name)
	if err != nil {
		return err
	}
	c.Stop(sid)
	return nil
}

// AgentRestart implements ui.AgentEngine: the old client is closed (its
// open questions answered -32800), then the agent starts again.
func (h *Hub) AgentRestart(name string) error {
	if h == nil {
		return fmt.Errorf("no agent %q", name)
	}
	h.mu.Lock()
	a := h.agents[name]
	if a == nil || h.ctx == nil {
		h.mu.Unlock()
		return fmt.Errorf("no agent %q", name)
	}
	if a.state == client.StateConnecting {
		h.mu.Unlock()
		return fmt.Errorf("agent %s is starting already", name)
	}
	old := a.c
	a.c, a.sid, a.state = nil, "", client.StateConnecting
	h.mu.Unlock()
	h.wg.Go(func() {
		if old != nil {
			old.Close()
		}
		h.connect(h.ctx, name)
	})
	return nil
}

// AgentAbandon implements ui.AgentEngine: a second stop.
func (h *Hub) AgentAbandon(name string) error {
	c, _, sid, err := h.session(name)
	if err != nil {
		return err
	}
	c.AbandonTurn(sid)
	return nil
}

// Close ends every agent: their open questions are answered -32800 and
// their processes stopped (client/acp's Close, bounded).
func (h *Hub) Close() {
	// First no start or restart goes on, so every client is recorded.
	h.mu.Lock()
	if h.cancel != nil {
		h.cancel()
	}
	h.mu.Unlock()
	h.wg.Wait()
	h.mu.Lock()
	var cs []*acp.Client
	for _, a := range h.agents {
		if a.c != nil {
			cs = append(cs, a.c)
		}
	}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Go(func() { c.Close() })
	}
	wg.Wait()
}

// uiUpdate is an acp.Update in the UI's types.
func uiUpdate(u acp.Update) ui.AgentUpdate {
	out := ui.AgentUpdate{Kind: u.Kind, Known: u.Known, Raw: u.Raw, Mode: u.ModeID}
	if u.Content != nil {
		out.Text, out.ContentType = u.Content.Text, u.Content.Type
	}
	if t := u.ToolCall; t != nil {
		out.Tool = &ui.AgentToolCall{ID: t.ID, Title: t.Title, Name: t.Name, Kind: t.Kind, Status: t.Status,
			Content: t.Content, Locations: t.Locations, RawInput: t.RawInput, RawOutput: t.RawOutput}
	}
	if n := u.Notice; n != nil {
		out.Notice = &ui.AgentNotice{Severity: n.Severity, Title: n.Title}
	}
	if c := u.Compaction; c != nil {
		out.Compaction = &ui.AgentCompaction{ID: c.ID, Status: c.Status, Error: c.Error}
		if c.Content != nil {
			out.Compaction.Text = c.Content.Text
		}
	}
	for _, p := range u.Plan {
		out.Plan = append(out.Plan, ui.AgentPlanEntry{Content: p.Content, Priority: p.Priority, Status: p.Status})
	}
	for _, c := range u.Commands {
		out.Commands = append(out.Commands, ui.AgentCommand{Name: c.Name, Description: c.Description})
	}
	if us := u.Usage; us != nil {
		out.Usage = &ui.AgentUsage{Used: us.Used, Size: us.Size}
		if us.Cost != nil {
			out.Usage.Cost = fmt.Sprintf("%.4g %s", us.Cost.Amount, us.Cost.Currency)
		}
	}
	return out
}
