package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/elicit-dev/elicit/client/wire"
)

// The session methods beyond session/new and session/prompt (stable v1,
// each behind the agent's capability).
const (
	MethodSessionLoad      = "session/load"
	MethodSessionList      = "session/list"
	MethodSessionResume    = "session/resume"
	MethodSessionClose     = "session/close"
	MethodSessionDelete    = "session/delete"
	MethodSessionSetMode   = "session/set_mode"
	MethodSessionSetConfig = "session/set_config_option"
	MethodLogout           = "logout"
)

// ErrNotDeclared is returned, without asking, for a method the agent did
// not declare it supports.
var ErrNotDeclared = errors.New("acp: the agent does not declare it")

// roots are where a session's fs and terminal requests may reach: its
// cwd and its additional directories (absolute).
type roots struct {
	cwd  string
	dirs []string
}

// SessionParams opens a session: a new one, or with Load or Resume an
// existing one of the agent's.
type SessionParams struct {
	// Cwd is the working directory (made absolute).
	Cwd string
	// AdditionalDirectories widen the session's workspace (made
	// absolute); sent only to an agent that declares them.
	AdditionalDirectories []string
	// Load (session/load, the history replayed) or Resume
	// (session/resume, none) name the session to open; at most one.
	Load, Resume string
}

// Mode is one of a session's modes.
type Mode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// ModeState is a session's modes and the current one.
type ModeState struct {
	CurrentModeID  string `json:"currentModeId"`
	AvailableModes []Mode `json:"availableModes"`
}

// ConfigOption is one of a session's configuration options: a "select"
// (CurrentValue a value id, Options its choices as sent) or a "boolean".
type ConfigOption struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	Category     string          `json:"category,omitempty"`
	Type         string          `json:"type"`
	CurrentValue json.RawMessage `json:"currentValue"`
	Options      json.RawMessage `json:"options,omitempty"`
}

// Session is a session opened: its id, the modes and config options
// the agent answered with, and for a load the history it replayed.
type Session struct {
	ID            string         `json:"sessionId"`
	Modes         *ModeState     `json:"modes,omitempty"`
	ConfigOptions []ConfigOption `json:"configOptions,omitempty"`
	// History is what session/load replayed (as session/update before
	// its answer), gathered as a turn's is; nil for new and resume.
	History *TurnResult `json:"history,omitempty"`
}

// OpenSession opens a session as p says: session/new, or session/load
// or session/resume of an existing one (refused with ErrNotDeclared when
// the agent does not declare it). A load's history is gathered into
// Session.History and heard by OnUpdate as it comes. New sessions go
// through NewSession's sign-in.
func (c *Client) OpenSession(ctx context.Context, p SessionParams) (Session, error) {
	abs, err := filepath.Abs(p.Cwd)
	if err != nil {
		return Session{}, fmt.Errorf("acp: cwd: %w", err)
	}
	r := roots{cwd: abs}
	for _, d := range p.AdditionalDirectories {
		ad, err := filepath.Abs(d)
		if err != nil {
			return Session{}, fmt.Errorf("acp: additional directory %s: %w", d, err)
		}
		r.dirs = append(r.dirs, ad)
	}
	if len(r.dirs) > 0 && !c.caps.AdditionalDirectories {
		// Not sent, so not served: the agent would not know of them.
		return Session{}, fmt.Errorf("%w: additionalDirectories (sessionCapabilities.additionalDirectories)", ErrNotDeclared)
	}
	switch {
	case p.Load != "" && p.Resume != "":
		return Session{}, fmt.Errorf("acp: load or resume, not both")
	case p.Load != "":
		return c.reopen(ctx, MethodSessionLoad, p.Load, r, c.caps.LoadSession, "loadSession")
	case p.Resume != "":
		return c.reopen(ctx, MethodSessionResume, p.Resume, r, c.caps.Resume, "sessionCapabilities.resume")
	}
	return c.openNew(ctx, r)
}

// sessionParams are the members session/new, load and resume share.
func (c *Client) sessionParams(r roots) map[string]any {
	servers := c.opts.MCPServers
	if servers == nil {
		servers = []MCPServer{}
	}
	m := map[string]any{"cwd": r.cwd, "mcpServers": servers}
	if len(r.dirs) > 0 {
		m["additionalDirectories"] = r.dirs
	}
	return m
}

// reopen runs session/load or session/resume. The session is ours (its
// updates taken, its requests served) from before the request goes
// out: a load replays its history before answering. Refused, it is not.
func (c *Client) reopen(ctx context.Context, method, sid string, r roots, declared bool, capability string) (Session, error) {
	if !declared {
		err := fmt.Errorf("%w: %s (%s)", ErrNotDeclared, method, capability)
		c.actions.add(c, Action{Method: method, SessionID: sid, Ended: "not sent: " + capability + " not declared"})
		return Session{}, err
	}
	var hist *turnState
	c.mu.Lock()
	_, already := c.cwds[sid]
	if !already {
		c.cwds[sid] = r
	}
	if method == MethodSessionLoad {
		hist = newTurnState()
		hist.history = true
		c.history[sid] = hist
	}
	c.mu.Unlock()
	params := c.sessionParams(r)
	params["sessionId"] = sid
	var raw json.RawMessage
	err := c.signedIn(ctx, func() (err error) {
		raw, err = c.scopedCall(ctx, method, params, nil)
		if err != nil {
			// Each try is an action of its own.
			c.actions.ended(c, method, sid, err)
		}
		return err
	})
	c.mu.Lock()
	delete(c.history, sid)
	if err != nil && !already {
		delete(c.cwds, sid)
	}
	c.mu.Unlock()
	if err != nil {
		return Session{}, err
	}
	c.actions.ended(c, method, sid, nil)
	s := Session{ID: sid}
	s.Modes, s.ConfigOptions = decodeSetup(raw)
	if hist != nil {
		h := hist.result()
		s.History = &h
	}
	return s, nil
}

// decodeSetup reads a session's modes and config options from the
// answer that opened it; either malformed counts as absent (ACP: default
// on error).
func decodeSetup(raw json.RawMessage) (*ModeState, []ConfigOption) {
	m, err := wire.ExactMembers(raw)
	if err != nil {
		return nil, nil
	}
	var modes *ModeState
	if wire.DecodeExact([]byte(m["modes"]), &modes) != nil {
		modes = nil
	}
	var opts []ConfigOption
	if wire.DecodeExact([]byte(m["configOptions"]), &opts) != nil {
		opts = nil
	}
	return modes, opts
}

// SessionInfo is one session of session/list.
type SessionInfo struct {
	SessionID             string   `json:"sessionId"`
	Cwd                   string   `json:"cwd"`
	AdditionalDirectories []string `json:"additionalDirectories,omitempty"`
	Title                 string   `json:"title,omitempty"`
	UpdatedAt             string   `json:"updatedAt,omitempty"`
}

// MaxListPages bounds the pages ListSessions follows: an agent whose
// cursors never end must not hold us.
const MaxListPages = 1000

// ListSessions runs session/list for every page (following nextCursor),
// of the sessions in cwd ("" for all). A cursor repeated, or more than
// MaxListPages pages, is the agent's fault, said as an error with what
// was read.
func (c *Client) ListSessions(ctx context.Context, cwd string) ([]SessionInfo, error) {
	if !c.caps.List {
		c.actions.add(c, Action{Method: MethodSessionList, Ended: "not sent: sessionCapabilities.list not declared"})
		return nil, fmt.Errorf("%w: %s (sessionCapabilities.list)", ErrNotDeclared, MethodSessionList)
	}
	if cwd != "" {
		abs, err := filepath.Abs(cwd)
		if err != nil {
			return nil, fmt.Errorf("acp: cwd: %w", err)
		}
		cwd = abs
	}
	var all []SessionInfo
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page == MaxListPages {
			return all, fmt.Errorf("acp: %s: more than %d pages", MethodSessionList, MaxListPages)
		}
		params := map[string]any{}
		if cwd != "" {
			params["cwd"] = cwd
		}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var raw json.RawMessage
		err := c.signedIn(ctx, func() (err error) {
			raw, err = c.peer.call(ctx, MethodSessionList, params, c.opts.CancelWait)
			c.actions.ended(c, MethodSessionList, "", err)
			return err
		})
		if err != nil {
			return all, err
		}
		var res struct {
			Sessions   []SessionInfo `json:"sessions"`
			NextCursor *string       `json:"nextCursor"`
		}
		if err := wire.DecodeExact(raw, &res); err != nil {
			return all, fmt.Errorf("acp: %s result: %w", MethodSessionList, err)
		}
		all = append(all, res.Sessions...)
		if res.NextCursor == nil || *res.NextCursor == "" {
			return all, nil
		}
		if seen[*res.NextCursor] {
			return all, fmt.Errorf("acp: %s: the agent repeated cursor %q", MethodSessionList, *res.NextCursor)
		}
		seen[*res.NextCursor] = true
		cursor = *res.NextCursor
	}
}

// CloseSession runs session/close (the agent cancels the session's work
// and frees it); the session is then no longer ours. ErrNotDeclared
// without sessionCapabilities.close.
func (c *Client) CloseSession(ctx context.Context, sid string) error {
	if !c.caps.Close {
		c.actions.add(c, Action{Method: MethodSessionClose, SessionID: sid, Ended: "not sent: sessionCapabilities.close not declared"})
		return fmt.Errorf("%w: %s (sessionCapabilities.close)", ErrNotDeclared, MethodSessionClose)
	}
	_, err := c.peer.call(ctx, MethodSessionClose, map[string]string{"sessionId": sid}, c.opts.CancelWait)
	c.actions.ended(c, MethodSessionClose, sid, err)
	if err == nil {
		c.mu.Lock()
		delete(c.cwds, sid)
		c.mu.Unlock()
	}
	return err
}

// DeleteSession runs session/delete: the session leaves session/list.
func (c *Client) DeleteSession(ctx context.Context, sid string) error {
	if !c.caps.Delete {
		c.actions.add(c, Action{Method: MethodSessionDelete, SessionID: sid, Ended: "not sent: sessionCapabilities.delete not declared"})
		return fmt.Errorf("%w: %s (sessionCapabilities.delete)", ErrNotDeclared, MethodSessionDelete)
	}
	return c.signedIn(ctx, func() error {
		_, err := c.peer.call(ctx, MethodSessionDelete, map[string]string{"sessionId": sid}, c.opts.CancelWait)
		c.actions.ended(c, MethodSessionDelete, sid, err)
		return err
	})
}

// SetMode runs session/set_mode. The agent confirms the change with a
// current_mode_update (heard by OnUpdate, kept in the turn).
func (c *Client) SetMode(ctx context.Context, sid, modeID string) error {
	_, err := c.peer.call(ctx, MethodSessionSetMode, map[string]string{"sessionId": sid, "modeId": modeID}, c.opts.CancelWait)
	c.actions.ended(c, MethodSessionSetMode, sid, err)
	return err
}

// SetConfigOption runs session/set_config_option with value, a string
// (a select's value id) or a bool (a boolean option, sent with type
// "boolean"), and returns the options as the agent then has them.
func (c *Client) SetConfigOption(ctx context.Context, sid, configID string, value any) ([]ConfigOption, error) {
	params := map[string]any{"sessionId": sid, "configId": configID}
	switch v := value.(type) {
	case string:
		params["value"] = v
	case bool:
		params["type"], params["value"] = "boolean", v
	default:
		return nil, fmt.Errorf("acp: %s: a value is a string or a bool, not %T", MethodSessionSetConfig, value)
	}
	raw, err := c.peer.call(ctx, MethodSessionSetConfig, params, c.opts.CancelWait)
	c.actions.ended(c, MethodSessionSetConfig, sid, err)
	if err != nil {
		return nil, err
	}
	var res struct {
		ConfigOptions []ConfigOption `json:"configOptions"`
	}
	if err := wire.DecodeExact(raw, &res); err != nil {
		return nil, fmt.Errorf("acp: %s result: %w", MethodSessionSetConfig, err)
	}
	return res.ConfigOptions, nil
}

// Logout runs logout (auth.logout declared).
func (c *Client) Logout(ctx context.Context) error {
	if !c.caps.Logout {
		c.actions.add(c, Action{Method: MethodLogout, Ended: "not sent: auth.logout not declared"})
		return fmt.Errorf("%w: %s (auth.logout)", ErrNotDeclared, MethodLogout)
	}
	_, err := c.peer.call(ctx, MethodLogout, map[string]any{}, c.opts.CancelWait)
	c.actions.ended(c, MethodLogout, "", err)
	return err
}
