package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/cursor"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// A tool's arguments as JSON text: what the form would send, to edit as a
// whole, or to send what no form would (a member the schema does not name,
// a value of another type), which is what testing a server's validation
// takes. Only "is it a JSON object" is required; whether it fits the
// inputSchema is said under the text, and ctrl+s sends it anyway.

// argsJSON is the JSON editor, open instead of the argument form.
type argsJSON struct {
	id   int // from the ids panes and forms use, for tag()
	of   *toolArgs
	ti   *schema.ToolInput // the inputSchema, for the fit line and the form
	area textarea.Model
	note string // why it opened as JSON, if not by the person's choice
	err  string // why the last ctrl+s or ctrl+l was refused
	// parked: a blink of the text area's cursor came while the tools
	// view was hidden and was dropped, which ends its blink loop (two
	// wake-ups a second for nothing on screen); enter starts it again.
	// Unlike a huh field's, this cursor does blink on screen.
	parked bool

	// fit says whether the text fits the inputSchema, drawn for the text
	// fitFor with the styles fitSt.
	fit, fitFor string
	fitSt       *themes.Styles
}

// prefill makes the fields of a freshly parsed ti start from values (a
// field values lacks starts empty, not at its default: that is how the
// call went). It returns what the form cannot hold: values that do not fit
// their field, and members that are no field at all.
func prefill(ti *schema.ToolInput, values map[string]any) []string {
	var misfit []string
	for _, p := range ti.Fields {
		v, ok := values[p.Name]
		if !ok {
			p.Default = nil
			continue
		}
		nv, err := schema.FitValue(p, v)
		if err != nil {
			misfit = append(misfit, err.Error())
			continue
		}
		p.Default = nv
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if ti.Property(k) == nil {
			misfit = append(misfit, strconv.Quote(k)+" is not an argument the form has")
		}
	}
	return misfit
}

// argsText writes values as indented JSON, members in the form's order
// (required first) and then the rest by name.
func argsText(ti *schema.ToolInput, values map[string]any) string {
	var names []string
	for _, p := range ti.Fields {
		if _, ok := values[p.Name]; ok {
			names = append(names, p.Name)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if !slices.Contains(names, k) {
			names = append(names, k)
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		v, err := json.Marshal(values[k])
		if err != nil {
			v = []byte("null")
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return b.String()
	}
	return out.String()
}

// placeholders adds a value of the right kind for each required argument
// values lacks, so the JSON text names every member the call needs.
func placeholders(ti *schema.ToolInput, values map[string]any) {
	for _, p := range ti.Fields {
		if _, ok := values[p.Name]; ok || !p.Required {
			continue
		}
		switch p.Kind {
		case schema.String:
			values[p.Name] = ""
		case schema.Number, schema.Integer:
			values[p.Name] = 0
		case schema.Boolean:
			values[p.Name] = false
		case schema.Enum:
			if len(p.Options) > 0 {
				values[p.Name] = p.Options[0].Value
			}
		case schema.MultiEnum, schema.List:
			values[p.Name] = []any{}
		default:
			values[p.Name] = nil
		}
	}
}

// decodeArgs reads JSON text that must be one object; numbers stay
// json.Number, so big integers are sent as written. A syntax error names
// its line and column.
func decodeArgs(text string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the text is empty: write a JSON object, {} for none")
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(text, se.Offset)
			return nil, fmt.Errorf("line %d, column %d: %s", line, col, se.Error())
		}
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("more follows the object: only one JSON object is sent")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the arguments must be a JSON object, {…}")
	}
	return m, nil
}

// lineCol is the 1-based line and column of the byte a json.SyntaxError
// stopped at (its Offset counts the bytes read, that one included).
func lineCol(text string, off int64) (int, int) {
	head := text[:clamp(int(off)-1, 0, len(text))]
	line := strings.Count(head, "\n") + 1
	return line, len([]rune(head[strings.LastIndexByte(head, '\n')+1:])) + 1
}

// openJSON opens the JSON editor for a with values as its text; note says
// why, when the person did not ask for it.
func (t *toolsView) openJSON(c *viewCtx, a *toolArgs, ti *schema.ToolInput, values map[string]any, note string) tea.Cmd {
	ta := textarea.New()
	ta.MaxHeight = 999           // the line numbers' width; the text is not bounded by it
	ta.MaxContentHeight = 10_000 // …but by this many rows
	ta.Placeholder = "{}"
	ta.SetValue(argsText(ti, values))
	ta.MoveToBegin()
	j := &argsJSON{id: c.newID(), of: a, ti: ti, area: ta, note: note}
	t.json, t.args = j, nil
	j.restyle(c)
	cmd := tag(j.id, j.area.Focus())
	return tea.Batch(cmd, t.resize(c))
}

// formToJSON replaces the argument form by the JSON editor, with what the
// form holds (and a placeholder for each required argument still empty).
func (t *toolsView) formToJSON(c *viewCtx) tea.Cmd {
	a := t.args.of
	values := t.args.form.Values()
	ti, err := schema.ParseToolInput(a.input)
	if err != nil {
		return notice(fmt.Sprintf("%s: bad inputSchema: %v", untrusted.Line(a.tool), err))
	}
	placeholders(ti, values)
	return t.openJSON(c, a, ti, values, "")
}

// jsonKey handles a key in the JSON editor: Esc closes it, ctrl+s calls,
// ctrl+l goes back to the form, ctrl+r toggles the task choice; the rest is
// editing.
func (t *toolsView) jsonKey(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	j, km := t.json, c.keys
	switch {
	case key.Matches(k, km.Back):
		t.json = nil
		return nil
	case k.String() == "ctrl+r" && j.of.optional:
		j.of.asTask = !j.of.asTask
		t.asTask[[2]string{j.of.server, j.of.tool}] = j.of.asTask
		return nil
	case key.Matches(k, km.SendJSON):
		args, err := decodeArgs(j.area.Value())
		if err != nil {
			j.err = "not sent: " + err.Error()
			return nil
		}
		t.json = nil
		return t.start(c, callSpec{server: j.of.server, tool: j.of.tool, args: args, asTask: j.of.asTask, asJSON: true})
	case key.Matches(k, km.ArgsJSON):
		return t.jsonToForm(c)
	}
	return t.jsonUpdate(k)
}

// jsonToForm goes back to the form with the JSON's values, unless the form
// cannot hold them: then it stays, saying which.
func (t *toolsView) jsonToForm(c *viewCtx) tea.Cmd {
	j := t.json
	args, err := decodeArgs(j.area.Value())
	if err != nil {
		j.err = "cannot go back to the form: " + err.Error()
		return nil
	}
	ti, err := schema.ParseToolInput(j.of.input)
	if err != nil {
		return notice(fmt.Sprintf("%s: bad inputSchema: %v", untrusted.Line(j.of.tool), err))
	}
	if misfit := prefill(ti, args); len(misfit) > 0 {
		j.err = "the form cannot hold this (" + misfit[0] + "): change it here, or ctrl+s sends it as it is"
		return nil
	}
	t.json = nil
	return t.openArgs(c, ti, j.of)
}

// jsonUpdate gives msg (a key, a paste, a blink) to the text area.
func (t *toolsView) jsonUpdate(msg tea.Msg) tea.Cmd {
	j := t.json
	var cmd tea.Cmd
	j.area, cmd = j.area.Update(msg)
	if _, isKey := msg.(tea.KeyPressMsg); isKey {
		j.err = ""
	}
	return tag(j.id, cmd)
}

// restyle gives the text area the styles of the terminal's background.
func (j *argsJSON) restyle(c *viewCtx) {
	dark := true
	if bg, ok := c.bg.(tea.BackgroundColorMsg); ok {
		dark = bg.IsDark()
	}
	j.area.SetStyles(textarea.DefaultStyles(dark))
}

// fitLine says whether the text is a JSON object that fits the
// inputSchema; it is worked out again only when the text changed.
func (j *argsJSON) fitLine(c *viewCtx) string {
	text, st := j.area.Value(), c.st
	if j.fitFor != text || j.fitSt != st || j.fit == "" {
		j.fitFor, j.fitSt = text, st
		args, err := decodeArgs(text)
		if err != nil {
			j.fit = st.Warning.Render("not a JSON object yet: " + untrusted.Line(err.Error()))
		} else if err := j.ti.Validate(args); err != nil {
			j.fit = st.Warning.Render("⚠ does not fit the inputSchema: "+untrusted.Line(err.Error())) +
				st.Muted.Render(" (ctrl+s sends it anyway)")
		} else {
			j.fit = st.Muted.Render("✓ fits the inputSchema")
		}
	}
	return j.fit
}

// renderJSON draws the editor: its keys, why it opened, the text, whether
// it fits, and why the last submit was refused.
func (t *toolsView) renderJSON(c *viewCtx) string {
	j, st := t.json, c.st
	var b strings.Builder
	b.WriteString(wrapped(st.Muted, argsHead(j.of, "as JSON: ctrl+s calls · esc closes · ctrl+l the form"), c.width) + "\n")
	if j.note != "" {
		b.WriteString(st.Warning.Render(j.note) + "\n")
	}
	b.WriteString(j.area.View() + "\n")
	b.WriteString(j.fitLine(c))
	if j.err != "" {
		b.WriteString("\n" + st.Error.Render(untrusted.Line(j.err)))
	}
	return b.String()
}

// The screen parts the editor needs besides the form's (argHost): its
// blinks come back tagged, and paste, background and size reach it.

func (t *toolsView) routed(c *viewCtx, msg routedMsg) (tea.Cmd, bool) {
	if j := t.json; j != nil && j.id == msg.id {
		if _, blink := msg.msg.(cursor.BlinkMsg); blink && !c.onScreen(t) {
			j.parked = true
			return nil, true
		}
		return t.jsonUpdate(msg.msg), true
	}
	return t.argHost.routed(c, msg)
}

// enter is serverLists' (the lists load), and restarts the JSON editor's
// cursor blink if it was parked while the view was hidden.
func (t *toolsView) enter(c *viewCtx) tea.Cmd {
	cmd := t.serverLists.enter(c)
	if j := t.json; j != nil && j.parked && c.onScreen(t) {
		j.parked = false
		cmd = tea.Batch(cmd, tag(j.id, j.area.Focus()))
	}
	return cmd
}

func (t *toolsView) paste(c *viewCtx, msg tea.PasteMsg) tea.Cmd {
	if t.json != nil {
		return t.jsonUpdate(msg)
	}
	return t.argHost.paste(c, msg)
}

func (t *toolsView) background(c *viewCtx, msg tea.BackgroundColorMsg) tea.Cmd {
	if t.json != nil {
		t.json.restyle(c)
	}
	return t.argHost.background(c, msg)
}

func (t *toolsView) resize(c *viewCtx) tea.Cmd {
	if j := t.json; j != nil && c.width > 0 {
		j.area.SetWidth(max(c.width-2, 10))
		// The title, the keys line, the note, the fit line and the error.
		j.area.SetHeight(max(c.bodyHeight()-5, 3))
	}
	return t.argHost.resize(c)
}
