package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
)

// ConnInfo is what a connection says of itself (kind, pid, session id),
// re-exported so the UI can show it without importing transport.
type ConnInfo = transport.ConnInfo

// SessionDetails is what a session knows of its server and of its
// connection, for a view of the server: who it said it is, what each side
// declared, how they speak. The server's strings are untrusted.
type SessionDetails struct {
	Protocol     string
	Era          string
	ServerInfo   wire.Implementation
	Instructions string
	Caps         ServerCapabilities
	// ClientCaps is the capabilities elicit declared to the server:
	// initialize's, or in 2026-07-28 those every request's _meta carries.
	// Nil before the era was settled.
	ClientCaps json.RawMessage
	// Conn is what the connection says of itself (kind, pid, session id);
	// zero for a connection that says nothing (an in-memory pipe).
	Conn ConnInfo
	// LegacySSE says the session fell back from Streamable HTTP to the
	// 2024-11-05 HTTP+SSE transport.
	LegacySSE bool
	// Ready is when the session became ready, Ended when it ended; zero
	// when it has not.
	Ready, Ended time.Time
	// Err says why it ended (see Session.Err); nil while it lives.
	Err error
}

// Details describes the session, also after it ended.
func (s *Session) Details() SessionDetails {
	s.mu.Lock()
	d := SessionDetails{
		Protocol:     s.neg.protocol,
		Era:          eraLabel(s.neg.kind, s.neg.protocol),
		ServerInfo:   s.neg.serverInfo,
		Instructions: s.neg.instructions,
		Caps:         s.neg.caps,
		LegacySSE:    s.legacySSE,
	}
	d.Ready, d.Ended, d.Err = s.life.times()
	kind, conn := s.neg.kind, s.peer.Conn()
	s.mu.Unlock()
	if dc, ok := conn.(transport.Describer); ok {
		d.Conn = dc.Describe()
	}
	// What went out: initialize offered its version's capabilities (the
	// answer may name an older version); 2026-07-28 sends the negotiated
	// version's with every request.
	v := offered(s.opts.Protocol)
	switch kind {
	case eraUnknown:
		return d
	case eraStateless:
		v = d.Protocol
	}
	if b, err := json.Marshal(s.offers.capabilities(v)); err == nil {
		d.ClientCaps = b
	}
	return d
}

// ServerDetails is what a Manager knows of one server, for a view of it.
type ServerDetails struct {
	ServerStatus
	// Session describes the live session, else the last one (ended, or
	// replaced by a reconnect that failed); zero when none was made.
	Session SessionDetails
	// LastErr is the last failure or disconnect and LastErrAt when it
	// came, kept across reconnects: a server that is ready again still
	// tells why it went away.
	LastErr   error
	LastErrAt time.Time
}

// Details describes server name.
func (m *Manager) Details(name string) (ServerDetails, error) {
	var st ServerStatus
	found := false
	for _, s := range m.Status() {
		if s.Name == name {
			st, found = s, true
			break
		}
	}
	m.mu.Lock()
	s := m.servers[name]
	if !found || s == nil {
		m.mu.Unlock()
		return ServerDetails{}, fmt.Errorf("details of %s: %w", name, ErrUnknownServer)
	}
	sess, last := s.sess, s.last
	d := ServerDetails{ServerStatus: st, LastErr: s.lastErr, LastErrAt: s.lastErrAt}
	m.mu.Unlock()
	if sess != nil {
		last = sess.Details()
		// The session's end is known before its final event has reached
		// the Manager (the dispatcher runs apart).
		if e := last.Err; e != nil && !errors.Is(e, ErrClosed) && last.Ended.After(d.LastErrAt) {
			d.LastErr, d.LastErrAt = e, last.Ended
		}
	}
	d.Session = last
	return d, nil
}

// failed records err as s's last failure; the caller holds Manager.mu.
func (s *managed) failed(err error) {
	if err != nil {
		s.lastErr, s.lastErrAt = err, time.Now()
	}
}
