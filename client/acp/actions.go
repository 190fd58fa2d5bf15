package acp

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// Action is one request of ours beyond the prompt turn (session/load,
// list, resume, close, delete, set_mode, set_config_option, logout) or
// one of the agent's that does something rather than ask (a terminal),
// as it ended: the journal of what is not a question.
type Action struct {
	Method    string `json:"method"`
	SessionID string `json:"sessionId,omitempty"`
	// Subject names what it acted on (a terminal's id and command).
	Subject string `json:"subject,omitempty"`
	// Ended says how: "ok", "error -32002: …", "cancelled", "not sent: …",
	// "killed by the person"…
	Ended string    `json:"ended"`
	At    time.Time `json:"at"`
}

// MaxActions bounds the actions a Client keeps (the oldest go first).
const MaxActions = 1000

// actionLog keeps the latest MaxActions actions.
type actionLog struct {
	mu   sync.Mutex
	list []Action
}

func (l *actionLog) add(c *Client, a Action) {
	if a.At.IsZero() {
		a.At = time.Now()
	}
	l.mu.Lock()
	if len(l.list) == MaxActions {
		l.list = append(l.list[:0], l.list[1:]...)
	}
	l.list = append(l.list, a)
	l.mu.Unlock()
	if c.opts.OnAction != nil {
		c.opts.OnAction(a)
	}
}

// ended records a call of ours as err says it ended.
func (l *actionLog) ended(c *Client, method, sid string, err error) {
	l.add(c, Action{Method: method, SessionID: sid, Ended: endedText(err)})
}

// endedText words how a call ended.
func endedText(err error) string {
	var re *RPCError
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, ErrCancelled):
		return "cancelled"
	case errors.As(err, &re):
		return fmt.Sprintf("error %d: %s", re.Err.Code, re.Err.Message)
	}
	return "failed: " + err.Error()
}

// Actions are the actions so far, oldest first.
func (c *Client) Actions() []Action {
	c.actions.mu.Lock()
	defer c.actions.mu.Unlock()
	return append([]Action(nil), c.actions.list...)
}
