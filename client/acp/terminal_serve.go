package acp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The options of a terminal question.
const (
	TerminalAllow  = "run"
	TerminalReject = "skip"
)

// The ways a terminal is ended by us, as its Action says.
const (
	KilledByPerson  = "killed by the person"
	KilledAtTurnEnd = "killed at the end of the turn"
	KilledAtClose   = "killed when the connection closed"
	Released        = "released by the agent"
	KilledByAgent   = "killed by the agent"
)

type terminalParams struct {
	SessionID       string      `json:"sessionId"`
	TerminalID      string      `json:"terminalId"`
	Command         string      `json:"command"`
	Args            []string    `json:"args"`
	Env             []NameValue `json:"env"`
	Cwd             *string     `json:"cwd"`
	OutputByteLimit *int64      `json:"outputByteLimit"`
}

// parseTerminal turns terminal/create into the question asked first: a
// permission (allow_once "run", reject_once "skip") whose tool call is
// an execute of the command line, in its directory.
func (c *Client) parseTerminal(q *question.Question, params json.RawMessage) (*terminalRun, *question.ParamsError) {
	q.Kind, q.Mode = question.KindPermission, question.ModeForm
	var p terminalParams
	if err := wire.DecodeExact(params, &p); err != nil {
		return nil, &question.ParamsError{Msg: "invalid params: " + err.Error()}
	}
	q.Origin = question.Origin{Kind: question.OriginTurn, SessionID: p.SessionID, Name: "run " + p.Command}
	c.mu.Lock()
	r, ok := c.cwds[p.SessionID]
	c.mu.Unlock()
	switch {
	case !ok:
		return nil, &question.ParamsError{Msg: errForeignSession}
	case p.Command == "":
		return nil, &question.ParamsError{Msg: "invalid params: command is required"}
	case p.OutputByteLimit != nil && *p.OutputByteLimit < 0:
		return nil, &question.ParamsError{Msg: "invalid params: outputByteLimit must not be negative"}
	}
	run := &terminalRun{session: p.SessionID, command: p.Command, args: p.Args, dir: r.cwd, limit: MaxTerminalBytes}
	if p.OutputByteLimit != nil && *p.OutputByteLimit < MaxTerminalBytes {
		run.limit = int(*p.OutputByteLimit)
	}
	if p.Cwd != nil && *p.Cwd != "" {
		if !filepath.IsAbs(*p.Cwd) {
			return nil, &question.ParamsError{Msg: "invalid params: cwd must be absolute"}
		}
		real, err := filepath.EvalSymlinks(filepath.Clean(*p.Cwd))
		if err != nil {
			return nil, &question.ParamsError{Msg: "invalid params: cwd: " + err.Error()}
		}
		if _, e := r.place(real); e != nil && real != mustResolve(r.cwd) {
			return nil, &question.ParamsError{Msg: "invalid params: cwd outside the session's working directory and additional directories"}
		}
		run.dir = real
	}
	// The request's env over ours: the agent runs with ours already.
	run.env = os.Environ()
	names := make([]string, 0, len(p.Env))
	for _, e := range p.Env {
		run.env = append(run.env, e.Name+"="+e.Value)
		names = append(names, e.Name)
	}
	line := strings.Join(append([]string{p.Command}, p.Args...), " ")
	input := map[string]any{"command": p.Command, "args": p.Args, "cwd": run.dir}
	if len(names) > 0 {
		// Names only: values may be secrets, and the person decides on
		// the command.
		input["env"] = names
	}
	tc, _ := json.Marshal(map[string]any{
		"toolCallId": MethodTerminalCreate + "#" + q.Key.RequestID.Raw(),
		"title":      "Run " + line, "kind": "execute", "status": "pending",
		"locations": []map[string]string{{"path": run.dir}},
		"rawInput":  input,
	})
	q.Message = "Run " + line + " in " + run.dir
	q.Permission = &question.Permission{ToolCall: tc, Options: []question.PermissionOption{
		{ID: TerminalAllow, Name: "Run it", Kind: question.OptionAllowOnce},
		{ID: TerminalReject, Name: "Do not run", Kind: question.OptionRejectOnce},
	}}
	return run, nil
}

// mustResolve is path with its symbolic links resolved, or path.
func mustResolve(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// startTerminal starts an allowed terminal and keeps it under a new id.
func (c *Client) startTerminal(run *terminalRun) (string, error) {
	c.mu.Lock()
	if len(c.terminals) >= MaxTerminals {
		c.mu.Unlock()
		return "", fmt.Errorf("%d terminals are held already (release one first)", MaxTerminals)
	}
	c.nextTerminal++
	seq := c.nextTerminal
	id := fmt.Sprintf("term_%d", seq)
	c.mu.Unlock()
	t, err := run.start(id)
	if err != nil {
		return "", err
	}
	t.seq = seq
	c.mu.Lock()
	c.terminals[id] = t
	c.mu.Unlock()
	c.actions.add(c, Action{Method: MethodTerminalCreate, SessionID: run.session, Subject: id + " " + t.what, Ended: "started"})
	c.handlers.Add(1)
	go func() {
		defer c.handlers.Done()
		<-t.exited
		c.actions.add(c, Action{Method: "terminal", SessionID: t.session, Subject: id + " " + t.what, Ended: t.endedText()})
	}()
	return id, nil
}

// terminalOf is the session's terminal the params name.
func (c *Client) terminalOf(params json.RawMessage) (*terminal, *jsonrpc.Error) {
	var p terminalParams
	if err := wire.DecodeExact(params, &p); err != nil {
		return nil, fsError(jsonrpc.CodeInvalidParams, "invalid params: %v", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.cwds[p.SessionID]; !ok {
		return nil, fsError(jsonrpc.CodeInvalidParams, errForeignSession)
	}
	t := c.terminals[p.TerminalID]
	if t == nil || t.session != p.SessionID {
		return nil, fsError(CodeResourceNotFound, "resource not found: no terminal %q in this session", p.TerminalID)
	}
	return t, nil
}

// serveTerminal answers terminal/output, wait_for_exit, kill and
// release. ctx ends on $/cancel_request (wait_for_exit is the one that
// waits), the turn stopping, or shutdown: answered -32800.
func (c *Client) serveTerminal(ctx context.Context, m *jsonrpc.Message) {
	t, e := c.terminalOf(m.Params)
	var result any
	if e == nil {
		switch m.Method {
		case MethodTerminalOutput:
			result = t.output()
		case MethodTerminalWait:
			if err := t.waitExit(ctx); err != nil {
				e = jsonrpc.NewError(CodeRequestCancelled, question.MsgRequestCancelled, nil)
				break
			}
			result, _ = t.status()
		case MethodTerminalKill:
			t.kill(KilledByAgent)
			result = map[string]any{}
		case MethodTerminalRelease:
			c.mu.Lock()
			delete(c.terminals, t.id)
			c.mu.Unlock()
			t.close(Released)
			result = map[string]any{}
		}
	}
	var raw json.RawMessage
	if e == nil {
		raw, _ = json.Marshal(result)
	}
	if err := c.peer.Respond(m.ID, raw, e); err != nil {
		c.stderr(fmt.Sprintf("acp: %s %s: the answer could not be sent: %v", m.Method, m.ID.Raw(), err))
	}
}

// KillTerminal kills a terminal's command for the person (a UI's key);
// the agent still reads its output until it releases it.
func (c *Client) KillTerminal(id string) bool {
	c.mu.Lock()
	t := c.terminals[id]
	c.mu.Unlock()
	return t != nil && t.kill(KilledByPerson)
}

// TerminalOutput is a terminal's output kept so far (a UI's pane).
func (c *Client) TerminalOutput(id string) (output string, truncated, exited bool) {
	c.mu.Lock()
	t := c.terminals[id]
	c.mu.Unlock()
	if t == nil {
		return "", false, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.out), t.truncated, t.done()
}

// killTerminals kills the session's terminals ("" for all), saying why;
// close also frees them (the connection ends).
func (c *Client) killTerminals(session, why string, free bool) {
	c.mu.Lock()
	var ts []*terminal
	for id, t := range c.terminals {
		if session == "" || t.session == session {
			ts = append(ts, t)
			if free {
				delete(c.terminals, id)
			}
		}
	}
	c.mu.Unlock()
	for _, t := range ts {
		if free {
			t.close(why)
		} else {
			t.kill(why)
		}
	}
}

// serveTerminalRequest serves a terminal request other than create in a
// goroutine of its own, open (c.open) so that $/cancel_request, the
// turn's Stop or shutdown end a wait_for_exit with -32800.
func (c *Client) serveTerminalRequest(m *jsonrpc.Message, session string) {
	ctx, cancel := context.WithCancelCause(c.base)
	c.mu.Lock()
	if _, dup := c.open[m.ID]; dup {
		c.mu.Unlock()
		cancel(nil)
		_ = c.peer.Respond(m.ID, nil, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "request id already in use", nil))
		return
	}
	c.open[m.ID] = &openQuestion{session: session, cancel: cancel}
	c.mu.Unlock()
	c.handlers.Add(1)
	go func() {
		defer c.handlers.Done()
		defer cancel(nil)
		c.serveTerminal(ctx, m)
		c.mu.Lock()
		delete(c.open, m.ID)
		c.mu.Unlock()
	}()
}

// TerminalInfo is one terminal of the agent's, as a UI shows it.
type TerminalInfo struct {
	ID, SessionID, Command string
	// Output is the output kept (at most the last tail bytes asked for,
	// from a character boundary); Truncated says more came before.
	Output    string
	Truncated bool
	// Exited is set once the command ended; Ended says how.
	Exited bool
	Ended  string
}

// Terminals are the agent's terminals not yet released, oldest first,
// each with at most the last tail bytes of its output.
func (c *Client) Terminals(tail int) []TerminalInfo {
	c.mu.Lock()
	ts := make([]*terminal, 0, len(c.terminals))
	for _, t := range c.terminals {
		ts = append(ts, t)
	}
	c.mu.Unlock()
	slices.SortFunc(ts, func(a, b *terminal) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]TerminalInfo, 0, len(ts))
	for _, t := range ts {
		t.mu.Lock()
		b := t.out
		cut := t.truncated
		if len(b) > tail {
			n := len(b) - tail
			for n < len(b) && !utf8.RuneStart(b[n]) {
				n++
			}
			b, cut = b[n:], true
		}
		info := TerminalInfo{ID: t.id, SessionID: t.session, Command: t.what, Output: string(b), Truncated: cut}
		t.mu.Unlock()
		if info.Exited = t.done(); info.Exited {
			info.Ended = t.endedText()
		}
		out = append(out, info)
	}
	return out
}
