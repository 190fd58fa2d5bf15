package ui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/themes/untrusted"
)

// agentPicker is the agent view's mode and config picker (alt+m): one
// row for the mode and one per config option; ←→ choose a value, enter
// sets it (session/set_mode, session/set_config_option), esc closes.
type agentPicker struct {
	open bool
	row  int
	// pick is the value chosen on each row, by row: an index into its
	// values (the current one until changed).
	pick map[int]int
}

// pickRow is one row of the picker.
type pickRow struct {
	label, id string
	mode      bool
	values    []string
	current   int
}

// pickRows are the rows the agent's session offers.
func pickRows(a AgentStatus) []pickRow {
	var rows []pickRow
	if len(a.Modes) > 0 {
		r := pickRow{label: "mode", mode: true}
		for _, m := range a.Modes {
			r.values = append(r.values, m.ID)
		}
		r.current = max(slices.Index(r.values, a.Mode), 0)
		rows = append(rows, r)
	}
	for _, o := range a.Config {
		r := pickRow{label: o.Name, id: o.ID, values: o.Values}
		if o.Type == "boolean" {
			r.values = []string{"false", "true"}
		}
		if len(r.values) == 0 {
			continue // a type we cannot set
		}
		r.current = max(slices.Index(r.values, o.Value), 0)
		rows = append(rows, r)
	}
	return rows
}

// pickerKey handles a key while the picker is open.
func (v *agentView) pickerKey(c *viewCtx, a AgentStatus, k tea.KeyPressMsg) tea.Cmd {
	p := &v.picker
	rows := pickRows(a)
	if len(rows) == 0 || key.Matches(k, c.keys.AgentStop) {
		p.open = false
		return nil
	}
	p.row = min(p.row, len(rows)-1)
	r := rows[p.row]
	cur, ok := p.pick[p.row]
	if !ok {
		cur = r.current
	}
	switch k.Code {
	case tea.KeyUp:
		p.row = (p.row - 1 + len(rows)) % len(rows)
	case tea.KeyDown, tea.KeyTab:
		p.row = (p.row + 1) % len(rows)
	case tea.KeyLeft:
		p.pick[p.row] = (cur - 1 + len(r.values)) % len(r.values)
	case tea.KeyRight, tea.KeySpace:
		p.pick[p.row] = (cur + 1) % len(r.values)
	case tea.KeyEnter:
		p.open = false
		eng, name, value := c.engine, a.Name, r.values[cur]
		return func() tea.Msg {
			var err error
			what := r.label + " " + value
			if r.mode {
				err = eng.AgentSetMode(name, value)
			} else {
				err = eng.AgentSetConfig(name, r.id, value)
			}
			if err != nil {
				return noticeMsg(untrusted.Line(what) + ": " + err.Error())
			}
			return noticeMsg(untrusted.Line(what) + ": set")
		}
	}
	return nil
}

// pickerLines draw the picker in place of the prompt box.
func (v *agentView) pickerLines(c *viewCtx, a AgentStatus) []string {
	st := c.st
	out := []string{st.Title.Render("Mode and config") + st.Muted.Render("  ↑↓ row  ←→ value  enter set  esc close")}
	for i, r := range pickRows(a) {
		cur, ok := v.picker.pick[i]
		if !ok {
			cur = r.current
		}
		mark := "  "
		style := st.Text
		if i == v.picker.row {
			mark, style = "▸ ", st.Title
		}
		line := fmt.Sprintf("%s%s: ‹%s›", mark, untrusted.Line(r.label), untrusted.Line(r.values[cur]))
		if cur != r.current {
			line += st.Muted.Render(" (now " + untrusted.Line(r.values[r.current]) + ")")
		}
		out = append(out, ansi.Truncate(style.Render(line), c.width, "…"))
	}
	return out
}
