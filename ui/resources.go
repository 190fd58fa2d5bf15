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

// resourcesMsg carries one server's resources/list.
type resourcesMsg struct {
	server string
	items  []wire.Resource
	err    error
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

// resourcesView lists a server's resources; Enter reads one.
type resourcesView struct {
	serverLists[wire.Resource]
	read *resourceRead // nil: the list is shown
	seq  int
}

func (resourcesMsg) screenMsg()    {}
func (resourceReadMsg) screenMsg() {}

// The parts of a screen the resources view has.
var _ interface {
	screen
	updater
} = (*resourcesView)(nil)

func newResourcesView() *resourcesView {
	r := &resourcesView{}
	r.initLists(func(eng Engine, ctx context.Context, server string) tea.Msg {
		items, err := eng.ListResources(ctx, server)
		return resourcesMsg{server: server, items: items, err: err}
	})
	return r
}

func (r *resourcesView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case resourcesMsg:
		return r.loaded(c, msg.server, msg.items, msg.err)
	case resourceReadMsg:
		r.readDone(msg)
	case eventMsg:
		return r.listEvent(c, msg, "resources", c.onScreen(r))
	}
	return nil
}

// open reads the selected resource in a Cmd with its own context, so
// leaving the view cancels the read.
func (r *resourcesView) open(c *viewCtx) tea.Cmd {
	l := r.current()
	if l == nil || r.cursor >= len(l.items) {
		return nil
	}
	r.seq++
	ctx, cancel := context.WithCancel(c.ctx)
	rd := &resourceRead{seq: r.seq, server: r.server, res: l.items[r.cursor], cancel: cancel, loading: true}
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
	if key.Matches(k, km.ReadResource) {
		return r.open(c)
	}
	return nil
}

func (r *resourcesView) render(c *viewCtx) string {
	if rd := r.read; rd != nil {
		return r.renderRead(c, rd)
	}
	return r.renderList(c, listWords{title: "Resources of", hints: "s next server · enter read · F9 prompt templates",
		noun: "resources", method: "resources/list", none: "this server lists no resources"},
		func(res *wire.Resource, selected bool) string { return resourceLine(c, res, selected) })
}

// resourceLine is one row: name (and title), URI, MIME type and size.
func resourceLine(c *viewCtx, res *wire.Resource, selected bool) string {
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
	return head + rd.page.scrollHint(st, rows) + "\n" + rd.page.view(rows)
}

// reading is the resource's pager while one is read.
func (r *resourcesView) reading() *pager {
	if r.read == nil {
		return nil
	}
	return &r.read.page
}
