package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/elicit-dev/elicit/client/skills"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// The Skills view (the skills extension, SEP-2640): a server's skills as
// their entries declare them, nothing read; Enter opens one, reading its
// SKILL.md into the pager; Esc then shows the skill's files, each with
// its check (verified, a failed one as such, or not read yet), and Enter
// reads and shows one. A file whose check failed is not shown: its
// failure is.

// skillItem is one skill of the list.
type skillItem struct{ sk skills.Skill }

func (s *skillItem) filterFields() filterFields {
	name, desc := s.sk.Meta()
	return filterFields{name, []string{s.sk.URI}, []string{desc}}
}

// skillsMsg carries one server's skills/list.
type skillsMsg struct {
	server string
	items  []skillItem
	err    error
}

// skillFileMsg carries one file read; seq drops those of a skill left.
type skillFileMsg struct {
	seq  int
	uri  string
	read SkillFileRead
	err  error
}

func (skillsMsg) screenMsg()    {}
func (skillFileMsg) screenMsg() {}

// skillFile is one file of the opened skill: as declared, and once read.
type skillFile struct {
	uri     string
	digest  string
	size    int64
	loading bool
	read    *SkillFileRead
	err     error
}

// skillOpen is the opened skill: its files (SKILL.md first), the one
// under the cursor, and the one shown in the pager (-1: the file list).
type skillOpen struct {
	server string
	sk     skills.Skill
	files  []skillFile
	cursor int
	shown  int
	seq    int
	cancel context.CancelFunc
	page   pager
}

type skillsView struct {
	serverLists[skillItem]
	open *skillOpen
	seq  int
}

// The parts of a screen the skills view has.
var _ interface {
	screen
	typist
	updater
	reading
} = (*skillsView)(nil)

func newSkillsView() *skillsView {
	v := &skillsView{}
	v.initLists(listSkills)
	return v
}

func listSkills(eng Engine, ctx context.Context, server string) tea.Msg {
	list, err := eng.Skills(ctx, server)
	items := make([]skillItem, 0, len(list))
	for _, sk := range list {
		items = append(items, skillItem{sk: sk})
	}
	return skillsMsg{server: server, items: items, err: err}
}

func (v *skillsView) typing() bool { return v.open == nil && v.serverLists.typing() }

func (v *skillsView) enter(c *viewCtx) tea.Cmd { return v.serverLists.enter(c) }

func (v *skillsView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case skillsMsg:
		return v.loaded(c, msg.server, msg.items, msg.err)
	case skillFileMsg:
		o := v.open
		if o == nil || o.seq != msg.seq {
			return nil // the person left that skill
		}
		for i := range o.files {
			if f := &o.files[i]; f.uri == msg.uri {
				f.loading, f.err = false, msg.err
				if msg.err == nil {
					r := msg.read
					f.read = &r
				}
			}
		}
		o.page = pager{}
	case eventMsg:
		return v.listEvent(c, msg, "skills", c.onScreen(v))
	}
	return nil
}

// openSkill opens the selected skill and reads its SKILL.md.
func (v *skillsView) openSkill(c *viewCtx) tea.Cmd {
	it := v.selected()
	if it == nil {
		return nil
	}
	v.close()
	v.seq++
	o := &skillOpen{server: v.server, sk: it.sk, seq: v.seq, shown: 0}
	o.files = append(o.files, skillFile{uri: it.sk.URI})
	for _, f := range it.sk.Resources.Files {
		if f.URI == it.sk.URI {
			o.files[0].digest, o.files[0].size = f.Digest, f.Size
			continue
		}
		o.files = append(o.files, skillFile{uri: f.URI, digest: f.Digest, size: f.Size})
	}
	v.open = o
	return v.readFile(c, 0)
}

// readFile reads file i of the opened skill (in a Cmd with its own
// context: leaving the skill cancels it) and shows it in the pager.
func (v *skillsView) readFile(c *viewCtx, i int) tea.Cmd {
	o := v.open
	o.shown, o.page = i, pager{}
	f := &o.files[i]
	if f.read != nil || f.loading {
		return nil
	}
	f.loading, f.err = true, nil
	ctx, cancel := context.WithCancel(c.ctx)
	prev := o.cancel
	o.cancel = func() { cancel(); callIf(prev) }
	eng, server, sk, uri, seq := c.engine, o.server, o.sk, f.uri, o.seq
	return func() tea.Msg {
		defer cancel()
		r, err := eng.ReadSkillFile(ctx, server, sk, uri)
		return skillFileMsg{seq: seq, uri: uri, read: r, err: err}
	}
}

func callIf(f func()) {
	if f != nil {
		f()
	}
}

// close leaves the opened skill, cancelling its reads.
func (v *skillsView) close() {
	if v.open != nil {
		callIf(v.open.cancel)
	}
	v.open = nil
}

func (v *skillsView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	km := c.keys
	if o := v.open; o != nil {
		if o.shown >= 0 {
			if !o.page.typingQuery() && key.Matches(k, km.Back, km.Select) {
				o.shown = -1
				return nil
			}
			cmd, _ := o.page.key(km, k, v.textRows(c))
			return cmd
		}
		switch {
		case key.Matches(k, km.Back):
			v.close()
		case key.Matches(k, km.Up):
			o.cursor = max(o.cursor-1, 0)
		case key.Matches(k, km.Down):
			o.cursor = min(o.cursor+1, len(o.files)-1)
		case key.Matches(k, km.Select):
			return v.readFile(c, o.cursor)
		}
		return nil
	}
	if cmd, ok := v.listKey(c, k); ok {
		return cmd
	}
	if key.Matches(k, km.Select) {
		return v.openSkill(c)
	}
	return nil
}

func (v *skillsView) reading() *pager {
	if v.open == nil || v.open.shown < 0 {
		return nil
	}
	return &v.open.page
}

func (v *skillsView) render(c *viewCtx) string {
	if o := v.open; o != nil {
		if o.shown >= 0 {
			return v.renderFile(c, o, &o.files[o.shown])
		}
		return v.renderFiles(c, o)
	}
	if l := v.current(); l != nil && errors.Is(l.err, skills.ErrNotDeclared) {
		return v.renderTitle(c, skillsWords) + "\n" + c.st.Muted.Render(untrusted.Line(v.server)+" did not declare the skills extension ("+skills.Ext+"): not asked")
	}
	return v.renderList(c, skillsWords, func(it *skillItem, selected bool) string {
		name, desc := it.sk.Meta()
		line := untrusted.Line(orDash(name)) + "  " + c.st.Pane.URL.Render(untrusted.Line(it.sk.URI))
		if it.sk.Resources.Dynamic {
			line += "  " + c.st.List.Badge.Render("dynamic")
		} else {
			line += c.st.Muted.Render(fmt.Sprintf("  %d file(s)", len(it.sk.Resources.Files)))
		}
		if desc != "" {
			line += "  " + c.st.List.Desc.Render(untrusted.Line(desc))
		}
		return listLine(c, line, selected)
	})
}

var skillsWords = listWords{title: "Skills of", hints: "s next server · enter open (reads SKILL.md) · listed, not read",
	noun: "skills", method: "skills/list", none: "this server lists no skills"}

// checkText is a file's check as the view says it, styled.
func checkText(c *viewCtx, f *skillFile) string {
	st := c.st
	switch {
	case f.loading:
		return st.Muted.Render("reading…")
	case f.err != nil:
		return st.Error.Render("read failed: " + errText(f.err))
	case f.read == nil:
		return st.Muted.Render("not read yet")
	}
	var style lipgloss.Style
	switch f.read.Check {
	case skills.Verified:
		style = st.Success
	case skills.Unverifiable:
		style = st.Warning
	default:
		style = st.Error
	}
	return style.Render(string(f.read.Check))
}

func (v *skillsView) renderFiles(c *viewCtx, o *skillOpen) string {
	st := c.st
	name, _ := o.sk.Meta()
	var b strings.Builder
	b.WriteString(st.Title.Render("Skill "+untrusted.Line(orDash(name))+" ") + st.Pane.URL.Render(untrusted.Line(o.sk.URI)) +
		st.Muted.Render("  ("+untrusted.Line(o.server)+"; enter read · esc back)") + "\n")
	if o.sk.Resources.Dynamic {
		b.WriteString(st.Warning.Render("dynamic: the entry declares no files, so none can be verified") + "\n")
	}
	for i := range o.files {
		f := &o.files[i]
		line := st.Pane.URL.Render(untrusted.Line(f.uri))
		if f.digest != "" {
			line += st.Muted.Render(fmt.Sprintf("  %d B  %s", f.size, untrusted.Line(shortDigest(f.digest))))
		}
		line += "  " + checkText(c, f)
		b.WriteString(listLine(c, line, i == o.cursor) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// shortDigest keeps "sha256:" and the first 12 hex digits.
func shortDigest(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12] + "…"
	}
	return d
}

func (v *skillsView) renderFile(c *viewCtx, o *skillOpen, f *skillFile) string {
	st := c.st
	head := st.Title.Render("Skill file ") + st.Pane.URL.Render(untrusted.Line(f.uri)) + "  " + checkText(c, f) +
		st.Muted.Render("  ("+untrusted.Line(o.server)+"; esc the skill's files)")
	switch {
	case f.loading || f.read == nil && f.err == nil:
		return head
	case f.err != nil:
		return head
	case f.read.Check != skills.Verified && f.read.Check != skills.Unverifiable:
		return head + "\n" + st.Error.Render(wrapLine("not shown: it is not what the skill's entry declares: "+untrusted.Line(f.read.Why), c.width-2))
	case f.read.Binary:
		return head + "\n" + st.Muted.Render(fmt.Sprintf("(%d bytes, not text)", f.read.Size))
	}
	rows := v.textRows(c)
	text := f.read.Text
	o.page.set(st, c.width-2, func() string { return untrusted.Text(text) })
	return o.page.headed(st, head, c.width, rows)
}
