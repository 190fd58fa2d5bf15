package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
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

// serverLists is what the browse views (resources, prompt templates) share:
// one list per server, loaded the first time the view shows that server
// and dropped, then reloaded if on screen, when the server says its list
// changed or reconnects.
type serverLists[T any] struct {
	server string
	lists  map[string]*listOf[T]
	cursor int
	view   viewID
	fetch  listFetch
}

func (s *serverLists[T]) initLists(v viewID, fetch listFetch) {
	s.lists, s.view, s.fetch = map[string]*listOf[T]{}, v, fetch
}

func (s *serverLists[T]) current() *listOf[T] { return s.lists[s.server] }

// enter picks a server if none is selected and loads its list once.
func (s *serverLists[T]) enter(m *Model) tea.Cmd {
	s.server = firstServer(m.servers, s.server)
	if s.server == "" || s.lists[s.server] != nil {
		return nil
	}
	return s.load(m, s.server)
}

// changed drops a server's cached list and reloads it if it is on screen.
func (s *serverLists[T]) changed(m *Model, server string) tea.Cmd {
	delete(s.lists, server)
	if m.view == s.view && server == s.server {
		return s.load(m, server)
	}
	return nil
}

func (s *serverLists[T]) load(m *Model, server string) tea.Cmd {
	s.lists[server] = &listOf[T]{loading: true}
	eng, ctx, fetch := m.engine, m.ctx, s.fetch
	return func() tea.Msg { return fetch(eng, ctx, server) }
}

// loaded stores a server's answer; it reports whether that server is the
// one shown (the cursor is then kept within the new list).
func (s *serverLists[T]) loaded(server string, items []T, err error) bool {
	s.lists[server] = &listOf[T]{items: items, err: err}
	if s.server != server {
		return false
	}
	s.cursor = clamp(s.cursor, 0, max(len(items)-1, 0))
	return true
}
