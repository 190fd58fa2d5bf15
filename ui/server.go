package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// serverDetailMsg carries the engine's description of one server.
type serverDetailMsg struct {
	server string
	d      ServerDetail
	err    error
}

// serverReconnectedMsg says a reconnect the person asked for has ended.
type serverReconnectedMsg struct {
	server string
	err    error
}

func (serverDetailMsg) screenMsg()      {}
func (serverReconnectedMsg) screenMsg() {}

// serverView shows one server, "who is asking": the name it gives itself,
// what each side declared, how elicit reaches it, how that stands, its
// last words on stderr and its last failure. s shows the next server, r
// reconnects the shown one. The top (the state, the transport, stderr)
// follows the server live; what its session declared is a pager below.
type serverView struct {
	server string
	// details holds the last description of each server seen, so that
	// cycling back shows it at once while a fresh one loads.
	details      map[string]serverDetailMsg
	loading      bool // a request for the shown server is in flight
	again        bool // and another is due when it answers
	reconnecting map[string]bool

	page    pager
	pageKey string // the session the page was rendered from
	rows    int    // the page's rows at the last render
}

// The parts of a screen the server view has.
var _ interface {
	screen
	updater
	reading
} = (*serverView)(nil)

func newServerView() *serverView {
	return &serverView{details: map[string]serverDetailMsg{}, reconnecting: map[string]bool{}}
}

func (v *serverView) enter(c *viewCtx) tea.Cmd {
	v.server = firstServer(c.servers, v.server)
	return v.load(c)
}

// load asks the engine for the shown server's description, one request at
// a time: a change while one is in flight asks once more when it answers,
// however many changes came.
func (v *serverView) load(c *viewCtx) tea.Cmd {
	if v.server == "" {
		return nil
	}
	if v.loading {
		v.again = true
		return nil
	}
	v.loading = true
	eng, server := c.engine, v.server
	return func() tea.Msg {
		d, err := eng.Server(server)
		return serverDetailMsg{server: server, d: d, err: err}
	}
}

func (v *serverView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case serverDetailMsg:
		v.details[msg.server] = msg
		v.loading = false
		if v.again || msg.server != v.server {
			v.again = false
			return v.load(c)
		}
	case serverReconnectedMsg:
		delete(v.reconnecting, msg.server)
		text := "reconnected " + msg.server
		if msg.err != nil {
			text = fmt.Sprintf("reconnect %s failed: %v", msg.server, msg.err)
		}
		return tea.Batch(notice(text), v.refresh(c, msg.server))
	case eventMsg:
		switch e := msg.e.(type) {
		case client.ServerStateChanged:
			return v.refresh(c, e.Server)
		case client.Notice:
			// A notice may mean a new HTTP session (the server forgot ours).
			return v.refresh(c, e.Server)
		}
	case serversMsg:
		return v.refresh(c, v.server)
	}
	return nil
}

// refresh reloads the description if it is of the shown server and on
// screen; off screen, enter loads it anyway.
func (v *serverView) refresh(c *viewCtx, server string) tea.Cmd {
	if server != v.server || !c.onScreen(v) {
		return nil
	}
	return v.load(c)
}

func (v *serverView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	km := c.keys
	switch {
	case v.page.typingQuery(): // a search query has the keys
	case key.Matches(k, km.NextServer):
		v.server = cycleServer(c.servers, v.server)
		return v.load(c)
	case key.Matches(k, km.Reconnect):
		return v.reconnect(c)
	}
	cmd, _ := v.page.key(km, k, max(v.rows, 1))
	return cmd
}

// reading is the page's pager: the Model gives it the wheel, and the keys
// while a search query is typed.
func (v *serverView) reading() *pager { return &v.page }

// reconnect closes and reopens the shown server's session. The status bar
// follows it (closed, connecting, ready or failed, from the engine's
// events); the view says "reconnecting…" meanwhile, and a notice says how
// it ended.
func (v *serverView) reconnect(c *viewCtx) tea.Cmd {
	server := v.server
	if server == "" || v.reconnecting[server] {
		return nil
	}
	v.reconnecting[server] = true
	eng, ctx := c.engine, c.ctx
	return tea.Batch(notice("reconnecting "+server+"…"), func() tea.Msg {
		return serverReconnectedMsg{server: server, err: eng.Reconnect(ctx, server)}
	})
}

func (v *serverView) render(c *viewCtx) string {
	st := c.st
	if v.server == "" {
		return st.Title.Render("Server") + "\n" + st.Muted.Render("no servers")
	}
	msg, ok := v.details[v.server]
	switch {
	case !ok:
		return v.head(c, "") + "\n" + st.Muted.Render("loading…")
	case msg.err != nil:
		return v.head(c, "") + "\n" + st.Error.Render("cannot describe it: "+errText(msg.err))
	}
	d := &msg.d
	// Under the title, the top keeps at most half the body, so the page
	// always shows, under the line that says where it is scrolled.
	body := max(c.bodyHeight()-1, 3)
	live := v.liveLines(c, d, body)
	live = live[:min(len(live), max(body/2, 1))]
	v.rows = max(body-len(live)-1, 1)
	if key := pageKey(d); key != v.pageKey {
		v.page, v.pageKey = pager{}, key
	}
	v.page.set(st, c.width-2, func() string { return renderServerPage(c, d, c.width-2) })
	hint := ansi.Truncate(v.page.scrollHint(st, v.rows), max(c.width, 10), "…")
	return v.head(c, calledSelf(d.Session.ServerInfo)) + "\n" + strings.Join(live, "\n") + "\n" + hint + "\n" + v.page.view(v.rows)
}

// head is the title line: the server, as configured and as it names
// itself, and the keys; as much as fits, the name it gives itself going
// first (the page shows it), then the keys.
func (v *serverView) head(c *viewCtx, self string) string {
	st := c.st
	name := st.Title.Render("Server " + untrusted.Line(v.server))
	full := name
	if self != "" && self != v.server {
		full += st.Title.Render(" — " + untrusted.Line(self))
	}
	w := max(c.width, 10)
	hints := st.Muted.Render("  s next server · r reconnect")
	for _, line := range []string{full + hints, name + hints, full} {
		if ansi.StringWidth(line) <= w {
			return line
		}
	}
	return ansi.Truncate(name, w, "…")
}

// pageKey names the session a page describes: a new session (a reconnect)
// is a new page, and so is its end (the page says so first).
func pageKey(d *ServerDetail) string {
	return d.Name + "\x00" + strconv.FormatInt(d.Session.Ready.UnixNano(), 10) + "\x00" + d.Session.Protocol +
		"\x00" + strconv.FormatBool(d.Session.Ended.IsZero())
}

// calledSelf is how an implementation names itself: its title, else its
// name.
func calledSelf(i wire.Implementation) string {
	if i.Title != "" {
		return i.Title
	}
	return i.Name
}
