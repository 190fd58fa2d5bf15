package ui

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// listOf is one server's list in a browse view.
type listOf[T any] struct {
	items   []T
	err     error
	loading bool
}

// listFetch asks the engine for one server's list and wraps the answer in
// the view's message.
type listFetch func(eng Engine, ctx context.Context, server string) tea.Msg

// serverLists is what the per-server list views (tools, resources, prompt
// templates) share: one list per server, loaded the first time the view
// shows that server and dropped, then reloaded if on screen, when the
// server says its list changed or reconnects. An eager one (tools, from
// which calls start) keeps the selected server's list loaded even off
// screen, and picks the first server to (re)connect.
//
// At most one request per server is in flight (inFlight); a change that
// comes meanwhile marks the list stale (again) and, when the answer
// comes, costs one request more, however many changes came: a server
// sending 10,000 list_changed gets two requests, not 10,000.
type serverLists[T any] struct {
	server   string
	lists    map[string]*listOf[T]
	cursor   int
	eager    bool
	fetch    listFetch
	inFlight map[string]bool
	again    map[string]bool
	filter   listFilter
	// titleRows is how many lines the title took when last drawn (it
	// wraps at the width): listRows counts them out.
	titleRows int
}

func (s *serverLists[T]) initLists(fetch listFetch) {
	s.lists, s.fetch = map[string]*listOf[T]{}, fetch
	s.inFlight, s.again = map[string]bool{}, map[string]bool{}
}

func (s *serverLists[T]) current() *listOf[T] { return s.lists[s.server] }

// enter picks a server if none is selected and loads its list once, or
// again if asking for it failed: showing the view is trying again (a list
// asked for the moment a server said it was ready can fail because the
// engine did not yet hand out its session).
func (s *serverLists[T]) enter(c *viewCtx) tea.Cmd {
	s.server = firstServer(c.servers, s.server)
	if l := s.lists[s.server]; s.server == "" || l != nil && l.err == nil {
		return nil
	}
	return s.load(c, s.server)
}

// listEvent handles the lane-2 events that may change a server's list of
// what ("tools", "resources", "prompts"): the server (re)connected, or
// said that list changed. shown says the owning screen is on show.
func (s *serverLists[T]) listEvent(c *viewCtx, msg eventMsg, what string, shown bool) tea.Cmd {
	switch e := msg.e.(type) {
	case client.ServerStateChanged:
		if e.State == client.StateReady {
			// A new session may list other things: drop what was cached.
			return s.changed(c, e.Server, shown)
		}
	case client.ListChanged:
		if e.What == what {
			return s.changed(c, e.Server, shown)
		}
	}
	return nil
}

// changed drops a server's cached list and reloads it if it is on screen
// (or, eager, selected). A request in flight answers for the list before
// the change: it is asked once more when that answer comes.
func (s *serverLists[T]) changed(c *viewCtx, server string, shown bool) tea.Cmd {
	delete(s.lists, server)
	if s.inFlight[server] {
		s.again[server] = true
	}
	if s.eager && s.server == "" {
		s.server = server
	}
	if server == s.server && (s.eager || shown) {
		return s.load(c, server)
	}
	return nil
}

// load asks for a server's list, unless a request for it is in flight
// already (then that one's answer asks again, see loaded).
func (s *serverLists[T]) load(c *viewCtx, server string) tea.Cmd {
	s.lists[server] = &listOf[T]{loading: true}
	if s.inFlight[server] {
		s.again[server] = true
		return nil
	}
	s.inFlight[server] = true
	eng, ctx, fetch := c.engine, c.ctx, s.fetch
	return func() tea.Msg { return fetch(eng, ctx, server) }
}

// loaded stores a server's answer, or, when the list changed while it was
// asked for, drops it and asks once more.
func (s *serverLists[T]) loaded(c *viewCtx, server string, items []T, err error) tea.Cmd {
	delete(s.inFlight, server)
	if s.again[server] {
		delete(s.again, server)
		return s.load(c, server)
	}
	s.lists[server] = &listOf[T]{items: items, err: err}
	if s.server == server {
		s.cursor = clamp(s.cursor, 0, max(len(items)-1, 0))
		s.snap()
	}
	return nil
}

// listRows is how many list rows fit under the title line; textRows how
// many lines of an opened item fit under its head and scroll hint.
func (s *serverLists[T]) listRows(c *viewCtx) int { return max(c.bodyHeight()-max(s.titleRows, 1), 1) }
func (s *serverLists[T]) textRows(c *viewCtx) int { return max(c.bodyHeight()-2, 1) }

// listWords are what a browse view calls its list, in renderList.
type listWords struct {
	title  string // "Resources of"
	hints  string // the keys, after the title
	noun   string // "resources", in "loading resources…"
	method string // "resources/list", in its failure
	none   string // said when the server lists nothing
}

// renderList draws the shown server's list: a title line, then as many
// rows as fit.
func (s *serverLists[T]) renderList(c *viewCtx, w listWords, line func(item *T, selected bool) string) string {
	return s.renderTitle(c, w) + "\n" + s.renderRows(c, w, s.listRows(c), line)
}

// renderTitle is the list's title: what it lists, of which server, the
// filter, and the keys, wrapped at the width (wrap.go).
func (s *serverLists[T]) renderTitle(c *viewCtx, w listWords) string {
	title := s.renderHead(c, w) + "   " + s.filterSegment(c) + c.st.Muted.Render(w.hints)
	if s.filter.editing {
		// Every key is the filter's: the list's keys would mislead.
		title = s.renderHead(c, w) + "   " + s.filterSegment(c)
	}
	title = wrapLine(title, c.width)
	s.titleRows = strings.Count(title, "\n") + 1
	return title
}

// renderHead is the title alone: what the list is, of which server.
func (s *serverLists[T]) renderHead(c *viewCtx, w listWords) string {
	return c.st.Title.Render(w.title + " " + untrusted.Line(orDash(s.server)))
}

// renderRows draws up to rows rows around the cursor, or why there are
// none.
func (s *serverLists[T]) renderRows(c *viewCtx, w listWords, rows int, line func(item *T, selected bool) string) string {
	st := c.st
	l := s.current()
	var undeclared *client.UndeclaredError
	switch {
	case l == nil:
		return st.Muted.Render("no server selected")
	case l.loading:
		return st.Muted.Render("loading " + w.noun + "…")
	case errors.As(l.err, &undeclared):
		// Not a failure: the server has nothing of the kind.
		return st.Muted.Render(untrusted.Line(s.server) + " did not declare " + undeclared.Capability)
	case l.err != nil:
		return st.Error.Render(w.method + " failed: " + errText(l.err))
	case len(l.items) == 0:
		return st.Muted.Render(w.none)
	}
	vis := s.visible()
	if len(vis) == 0 {
		return st.Muted.Render("no " + w.noun + " match " + strconv.Quote(untrusted.Line(s.filter.text)) + " (esc clears the filter)")
	}
	pos := 0
	for i, v := range vis {
		if v == s.cursor {
			pos = i
		}
	}
	var b strings.Builder
	lo := listTop(pos, rows, len(vis))
	for _, i := range vis[lo:min(lo+rows, len(vis))] {
		b.WriteString(line(&l.items[i], i == s.cursor) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// listKey handles the keys every list shares: the filter (while it is
// typed, every key), moving the cursor, and the next server. Enter on a
// filter that shows nothing is taken too, so that the view does not open
// the hidden item under the cursor. It reports whether k was one of them.
func (s *serverLists[T]) listKey(c *viewCtx, k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case s.filterKey(c, k), s.moveKey(c, k):
		return nil, true
	case key.Matches(k, c.keys.NextServer):
		return s.nextServer(c), true
	case key.Matches(k, c.keys.Select) && s.selected() == nil:
		return nil, true
	}
	return nil, false
}

// nextServer shows the next server's list; the filter stays.
func (s *serverLists[T]) nextServer(c *viewCtx) tea.Cmd {
	s.server, s.cursor = cycleServer(c.servers, s.server), 0
	cmd := s.enter(c)
	s.snap()
	return cmd
}

// listLine finishes a row: cut to the width, and marked when selected
// (plain, so the selection style is not broken by the row's own).
func listLine(c *viewCtx, line string, selected bool) string {
	line = ansi.Truncate(line, c.width-2, "…")
	if selected {
		return c.st.List.Selected.Render("› " + ansi.Strip(line))
	}
	return "  " + line
}
