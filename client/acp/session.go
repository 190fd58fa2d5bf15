package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// AuthRequiredError is returned by NewSession when the agent wants
// authentication first (-32000) and listed how.
type AuthRequiredError struct {
	Methods []AuthMethod
	Err     error
}

func (e *AuthRequiredError) Error() string {
	names := make([]string, len(e.Methods))
	for i, m := range e.Methods {
		names[i] = m.ID
		if m.Name != "" && m.Name != m.ID {
			names[i] += " (" + m.Name + ")"
		}
	}
	return "acp: the agent requires authentication first; its methods: " + strings.Join(names, ", ")
}

func (e *AuthRequiredError) Unwrap() error { return e.Err }

// NameValue is an environment variable or an HTTP header of an MCP
// server passed to the agent.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// MCPServer is one entry of session/new's mcpServers: stdio (Command,
// Args, Env) when Type is "", else "http" or "sse" (URL, Headers).
type MCPServer struct {
	Type    string
	Name    string
	Command string
	Args    []string
	Env     []NameValue
	URL     string
	Headers []NameValue
}

// MarshalJSON writes the entry as ACP has it: a stdio entry's args and
// env, and an HTTP entry's headers, are required even when empty.
func (s MCPServer) MarshalJSON() ([]byte, error) {
	orEmpty := func(v []NameValue) []NameValue {
		if v == nil {
			return []NameValue{}
		}
		return v
	}
	if s.Type == "" {
		args := s.Args
		if args == nil {
			args = []string{}
		}
		return json.Marshal(map[string]any{"name": s.Name, "command": s.Command, "args": args, "env": orEmpty(s.Env)})
	}
	return json.Marshal(map[string]any{"type": s.Type, "name": s.Name, "url": s.URL, "headers": orEmpty(s.Headers)})
}

// NewSession opens a session in cwd (made absolute), with the configured
// MCP servers (OpenSession with Cwd alone).
func (c *Client) NewSession(ctx context.Context, cwd string) (string, error) {
	s, err := c.OpenSession(ctx, SessionParams{Cwd: cwd})
	return s.ID, err
}

// openNew runs session/new. If the agent wants authentication first and
// Options.ChooseAuth picks a method, it authenticates and tries once
// more. If ctx ends first the request is abandoned with
// $/cancel_request, and the agent's -32800 is ErrCancelled: cancelled,
// not failed.
func (c *Client) openNew(ctx context.Context, r roots) (Session, error) {
	var s Session
	err := c.signedIn(ctx, func() (err error) {
		s, err = c.newSession(ctx, r)
		return err
	})
	return s, err
}

func (c *Client) newSession(ctx context.Context, r roots) (Session, error) {
	// The session is ours from the moment its result is read (on the read
	// loop), so that what the agent sends for it right after (an update,
	// a question) is not taken for a foreign session's.
	opened := func(raw json.RawMessage) {
		if sid := newSessionID(raw); sid != "" {
			c.mu.Lock()
			c.cwds[sid] = r
			c.mu.Unlock()
		}
	}
	raw, err := c.scopedCall(ctx, MethodSessionNew, c.sessionParams(r), opened)
	if err != nil {
		return Session{}, err
	}
	s := Session{ID: newSessionID(raw)}
	if s.ID == "" {
		return Session{}, fmt.Errorf("acp: session/new: the result has no sessionId")
	}
	s.Modes, s.ConfigOptions = decodeSetup(raw)
	return s, nil
}

// newSessionID is the sessionId of a session/new result; "" if it has
// none.
func newSessionID(raw json.RawMessage) string {
	var res struct {
		SessionID string `json:"sessionId"`
	}
	if err := wire.DecodeExact(raw, &res); err != nil {
		return ""
	}
	return res.SessionID
}

// errForeignSession refuses a request of the agent's in the name of a
// session this connection did not open: nothing of it is asked, read
// or written.
const errForeignSession = "invalid params: sessionId names no session of ours"

// errNoTurn refuses a permission request of a session with no prompt
// turn under way: the tool call it is about belongs to no turn.
const errNoTurn = "invalid params: no prompt turn of this session is under way"

// ours reports whether sid names a session this connection opened.
func (c *Client) ours(sid string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.cwds[sid]
	return ok
}

// Authenticate runs authenticate with one of the agent's methods. If ctx
// ends first it is abandoned with $/cancel_request, as NewSession is.
func (c *Client) Authenticate(ctx context.Context, methodID string) error {
	_, err := c.scopedCall(ctx, MethodAuthenticate, map[string]string{"methodId": methodID}, nil)
	return err
}

// AuthTerminal is the type of an auth method run as a terminal.
const AuthTerminal = "terminal"

// terminalAuth runs a terminal auth method: the agent's command again,
// the method's args appended and env over the agent's, for the person
// (Options.TerminalAuth). ACP: exit 0 is success, and the method never
// goes to authenticate.
func (c *Client) terminalAuth(ctx context.Context, m AuthMethod) error {
	if c.opts.TerminalAuth == nil {
		c.actions.add(c, Action{Method: "auth terminal", Subject: m.ID, Ended: "not run: auth.terminal not declared"})
		return fmt.Errorf("%w: terminal auth method %q (the client did not declare auth.terminal)", ErrNotDeclared, m.ID)
	}
	cmd := exec.CommandContext(ctx, c.opts.Command, append(append([]string(nil), c.opts.Args...), m.Args...)...)
	cmd.Dir = c.opts.Dir
	cmd.Env = append(os.Environ(), c.opts.Env...)
	for k, v := range m.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	err := c.opts.TerminalAuth(ctx, cmd)
	ended := "ok"
	if err != nil {
		ended = "failed: " + err.Error()
	}
	c.actions.add(c, Action{Method: "auth terminal", Subject: m.ID, Ended: ended})
	if err != nil {
		return fmt.Errorf("acp: terminal sign-in %q: %w", m.ID, err)
	}
	return nil
}

// RunInteractive is an Options.TerminalAuth for a process that owns the
// terminal: the command gets our stdin, stdout and stderr.
func RunInteractive(_ context.Context, cmd *exec.Cmd) error {
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}

// scopedCall is a call outside any session that the agent may ask
// questions of (requestId scope): when it returns, those still open are
// ended (answered as abandoned) and waited for, bounded, so that the
// journal is complete.
func (c *Client) scopedCall(ctx context.Context, method string, params any, onResult func(json.RawMessage)) (json.RawMessage, error) {
	raw, id, err := c.peer.callID(ctx, method, params, c.opts.CancelWait, onResult)
	c.endScoped(id)
	waitSettled(&c.scoped, c.opts.CloseWait)
	return raw, err
}

// endScoped ends the open questions scoped to our request id, which has
// ended: nothing is left for them to belong to.
func (c *Client) endScoped(id jsonrpc.ID) {
	if !id.IsValid() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, oq := range c.open {
		if oq.call == id && !oq.claimed {
			oq.cancel(fmt.Errorf("%w: %s ended", errAbandoned, id.Raw()))
		}
	}
}
