package ui

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// resourcesMsg carries one server's resources/list and, after them, its
// resources/templates/list; tmplErr is why the templates are missing.
type resourcesMsg struct {
	server  string
	items   []resourceItem
	err     error
	tmplErr error
}

// resourceReadMsg carries a resources/read result; seq drops the results
// of reads the person has left.
type resourceReadMsg struct {
	seq      int
	contents []wire.ResourceContents
	err      error
}

// resourceRead is the resource being read or shown.
type resourceRead struct {
	seq      int
	server   string
	res      wire.Resource
	cancel   context.CancelFunc
	loading  bool
	contents []wire.ResourceContents
	err      error
	page     pager
}

// resourcesView lists a server's resources, then its resource templates;
// Enter reads a resource, or fills a template's variables in a form and
// reads what it expands to (resources_templates.go).
type resourcesView struct {
	serverLists[resourceItem]
	argHost[wire.ResourceTemplate]
	read *resourceRead // nil: the list is shown
	seq  int
	// marks are the subscriptions and updates per server
	// (resources_subs.go).
	marks map[string]*resourceMarks
}

func (resourcesMsg) screenMsg()    {}
func (resourceReadMsg) screenMsg() {}

// The parts of a screen the resources view has.
var _ interface {
	screen
	typist
	router
	paster
	backgrounder
	resizer
	updater
} = (*resourcesView)(nil)

func newResourcesView() *resourcesView {
	r := &resourcesView{}
	r.initLists(listResources)
	r.submit = func(c *viewCtx, tp wire.ResourceTemplate, content map[string]any) tea.Cmd {
		return r.expandRead(c, tp, content)
	}
	r.completes = func(tp wire.ResourceTemplate) (string, wire.CompleteRef) {
		return r.server, wire.CompleteRef{Type: wire.RefResource, URI: tp.URITemplate}
	}
	return r
}

// typing: the template form's fields, or the list's filter, take the keys.
func (r *resourcesView) typing() bool { return r.argHost.typing() || r.serverLists.typing() }

// enter loads the shown server's list and sizes a form left open.
func (r *resourcesView) enter(c *viewCtx) tea.Cmd {
	return tea.Batch(r.serverLists.enter(c), r.resize(c))
}

func (r *resourcesView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	subs, took := r.subsUpdate(c, msg)
	if _, ev := msg.(eventMsg); took && !ev {
		return subs
	}
	switch msg := msg.(type) {
	case resourcesMsg:
		cmd := r.loaded(c, msg.server, msg.items, msg.err)
		if msg.tmplErr != nil && msg.err == nil {
			cmd = tea.Batch(cmd, notice("resources/templates/list of "+untrusted.Line(msg.server)+" failed: "+errText(msg.tmplErr)))
		}
		return cmd
	case resourceReadMsg:
		r.readDone(msg)
	case eventMsg:
		return tea.Batch(subs, r.listEvent(c, msg, "resources", c.onScreen(r)))
	}
	return nil
}

// open reads the selected resource, or opens the selected template's
// form.
func (r *resourcesView) open(c *viewCtx) tea.Cmd {
	it := r.selected()
	if it == nil {
		return nil
	}
	if it.tmpl != nil {
		return r.openTemplate(c, *it.tmpl)
	}
	return r.readURI(c, it.res)
}

// readURI reads res in a Cmd with its own context, so leaving the view
// cancels the read.
func (r *resourcesView) readURI(c *viewCtx, res wire.Resource) tea.Cmd {
	if m := r.marks[r.server]; m != nil {
		delete(m.updated, res.URI)
	}
	if r.read != nil && r.read.loading {
		r.read.cancel()
	}
	r.seq++
	ctx, cancel := context.WithCancel(c.ctx)
	rd := &resourceRead{seq: r.seq, server: r.server, res: res, cancel: cancel, loading: true}
	r.read = rd
	eng, seq, server, uri := c.engine, rd.seq, rd.server, rd.res.URI
	return func() tea.Msg {
		defer cancel()
		contents, err := eng.ReadResource(ctx, server, uri)
		return resourceReadMsg{seq: seq, contents: contents, err: err}
	}
}

func (r *resourcesView) readDone(msg resourceReadMsg) {
	rd := r.read
	if rd == nil || rd.seq != msg.seq {
		return // the person went back before it arrived
	}
	rd.loading, rd.contents, rd.err = false, msg.contents, msg.err
	rd.page = pager{}
}

// close goes back to the list, cancelling a read still running.
func (r *resourcesView) close() {
	if r.read != nil && r.read.loading {
		r.read.cancel()
	}
	r.read = nil
}

func (r *resourcesView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	km := c.keys
	if cmd, open := r.argsKey(c, k); open {
		return cmd
	}
	if r.read != nil {
		if !r.read.page.typingQuery() && key.Matches(k, km.Back, km.Select) {
			r.close()
			return nil
		}
		cmd, _ := r.read.page.key(km, k, r.textRows(c))
		return cmd
	}
	if cmd, ok := r.listKey(c, k); ok {
		return cmd
	}
	switch {
	case key.Matches(k, km.ReadResource):
		return r.open(c)
	case key.Matches(k, km.Subscribe):
		return r.toggleSubscription(c)
	}
	return nil
}

func (r *resourcesView) render(c *viewCtx) string {
	if r.args != nil {
		return r.renderTemplateForm(c)
	}
	if rd := r.read; rd != nil {
		return r.renderRead(c, rd)
	}
	return r.renderList(c, listWords{title: "Resources of", hints: "s next server · enter read / fill a template · u subscribe · F9 prompt templates",
		noun: "resources", method: "resources/list", none: "this server lists no resources or templates"},
		func(it *resourceItem, selected bool) string {
			if it.tmpl != nil {
				return templateResLine(c, it.tmpl, selected)
			}
			return resourceLine(c, &it.res, r.marksText(c, it.res.URI), selected)
		})
}

// resourceLine is one row: name (and title), URI, MIME type and size.
func resourceLine(c *viewCtx, res *wire.Resource, marks string, selected bool) string {
	st := c.st
	san := untrusted.Line
	line := san(orDash(res.Name))
	if res.Title != "" {
		line += " — " + san(res.Title)
	}
	line += "  " + st.Pane.URL.Render(san(res.URI))
	if res.MimeType != "" {
		line += "  " + st.List.Badge.Render(san(res.MimeType))
	}
	if res.Size != nil {
		line += st.Muted.Render(fmt.Sprintf("  %d B", *res.Size))
	}
	line += marks // before the description, which the width may cut
	if res.Description != "" {
		line += "  " + st.List.Desc.Render(san(res.Description))
	}
	return listLine(c, line, selected)
}

func (r *resourcesView) renderRead(c *viewCtx, rd *resourceRead) string {
	st := c.st
	head := st.Title.Render("resources/read ") + st.Pane.URL.Render(untrusted.Line(rd.res.URI)) +
		st.Muted.Render("  ("+untrusted.Line(rd.server)+"; esc back)")
	switch {
	case rd.loading:
		return head + "\n" + st.Muted.Render("reading…")
	case rd.err != nil:
		return head + "\n" + st.Error.Render("resources/read failed: "+errText(rd.err))
	case len(rd.contents) == 0:
		return head + "\n" + st.Muted.Render("(no contents)")
	}
	rows := r.textRows(c)
	rd.page.set(st, c.width-2, func() string {
		parts := make([]string, 0, len(rd.contents))
		for _, rc := range rd.contents {
			parts = append(parts, renderContents(st, rc))
		}
		return strings.Join(parts, "\n\n")
	})
	return rd.page.headed(st, head, c.width, rows)
}

// reading is the resource's pager while one is read.
func (r *resourcesView) reading() *pager {
	if r.read == nil || r.args != nil {
		return nil
	}
	return &r.read.page
}
