package client

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
)

// ManagerOptions configures a Manager.
type ManagerOptions struct {
	// Journal is shared by every server's session; nil makes one.
	Journal *question.Journal
	// Observer receives the events of every server whose Options have no
	// Observer of their own. It is called from one dispatcher goroutine
	// per session, so from several goroutines at once.
	Observer Observer
}

// ServerStatus is where one managed server stands.
type ServerStatus struct {
	Name     string
	State    ServerState
	Protocol string
	Era      string
	Err      error
}

// Manager keeps the sessions of several servers: connect, status,
// reconnect, close. It is safe for concurrent use.
type Manager struct {
	journal  *question.Journal
	observer Observer

	mu      sync.Mutex
	servers map[string]*managed
	order   []string
	closed  bool
}

// managed is one server of a Manager.
type managed struct {
	name string
	t    transport.Transport
	opts Options

	op sync.Mutex // serialises connect, reconnect and remove

	// Guarded by Manager.mu.
	sess   *Session
	status ServerStatus
	// era is how the last session spoke to the server, so that a
	// reconnect skips a probe known to fail (unknown after a failure).
	era eraKind
	// last describes the session a reconnect replaced (details.go);
	// lastErr is the last failure or disconnect, and when.
	last      SessionDetails
	lastErr   error
	lastErrAt time.Time
}

// ErrUnknownServer is returned for a name the Manager does not have.
var ErrUnknownServer = errors.New("unknown server")

// NewManager returns an empty Manager.
func NewManager(opts *ManagerOptions) *Manager {
	m := &Manager{servers: map[string]*managed{}}
	if opts != nil {
		m.journal, m.observer = opts.Journal, opts.Observer
	}
	if m.journal == nil {
		m.journal = question.NewJournal(0)
	}
	return m
}

// Journal is the journal all managed sessions share.
func (m *Manager) Journal() *question.Journal { return m.journal }

// Add registers a server under name and connects to it. The server stays
// registered even if connecting fails (its status says why), so Reconnect
// can try again. opts.Name and opts.Journal are set by the Manager.
func (m *Manager) Add(ctx context.Context, name string, t transport.Transport, opts *Options) error {
	s := &managed{name: name, t: t, status: ServerStatus{Name: name, State: StateConnecting}}
	if opts != nil {
		s.opts = *opts
	}
	s.opts.Name, s.opts.Journal = name, m.journal
	m.mu.Lock()
	switch {
	case m.closed:
		m.mu.Unlock()
		return fmt.Errorf("add %s: manager closed", name)
	case m.servers[name] != nil:
		m.mu.Unlock()
		return fmt.Errorf("add %s: a server with that name exists", name)
	}
	m.servers[name] = s
	m.order = append(m.order, name)
	m.mu.Unlock()
	s.op.Lock()
	defer s.op.Unlock()
	return m.connect(ctx, s)
}

// connect dials s; the caller holds s.op.
func (m *Manager) connect(ctx context.Context, s *managed) error {
	m.mu.Lock()
	s.status = ServerStatus{Name: s.name, State: StateConnecting}
	opts := s.opts // SetRoots writes it under mu
	m.mu.Unlock()
	fwd := opts.Observer
	if fwd == nil {
		fwd = m.observer
	}
	opts.Observer = ObserverFunc(func(e Event) {
		if sc, ok := e.(ServerStateChanged); ok && sc.State != StateConnecting {
			m.mu.Lock()
			s.status = ServerStatus{Name: s.name, State: sc.State, Protocol: sc.Protocol, Era: sc.Era, Err: sc.Err}
			s.failed(sc.Err)
			m.mu.Unlock()
		}
		if fwd != nil {
			fwd.Event(e)
		}
	})
	var early *Session // held from onReady, before ready is announced
	opts.onReady = func(sess *Session) {
		m.mu.Lock()
		defer m.mu.Unlock()
		if !m.closed {
			early, s.sess = sess, sess
		}
	}
	m.mu.Lock()
	opts.hint = s.era
	m.mu.Unlock()
	sess, err := Connect(ctx, s.t, &opts)
	m.mu.Lock()
	if err != nil {
		if early != nil && s.sess == early {
			s.sess = nil // it died right after the handshake
		}
		s.status = ServerStatus{Name: s.name, State: StateFailed, Err: err}
		s.failed(err)
		s.era = eraUnknown // the server may have changed: probe next time
		m.mu.Unlock()
		return err
	}
	s.era = sess.hint()
	if m.closed {
		// Close ran meanwhile and could not see this session.
		m.mu.Unlock()
		_ = sess.Close()
		return fmt.Errorf("connect %s: manager closed", s.name)
	}
	s.sess = sess
	m.mu.Unlock()
	return nil
}

// Session returns the server's live session, or nil if it is not
// connected (unknown, failed, disconnected or closed).
func (m *Manager) Session(name string) *Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.servers[name]
	if s == nil || s.sess == nil || s.sess.Err() != nil {
		return nil
	}
	return s.sess
}

// Status reports every server, in the order they were added.
func (m *Manager) Status() []ServerStatus {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]ServerStatus, 0, len(m.order))
	for _, n := range m.order {
		s := m.servers[n]
		st := s.status
		if s.sess != nil {
			// A live session speaks for itself; events may trail it.
			st = ServerStatus{Name: n, State: StateReady, Protocol: s.sess.Protocol(), Era: s.sess.Era()}
			switch err := s.sess.Err(); {
			case errors.Is(err, ErrClosed):
				st.State = StateClosed
			case err != nil:
				st.State, st.Err = StateDisconnected, err
			}
		}
		out = append(out, st)
	}
	return out
}

// Reconnect closes the server's session, if any, and connects again.
func (m *Manager) Reconnect(ctx context.Context, name string) error {
	m.mu.Lock()
	s := m.servers[name]
	closed := m.closed
	m.mu.Unlock()
	switch {
	case s == nil:
		return fmt.Errorf("reconnect %s: %w", name, ErrUnknownServer)
	case closed:
		return fmt.Errorf("reconnect %s: manager closed", name)
	}
	s.op.Lock()
	defer s.op.Unlock()
	m.detach(s)
	return m.connect(ctx, s)
}

// detach closes s's session and forgets it; the caller holds s.op.
func (m *Manager) detach(s *managed) {
	m.mu.Lock()
	old := s.sess
	s.sess = nil
	m.mu.Unlock()
	if old != nil {
		_ = old.Close()
		d := old.Details()
		m.mu.Lock()
		s.last = d
		m.mu.Unlock()
	}
}

// Remove closes a server's session and forgets the server. Library and
// test API: cmd/elicit never removes a server while it runs.
func (m *Manager) Remove(name string) error {
	m.mu.Lock()
	s := m.servers[name]
	if s != nil {
		delete(m.servers, name)
		for i, n := range m.order {
			if n == name {
				m.order = append(m.order[:i], m.order[i+1:]...)
				break
			}
		}
	}
	m.mu.Unlock()
	if s == nil {
		return fmt.Errorf("remove %s: %w", name, ErrUnknownServer)
	}
	s.op.Lock()
	defer s.op.Unlock()
	m.detach(s)
	return nil
}

// Close closes every session and waits for them. The Manager cannot be
// used afterwards.
func (m *Manager) Close() error {
	m.mu.Lock()
	m.closed = true
	var sessions []*Session
	for _, s := range m.servers {
		if s.sess != nil {
			sessions = append(sessions, s.sess)
		}
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, sess := range sessions {
		wg.Go(func() { _ = sess.Close() })
	}
	wg.Wait()
	return nil
}

// Tasks returns the tasks of every server's current session (see
// Session.Tasks), servers in the order they were added.
func (m *Manager) Tasks() []Task {
	m.mu.Lock()
	var sessions []*Session
	for _, n := range m.order {
		if s := m.servers[n]; s.sess != nil {
			sessions = append(sessions, s.sess)
		}
	}
	m.mu.Unlock()
	var out []Task
	for _, s := range sessions {
		out = append(out, s.Tasks()...)
	}
	return out
}

// Roots reports a server's roots: its live session's (see Session.Roots),
// or, while it is not connected, the list its next connection offers.
func (m *Manager) Roots(name string) (RootsInfo, error) {
	m.mu.Lock()
	s := m.servers[name]
	var sess *Session
	var opts []Root
	if s != nil {
		sess, opts = s.sess, slices.Clone(s.opts.Roots)
	}
	m.mu.Unlock()
	switch {
	case s == nil:
		return RootsInfo{}, fmt.Errorf("roots of %s: %w", name, ErrUnknownServer)
	case sess != nil && sess.Err() == nil:
		return sess.Roots(), nil
	}
	return RootsInfo{Roots: opts}, nil
}

// SetRoots replaces a server's roots: its live session's (Session.SetRoots
// tells the server), and those every later connection offers, which then
// declares the roots capability even if the first did not.
func (m *Manager) SetRoots(ctx context.Context, name string, roots []Root) error {
	if err := checkRoots(roots); err != nil {
		return fmt.Errorf("set roots on %s: %w", name, err)
	}
	m.mu.Lock()
	s := m.servers[name]
	var sess *Session
	if s != nil {
		s.opts.Roots = append([]Root{}, roots...) // non-nil: declared from now on
		sess = s.sess
	}
	m.mu.Unlock()
	switch {
	case s == nil:
		return fmt.Errorf("set roots on %s: %w", name, ErrUnknownServer)
	case sess == nil || sess.Err() != nil:
		return nil // the next connection offers them
	}
	return sess.SetRoots(ctx, roots)
}
