package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// Resource subscriptions in the resources view: u subscribes to the
// selected resource or ends its subscription (when the server declared
// resources.subscribe); notifications/resources/updated (a
// client.ResourceUpdated event) marks the resource, and the one on show
// is read again. Reading a resource clears its mark. A reconnect starts a
// new session without them, so they are dropped with it. In 2026-07-28 a
// subscription is a stream the server may end (ResourceSubscriptionEnded):
// the mark goes and the status bar says why.

// subscribedMsg reports resources/subscribe or unsubscribe.
type subscribedMsg struct {
	server, uri string
	on          bool
	err         error
}

func (subscribedMsg) screenMsg() {}

// resourceMarks are one server's subscriptions and updated resources.
type resourceMarks struct {
	subscribed map[string]bool
	updated    map[string]bool
}

// marksOf returns server's marks, making them on first use.
func (r *resourcesView) marksOf(server string) *resourceMarks {
	if r.marks == nil {
		r.marks = map[string]*resourceMarks{}
	}
	m := r.marks[server]
	if m == nil {
		m = &resourceMarks{subscribed: map[string]bool{}, updated: map[string]bool{}}
		r.marks[server] = m
	}
	return m
}

// toggleSubscription subscribes to the selected resource, or ends it.
func (r *resourcesView) toggleSubscription(c *viewCtx) tea.Cmd {
	it := r.selected()
	if it == nil || it.tmpl != nil {
		return notice("only a resource can be subscribed to, not a template")
	}
	if !serverCaps(c.servers, r.server).ResourcesSubscribe {
		return notice(untrusted.Line(r.server) + " declared no resources.subscribe: it sends no updates")
	}
	on := !r.marksOf(r.server).subscribed[it.res.URI]
	eng, ctx, server, uri := c.engine, c.ctx, r.server, it.res.URI
	return func() tea.Msg {
		return subscribedMsg{server: server, uri: uri, on: on, err: eng.Subscribe(ctx, server, uri, on)}
	}
}

// subsUpdate takes the subscription answers and the updates; it reports
// whether msg was one of them.
func (r *resourcesView) subsUpdate(c *viewCtx, msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case subscribedMsg:
		verb := "subscribed to "
		if !msg.on {
			verb = "unsubscribed from "
		}
		if msg.err != nil {
			return notice("could not be " + verb + untrusted.Line(msg.uri) + ": " + errText(msg.err)), true
		}
		m := r.marksOf(msg.server)
		m.subscribed[msg.uri] = msg.on
		if !msg.on {
			delete(m.subscribed, msg.uri)
			delete(m.updated, msg.uri)
		}
		return notice(verb + untrusted.Line(msg.uri)), true
	case eventMsg:
		switch e := msg.e.(type) {
		case client.ResourceUpdated:
			return r.resourceUpdated(c, e), true
		case client.ResourceSubscriptionEnded:
			if m := r.marks[e.Server]; m != nil {
				delete(m.subscribed, e.URI)
			}
			return notice("the subscription to " + untrusted.Line(e.URI) + " on " + untrusted.Line(e.Server) + " ended (u renews it): " + errText(e.Err)), true
		case client.ServerStateChanged:
			if e.State != client.StateReady {
				delete(r.marks, e.Server)
			}
		}
	}
	return nil, false
}

// resourceUpdated marks the resource and reads again the one on show
// when it is the one changed, or contains it (the spec allows an update
// to name a sub-resource of the subscribed one).
func (r *resourcesView) resourceUpdated(c *viewCtx, e client.ResourceUpdated) tea.Cmd {
	m := r.marksOf(e.Server)
	rd := r.read
	if rd != nil && r.args == nil && rd.server == e.Server && (rd.res.URI == e.URI || strings.HasPrefix(e.URI, rd.res.URI)) {
		return r.readURI(c, rd.res)
	}
	m.updated[e.URI] = true
	return nil
}

// marksText is a resource row's marks.
func (r *resourcesView) marksText(c *viewCtx, uri string) string {
	m := r.marks[r.server]
	if m == nil {
		return ""
	}
	s := ""
	if m.subscribed[uri] {
		s += "  " + c.st.List.Badge.Render("subscribed")
	}
	if m.updated[uri] {
		s += "  " + c.st.Warning.Render("● updated")
	}
	return s
}
