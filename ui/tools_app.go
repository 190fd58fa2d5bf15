package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/themes/untrusted"
)

// openApp hosts the selected tool's MCP App (the engine's HostApp: elicit
// app's host over the live session) with the arguments of its last call,
// if any; the notice says where the page is. A tool that names no app
// says so.
func (t *toolsView) openApp(c *viewCtx) tea.Cmd {
	tl := t.selected()
	if tl == nil {
		return nil
	}
	app, ok := tl.App()
	if !ok || app.ResourceURI == "" {
		return notice(untrusted.Line(tl.Name) + " names no MCP App (_meta.ui.resourceUri)")
	}
	var args map[string]any
	if last := t.last[[2]string{t.server, tl.Name}]; last != nil {
		args = last.args
	}
	eng, ctx, server, tool := c.engine, c.ctx, t.server, tl.Name
	return func() tea.Msg {
		url, opened, err := eng.HostApp(ctx, server, tool, args)
		switch {
		case err != nil && url == "":
			return noticeMsg(untrusted.Line(tool) + ": its app: " + untrusted.Line(err.Error()))
		case opened:
			return noticeMsg(untrusted.Line(tool) + "'s app is open in the browser: " + url)
		case err != nil:
			return noticeMsg(untrusted.Line(tool) + "'s app is at " + url + " (" + untrusted.Line(err.Error()) + ")")
		}
		return noticeMsg(untrusted.Line(tool) + "'s app is at " + url + " (no $BROWSER: open it yourself)")
	}
}
