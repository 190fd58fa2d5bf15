package agents

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"sync"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// sessionFlags are elicit acp's flags for the session beyond the turn
// (ACP's client methods of stable v1).
type sessionFlags struct {
	list                 bool
	load, resume, mode   string
	remove               string
	config, dirs, attach listFlag
	allowTerminal        bool
}

func (f *sessionFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.list, "list-sessions", false, "print the agent's sessions (session/list, every page) as JSON")
	fs.StringVar(&f.load, "load", "", "load this session (session/load; its history in the JSON) instead of a new one")
	fs.StringVar(&f.resume, "resume", "", "resume this session (session/resume, no history) instead of a new one")
	fs.StringVar(&f.mode, "mode", "", "set the session's mode before the prompt (session/set_mode)")
	fs.Var(&f.config, "config", "set a config option before the prompt, ID=VALUE (repeatable; true/false for a boolean)")
	fs.Var(&f.dirs, "dir", "an additional directory of the session (additionalDirectories; repeatable)")
	fs.Var(&f.attach, "attach", "attach a file to the prompt: an image as an image block (if the agent takes images), else a resource link (repeatable)")
	fs.StringVar(&f.remove, "delete", "", "delete this session (session/delete)")
	fs.BoolVar(&f.allowTerminal, "allow-terminal", false, "let the agent run commands in terminals (a PTY within --cwd; each asked first, answered by --permission)")
}

// check is what the flags allow together; alone says the run has no
// turn (--list-sessions, --delete without --prompt).
func (f *sessionFlags) check(prompt string) (alone bool, err error) {
	if f.load != "" && f.resume != "" {
		return false, exit.Usagef("--load and --resume name the session to open: one of them")
	}
	for _, c := range f.config {
		if id, _, ok := strings.Cut(c, "="); !ok || id == "" {
			return false, exit.Usagef("--config takes ID=VALUE, got %q", c)
		}
	}
	return prompt == "" && (f.list || f.remove != ""), nil
}

// record puts the session's settings in a recording's agent.
func (f *sessionFlags) record(a *record.Agent) {
	a.Load, a.Resume, a.Mode, a.AllowTerminal = f.load, f.resume, f.mode, f.allowTerminal
	a.Dirs, a.Config, a.Attach = f.dirs, f.config, f.attach
}

// SessionSetup is how a turn's session is opened and set up: elicit acp's
// flags, or a recording's agent when it is replayed.
type SessionSetup struct {
	Cwd, Load, Resume, Mode string
	Dirs, Config, Attach    []string
}

// SetupOf is the setup a recording's agent kept.
func SetupOf(a record.Agent, cwd string) SessionSetup {
	return SessionSetup{Cwd: cwd, Load: a.Load, Resume: a.Resume, Mode: a.Mode, Dirs: a.Dirs, Config: a.Config, Attach: a.Attach}
}

// Open opens the session (new, loaded or resumed), then sets its mode
// and config options in order; a boolean option takes true or false.
func (s SessionSetup) Open(ctx context.Context, c *acp.Client) (acp.Session, error) {
	sess, err := c.OpenSession(ctx, acp.SessionParams{Cwd: s.Cwd, AdditionalDirectories: s.Dirs, Load: s.Load, Resume: s.Resume})
	if err != nil {
		return sess, err
	}
	if s.Mode != "" {
		if err := c.SetMode(ctx, sess.ID, s.Mode); err != nil {
			return sess, err
		}
		if sess.Modes != nil {
			sess.Modes.CurrentModeID = s.Mode
		}
	}
	for _, kv := range s.Config {
		id, value, _ := strings.Cut(kv, "=")
		v, err := configValue(sess.ConfigOptions, id, value)
		if err != nil {
			return sess, err
		}
		opts, err := c.SetConfigOption(ctx, sess.ID, id, v)
		if err != nil {
			return sess, err
		}
		sess.ConfigOptions = opts
	}
	return sess, nil
}

// configValue is VALUE as the option takes it: a bool for a boolean
// option, the value id otherwise.
func configValue(opts []acp.ConfigOption, id, value string) (any, error) {
	for _, o := range opts {
		if o.ID != id || o.Type != "boolean" {
			continue
		}
		switch value {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("--config %s is a boolean option: true or false, not %q", id, value)
	}
	return value, nil
}

// Blocks are the prompt's content: its text, then each attached file.
func (s SessionSetup) Blocks(c *acp.Client, prompt string) ([]acp.ContentBlock, error) {
	blocks := []acp.ContentBlock{{Type: "text", Text: prompt}}
	for _, f := range s.Attach {
		b, err := c.Attach(f)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// closeAfter closes the session when the agent supports it (after the
// turn: the agent frees it), bounded by ctx.
func closeAfter(ctx context.Context, c *acp.Client, sid string) bool {
	if sid == "" || !c.Capabilities().Close {
		return false
	}
	return c.CloseSession(ctx, sid) == nil
}

// setupUpdates keeps the updates that come while the session is set up
// (current_mode_update, config_option_update…), before the turn keeps
// its own: the first maxSetupUpdates.
type setupUpdates struct {
	mu      sync.Mutex
	turning bool
	got     []acpUpdate
}

const maxSetupUpdates = 64

func (s *setupUpdates) add(u acp.Update) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turning || len(s.got) >= maxSetupUpdates || u.Kind == acp.UpdateUserMessage {
		return
	}
	if u.Kind == acp.UpdateAgentMessage || u.Kind == acp.UpdateAgentThought {
		return // a loaded session's history: under "history"
	}
	s.got = append(s.got, acpUpdate{Kind: u.Kind, Raw: append([]byte(nil), u.Raw...)})
}

// turn marks the prompt sent: the turn keeps what follows.
func (s *setupUpdates) turn() {
	s.mu.Lock()
	s.turning = true
	s.mu.Unlock()
}

func (s *setupUpdates) all() []acpUpdate {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]acpUpdate{}, s.got...)
}

// acpHistory is what session/load replayed, shown as a turn is.
type acpHistory struct {
	// User is the person's prompts as the agent replayed them, joined.
	User      string         `json:"user"`
	Message   string         `json:"message"`
	Thought   string         `json:"thought,omitempty"`
	ToolCalls []acp.ToolCall `json:"toolCalls"`
	Updates   []acpUpdate    `json:"updates"`
}

func historyOf(r *acp.TurnResult) *acpHistory {
	if r == nil {
		return nil
	}
	h := &acpHistory{User: r.User, Message: r.Message, Thought: r.Thought, ToolCalls: append([]acp.ToolCall{}, r.ToolCalls...), Updates: []acpUpdate{}}
	for _, u := range r.Other {
		h.Updates = append(h.Updates, acpUpdate{Kind: u.Kind, Raw: u.Raw, Replaced: u.Replaced, Cut: u.Cut})
	}
	return h
}

// before runs what comes before any session: --delete, then
// --list-sessions.
func (f *sessionFlags) before(ctx context.Context, c *acp.Client, out *ACPOutput) error {
	if f.remove != "" {
		if err := c.DeleteSession(ctx, f.remove); err != nil {
			return err
		}
	}
	if f.list {
		list, err := c.ListSessions(ctx, "")
		out.Sessions = append([]acp.SessionInfo{}, list...)
		return err
	}
	return nil
}
