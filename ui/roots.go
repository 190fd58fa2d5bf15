package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// The roots view: the roots each server is offered (--root, the config's
// "roots", and what is changed here). a adds a path (made absolute from
// elicit's working directory; it must exist), A adds it to every server,
// d removes the selected root, e renames it; s shows the next server.
// Each change goes to the engine, which tells the server when its session
// declared roots with listChanged (notifications/roots/list_changed); the
// status bar says what became of it for each server.

// rootsMsg carries one server's roots, and which of them are not there.
type rootsMsg struct {
	server  string
	info    client.RootsInfo
	missing map[string]bool // by URI
	err     error
}

// rootSet is what one change did on one server: its roots after it, and
// the engine's word.
type rootSet struct {
	server string
	roots  rootsMsg
	err    error
}

// rootsSetMsg reports a change the person made.
type rootsSetMsg struct {
	what string // "added file:///x", for the status bar
	sets []rootSet
}

// rootRefusedMsg says why the path typed cannot be added; the line stays
// open to fix it.
type rootRefusedMsg struct{ why string }

func (rootsMsg) screenMsg()       {}
func (rootsSetMsg) screenMsg()    {}
func (rootRefusedMsg) screenMsg() {}

// rootEditKind is what the line being typed is for.
type rootEditKind int

const (
	editAdd    rootEditKind = iota // a root for the shown server
	editAddAll                     // a root for every server
	editRename                     // the selected root's name
)

// rootEdit is the line being typed.
type rootEdit struct {
	kind  rootEditKind
	input string
	warn  string // why the last enter did not go through
	busy  bool   // the engine is on it
}

type rootsView struct {
	server string
	roots  map[string]*rootsMsg // the last word per server
	cursor int
	edit   *rootEdit
}

// The parts of a screen the roots view has.
var _ interface {
	screen
	updater
	typist
	paster
} = (*rootsView)(nil)

func newRootsView() *rootsView {
	return &rootsView{roots: map[string]*rootsMsg{}}
}

func (v *rootsView) enter(c *viewCtx) tea.Cmd {
	v.server = firstServer(c.servers, v.server)
	return v.load(c, v.server)
}

func (v *rootsView) typing() bool { return v.edit != nil }

// load asks the engine for a server's roots and looks each up on disk.
func (v *rootsView) load(c *viewCtx, server string) tea.Cmd {
	if server == "" {
		return nil
	}
	eng := c.engine
	return func() tea.Msg { return readRoots(eng, server) }
}

// readRoots is rootsMsg for server, as things stand. It runs in a Cmd: it
// reads the disk.
func readRoots(eng Engine, server string) rootsMsg {
	info, err := eng.Roots(server)
	msg := rootsMsg{server: server, info: info, err: err, missing: map[string]bool{}}
	for _, r := range info.Roots {
		if p, perr := r.Path(); perr != nil || !exists(p) {
			msg.missing[r.URI] = true
		}
	}
	return msg
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func (v *rootsView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case rootsMsg:
		v.roots[msg.server] = &msg
		v.clampCursor()
	case rootsSetMsg:
		return v.set(msg)
	case rootsRecheckMsg:
		return v.load(c, msg.server)
	case rootRefusedMsg:
		if v.edit != nil {
			v.edit.busy, v.edit.warn = false, msg.why
		}
	case eventMsg:
		// A new session may declare what the last did not.
		if e, ok := msg.e.(client.ServerStateChanged); ok && e.Server == v.server && c.onScreen(v) {
			return v.load(c, v.server)
		}
	}
	return nil
}

// set shows what a change did: the roots after it, and a word per server.
func (v *rootsView) set(msg rootsSetMsg) tea.Cmd {
	v.edit = nil
	var words []string
	for _, s := range msg.sets {
		r := s.roots
		v.roots[s.server] = &r
		words = append(words, untrusted.Line(s.server)+" "+setWord(s))
	}
	v.clampCursor()
	// The servers told ask again soon: show their asking when they have.
	server := v.server // read here: the tick runs in a Cmd
	again := tea.Tick(rootsRecheck, func(time.Time) tea.Msg { return rootsRecheckMsg{server: server} })
	return tea.Batch(notice(msg.what+": "+strings.Join(words, "; ")), again)
}

// rootsRecheck is how long after a change the view reads the roots again,
// to show the server's roots/list that the change brought.
const rootsRecheck = time.Second

// rootsRecheckMsg reads a server's roots again.
type rootsRecheckMsg struct{ server string }

func (rootsRecheckMsg) screenMsg() {}

// setWord says what became of a change on one server.
func setWord(s rootSet) string {
	info := s.roots.info
	switch {
	case errors.Is(s.err, client.ErrRootsNotDeclared):
		return "kept; it declared no roots: reconnect it (r in F5)"
	case s.err != nil:
		return "failed: " + errText(s.err)
	case info.ListChanged:
		return "told"
	case info.Declared:
		return "asks when it needs them"
	}
	return "kept for its next connection"
}

func (v *rootsView) clampCursor() {
	v.cursor = clamp(v.cursor, 0, max(len(v.list())-1, 0))
}

// list is the shown server's roots.
func (v *rootsView) list() []client.Root {
	if r := v.roots[v.server]; r != nil {
		return r.info.Roots
	}
	return nil
}

func (v *rootsView) selected() *client.Root {
	l := v.list()
	if v.cursor < 0 || v.cursor >= len(l) {
		return nil
	}
	return &l[v.cursor]
}

func (v *rootsView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	if v.edit != nil {
		return v.typeKey(c, k)
	}
	switch {
	case moveCursor(c.keys, k, &v.cursor, len(v.list()), v.rows(c)):
	case key.Matches(k, c.keys.NextServer):
		v.server, v.cursor = cycleServer(c.servers, v.server), 0
		return v.load(c, v.server)
	case v.server == "":
	case key.Matches(k, c.keys.RootAdd):
		v.edit = &rootEdit{kind: editAdd}
	case key.Matches(k, c.keys.RootAddAll):
		v.edit = &rootEdit{kind: editAddAll}
	case key.Matches(k, c.keys.RootRemove):
		if r := v.selected(); r != nil {
			return v.remove(c, *r)
		}
	case key.Matches(k, c.keys.RootRename):
		if r := v.selected(); r != nil {
			v.edit = &rootEdit{kind: editRename, input: r.Name}
		}
	}
	return nil
}

// typeKey edits the line: enter does it, esc gives up.
func (v *rootsView) typeKey(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	e := v.edit
	if e.busy {
		return nil
	}
	switch k.String() {
	case "esc":
		v.edit = nil
	case "enter":
		return v.commit(c)
	case "backspace":
		if _, n := utf8.DecodeLastRuneInString(e.input); n > 0 {
			e.input = e.input[:len(e.input)-n]
		}
	case "ctrl+u":
		e.input = ""
	default:
		if k.Text != "" {
			e.input += k.Text
		}
	}
	return nil
}

func (v *rootsView) paste(_ *viewCtx, msg tea.PasteMsg) tea.Cmd {
	if v.edit != nil && !v.edit.busy {
		v.edit.input += strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return -1
			}
			return r
		}, msg.Content)
	}
	return nil
}

// commit hands the line to the engine.
func (v *rootsView) commit(c *viewCtx) tea.Cmd {
	e := v.edit
	in := strings.TrimSpace(e.input)
	switch {
	case e.kind == editRename:
		r := v.selected()
		if r == nil {
			v.edit = nil
			return nil
		}
		uri := r.URI
		e.busy = true
		return v.change(c, []string{v.server}, "renamed "+rootLabel(*r)+" to "+orDash(in), func(l []client.Root) []client.Root {
			for i := range l {
				if l[i].URI == uri {
					l[i].Name = in
				}
			}
			return l
		})
	case in == "":
		v.edit = nil
		return nil
	}
	targets := []string{v.server}
	if e.kind == editAddAll {
		targets = targets[:0]
		for _, s := range c.servers {
			targets = append(targets, s.Name)
		}
	}
	e.busy = true
	eng, ctx := c.engine, c.ctx
	return func() tea.Msg {
		root, why := newRoot(in)
		if why != "" {
			return rootRefusedMsg{why: why}
		}
		return applyRoots(eng, ctx, targets, "added "+rootLabel(root), func(l []client.Root) []client.Root {
			if slices.ContainsFunc(l, func(o client.Root) bool { return o.URI == root.URI }) {
				return l
			}
			return append(l, root)
		})
	}
}

// newRoot makes a root of what was typed: a path (absolute from elicit's
// working directory) or a file:// URI, named after its last element. It
// must exist. It runs in a Cmd: it reads the disk.
func newRoot(in string) (client.Root, string) {
	r, err := client.RootFor(in, "", "")
	if err != nil {
		return r, err.Error()
	}
	p, err := r.Path()
	if err != nil {
		return r, err.Error()
	}
	if !exists(p) {
		return r, p + " does not exist: type a path that does (relative ones are from " + cwd() + ")"
	}
	if b := filepath.Base(p); b != string(filepath.Separator) {
		r.Name = b
	}
	return r, ""
}

func cwd() string {
	d, err := os.Getwd()
	if err != nil {
		return "elicit's directory"
	}
	return d
}

// remove takes a root off the shown server's list.
func (v *rootsView) remove(c *viewCtx, r client.Root) tea.Cmd {
	return v.change(c, []string{v.server}, "removed "+rootLabel(r), func(l []client.Root) []client.Root {
		return slices.DeleteFunc(l, func(o client.Root) bool { return o.URI == r.URI })
	})
}

// change applies edit to each target's roots in a Cmd.
func (v *rootsView) change(c *viewCtx, targets []string, what string, edit func([]client.Root) []client.Root) tea.Cmd {
	eng, ctx := c.engine, c.ctx
	return func() tea.Msg { return applyRoots(eng, ctx, targets, what, edit) }
}

// applyRoots reads each target's roots as they are now, edits them and
// sets them; an edit that changes nothing is not sent.
func applyRoots(eng Engine, ctx context.Context, targets []string, what string, edit func([]client.Root) []client.Root) rootsSetMsg {
	msg := rootsSetMsg{what: what}
	for _, server := range targets {
		info, err := eng.Roots(server)
		if err == nil {
			before := slices.Clone(info.Roots)
			after := edit(slices.Clone(info.Roots))
			if !slices.Equal(before, after) {
				err = eng.SetRoots(ctx, server, after)
			}
		}
		msg.sets = append(msg.sets, rootSet{server: server, roots: readRoots(eng, server), err: err})
	}
	return msg
}

func (v *rootsView) rows(c *viewCtx) int { return max(c.bodyHeight()-3, 1) }

func (v *rootsView) render(c *viewCtx) string {
	st := c.st
	var b strings.Builder
	b.WriteString(st.Title.Render("Roots of "+untrusted.Line(orDash(v.server))) +
		st.Muted.Render("   a add · A all · d remove · e rename · s server") + "\n")
	r := v.roots[v.server]
	switch {
	case v.server == "":
		b.WriteString(st.Muted.Render("no servers"))
		return b.String()
	case r == nil:
		b.WriteString(st.Muted.Render("loading roots…"))
		return b.String()
	case r.err != nil:
		b.WriteString(st.Error.Render("roots: " + errText(r.err)))
		return b.String()
	}
	b.WriteString(st.Muted.Render(v.stateLine(c, r)) + "\n")
	rows := v.rows(c)
	if v.edit != nil {
		rows = max(rows-2, 1)
	}
	list := r.info.Roots
	if len(list) == 0 {
		b.WriteString(st.Muted.Render("no roots: a adds one (a path; relative ones are from " + untrusted.Line(cwd()) + ")"))
	}
	lo := listTop(v.cursor, rows, len(list))
	width := 0
	for _, rt := range list {
		width = max(width, utf8.RuneCountInString(untrusted.Line(rt.Name)))
	}
	for i := lo; i < min(lo+rows, len(list)); i++ {
		rt := list[i]
		name := untrusted.Line(rt.Name)
		line := st.Text.Render(name+strings.Repeat(" ", width-utf8.RuneCountInString(name))) + "  " + untrusted.Line(rt.URI)
		if r.missing[rt.URI] {
			line += st.Warning.Render("  ⚠ not found")
		}
		b.WriteString(listLine(c, line, i == v.cursor) + "\n")
	}
	if e := v.edit; e != nil {
		b.WriteString("\n" + v.editLine(c, e))
	}
	return strings.TrimRight(b.String(), "\n")
}

// stateLine says how the server is offered its roots.
func (v *rootsView) stateLine(c *viewCtx, r *rootsMsg) string {
	info := r.info
	var s string
	switch {
	case !v.connected(c):
		s = "not connected: changes are kept for the next connection"
	case !info.Declared:
		s = "not declared: changes reach it after a reconnect"
	case info.ListChanged:
		s = "listChanged: changes are sent as roots/list_changed"
	default:
		s = "2026-07-28: the server asks when it needs them"
	}
	if info.Asked > 0 {
		s += fmt.Sprintf(" · asked %d×, %s ago", info.Asked, shortDur(c.now().Sub(info.LastAsked)))
	}
	return s
}

func (v *rootsView) connected(c *viewCtx) bool {
	for _, s := range c.servers {
		if s.Name == v.server {
			return s.State == client.StateReady
		}
	}
	return false
}

// editLine is the line being typed, and why the last try failed.
func (v *rootsView) editLine(c *viewCtx, e *rootEdit) string {
	st := c.st
	var label string
	switch e.kind {
	case editAdd:
		label = "add a root to " + untrusted.Line(v.server) + ": "
	case editAddAll:
		label = "add a root to every server: "
	case editRename:
		label = "name: "
	}
	hint := "  enter add · esc back"
	if e.kind == editRename {
		hint = "  enter rename (empty: no name) · esc back"
	}
	if e.busy {
		hint = "  …"
	}
	line := st.Title.Render(label) + untrusted.Line(e.input) + "▏" + st.Muted.Render(hint)
	if e.warn != "" {
		line += "\n" + st.Warning.Render("⚠ "+untrusted.Line(e.warn))
	}
	return line
}

// rootLabel names a root in the status bar: its path, or its URI.
func rootLabel(r client.Root) string {
	if p, err := r.Path(); err == nil {
		return untrusted.Line(p)
	}
	return untrusted.Line(r.URI)
}
