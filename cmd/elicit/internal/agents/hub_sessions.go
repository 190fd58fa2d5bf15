package agents

import (
	"context"
	"fmt"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/ui"
)

// The session list of the TUI (alt+l): session/list, load, resume and
// delete on an agent's client, each behind the agent's capability (the
// client refuses what is not declared, as an action).

// can is which session methods c's agent declares.
func can(c *acp.Client) ui.AgentCan {
	if c == nil {
		return ui.AgentCan{}
	}
	k := c.Capabilities()
	return ui.AgentCan{List: k.List, Load: k.LoadSession, Resume: k.Resume, Delete: k.Delete}
}

// uiAction is an action for the transcript, the secrets masked.
func (h *Hub) uiAction(a acp.Action) ui.AgentUpdate {
	return ui.AgentUpdate{Kind: "elicit/action", Action: &ui.AgentAction{Method: a.Method, SessionID: h.secrets.String(a.SessionID),
		Subject: h.secrets.String(a.Subject), Ended: h.secrets.String(a.Ended)}}
}

// AgentSessions implements ui.AgentEngine: every session of the agent's,
// in any cwd.
func (h *Hub) AgentSessions(name string) ([]ui.AgentSession, error) {
	c, _, _, err := h.session(name)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), settingsTimeout)
	defer cancel()
	list, err := c.ListSessions(ctx, "")
	out := make([]ui.AgentSession, 0, len(list))
	for _, s := range list {
		out = append(out, ui.AgentSession{ID: h.secrets.String(s.SessionID), Cwd: h.secrets.String(s.Cwd),
			Title: h.secrets.String(s.Title), UpdatedAt: h.secrets.String(s.UpdatedAt)})
	}
	return out, err
}

// AgentOpenSession implements ui.AgentEngine: session/load (the history
// replayed through OnUpdate before it answers) or session/resume, in the
// agent's cwd; opened, it is the agent's session and the one before is
// closed when the agent declares session/close.
func (h *Hub) AgentOpenSession(name, id string, load bool) error {
	c, _, old, err := h.session(name)
	if err != nil {
		return err
	}
	h.mu.Lock()
	cwd := h.agents[name].cwd
	h.mu.Unlock()
	p := acp.SessionParams{Cwd: cwd, Resume: id}
	if load {
		p = acp.SessionParams{Cwd: cwd, Load: id}
	}
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	sess, err := c.OpenSession(ctx, p)
	if err != nil {
		return err
	}
	h.set(name, func(a *agentConn) {
		if a != nil && a.c == c {
			a.sid, a.settings = sess.ID, settingsOf(sess)
		}
	})
	if old != "" && old != sess.ID && c.Capabilities().Close {
		// Its ending is an action like any other; a refusal leaves the
		// new session open all the same.
		_ = c.CloseSession(ctx, old)
	}
	return nil
}

// AgentDeleteSession implements ui.AgentEngine. The session open is not
// deleted: the agent would be left without one.
func (h *Hub) AgentDeleteSession(name, id string) error {
	c, _, sid, err := h.session(name)
	if err != nil {
		return err
	}
	if id == sid {
		return fmt.Errorf("session %s is the one open: load or resume another first", id)
	}
	ctx, cancel := context.WithTimeout(context.Background(), settingsTimeout)
	defer cancel()
	return c.DeleteSession(ctx, id)
}
