package ui

import "context"

// authStateMsg carries a server's authorization state (OAuth), which the
// status line shows next to its connection state.
type authStateMsg struct {
	server, state string
}

// AuthState reports a server's authorization state ("authorizing",
// "authorized", "expired", "refreshing", "auth failed"); cmd/elicit calls
// it from the OAuth transport. The authorization step itself is a URL
// prompt (the person opens the sign-in page), asked through Prompt.
func (b *Bridge) AuthState(server, state string) {
	b.deliver(context.Background(), authStateMsg{server: server, state: state})
}

func (m *Model) handleAuthState(msg authStateMsg) {
	for i := range m.servers {
		if m.servers[i].Name == msg.server {
			m.servers[i].Auth = msg.state
			return
		}
	}
	m.servers = append(m.servers, ServerStatus{Name: msg.server, Auth: msg.state})
}
