package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// settingsTimeout bounds set_mode and set_config_option from the TUI.
const settingsTimeout = 30 * time.Second

// sessionSettings are a session's modes and config options.
type sessionSettings struct {
	modes  *acp.ModeState
	config []acp.ConfigOption
}

func settingsOf(s acp.Session) sessionSettings {
	return sessionSettings{modes: s.Modes, config: s.ConfigOptions}
}

// status puts the settings in an agent's line, the agent's text masked.
func (s sessionSettings) status(st *ui.AgentStatus, sec *redact.Secrets) {
	if s.modes != nil {
		st.Mode = sec.String(s.modes.CurrentModeID)
		for _, m := range s.modes.AvailableModes {
			st.Modes = append(st.Modes, ui.AgentMode{ID: sec.String(m.ID), Name: sec.String(m.Name)})
		}
	}
	for _, o := range s.config {
		c := ui.AgentConfig{ID: sec.String(o.ID), Name: sec.String(o.Name), Type: o.Type}
		switch o.Type {
		case "boolean":
			var b bool
			_ = json.Unmarshal(o.CurrentValue, &b)
			c.Value = fmt.Sprint(b)
		default:
			var v string
			_ = json.Unmarshal(o.CurrentValue, &v)
			c.Value = sec.String(v)
			c.Values = selectValues(o.Options, sec)
		}
		st.Config = append(st.Config, c)
	}
}

// selectValues are a select's value ids, flat or in groups.
func selectValues(raw json.RawMessage, sec *redact.Secrets) []string {
	var items []struct {
		Value   *string `json:"value"`
		Options []struct {
			Value string `json:"value"`
		} `json:"options"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []string
	for _, it := range items {
		if it.Value != nil {
			out = append(out, sec.String(*it.Value))
		}
		for _, o := range it.Options {
			out = append(out, sec.String(o.Value))
		}
	}
	return out
}

// settingsUpdate keeps what current_mode_update and config_option_update
// say (on the read loop: it only sets fields).
func (h *Hub) settingsUpdate(name string, u acp.Update) {
	if u.Kind != acp.UpdateMode && u.Kind != acp.UpdateConfigOptions || !u.Known {
		return
	}
	h.set(name, func(a *agentConn) {
		if a == nil {
			return
		}
		switch {
		case u.Kind == acp.UpdateMode && a.settings.modes != nil:
			m := *a.settings.modes
			m.CurrentModeID = u.ModeID
			a.settings.modes = &m
		case u.Kind == acp.UpdateConfigOptions:
			a.settings.config = u.ConfigOptions
		}
	})
}

// AgentSetMode implements ui.AgentEngine.
func (h *Hub) AgentSetMode(name, modeID string) error {
	c, _, sid, err := h.session(name)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), settingsTimeout)
	defer cancel()
	if err := c.SetMode(ctx, sid, modeID); err != nil {
		return err
	}
	h.settingsUpdate(name, acp.Update{Kind: acp.UpdateMode, Known: true, ModeID: modeID})
	return nil
}

// AgentSetConfig implements ui.AgentEngine: "true"/"false" go to a
// boolean option as booleans.
func (h *Hub) AgentSetConfig(name, configID, value string) error {
	c, _, sid, err := h.session(name)
	if err != nil {
		return err
	}
	h.mu.Lock()
	opts := h.agents[name].settings.config
	h.mu.Unlock()
	v, err := configValue(opts, configID, value)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), settingsTimeout)
	defer cancel()
	got, err := c.SetConfigOption(ctx, sid, configID, v)
	if err != nil {
		return err
	}
	h.settingsUpdate(name, acp.Update{Kind: acp.UpdateConfigOptions, Known: true, ConfigOptions: got})
	return nil
}

// terminalTail is how much of a terminal's output the TUI is given: a
// full-screen pane's worth (the client keeps up to outputByteLimit).
const terminalTail = 16 << 10

// AgentTerminals implements ui.AgentEngine: the session's terminals,
// the secrets masked.
func (h *Hub) AgentTerminals(name string) []ui.AgentTerminal {
	c, _, sid, err := h.session(name)
	if err != nil {
		return nil
	}
	var out []ui.AgentTerminal
	for _, t := range c.Terminals(terminalTail) {
		if t.SessionID != sid {
			continue
		}
		out = append(out, ui.AgentTerminal{ID: t.ID, Command: h.secrets.String(t.Command), Output: h.secrets.String(t.Output),
			Exited: t.Exited, Ended: t.Ended})
	}
	return out
}

// AgentKillTerminal implements ui.AgentEngine.
func (h *Hub) AgentKillTerminal(name, id string) error {
	c, _, _, err := h.session(name)
	if err != nil {
		return err
	}
	if !c.KillTerminal(id) {
		return fmt.Errorf("terminal %s is not running", id)
	}
	return nil
}
