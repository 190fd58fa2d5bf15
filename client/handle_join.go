package client

import "github.com/elicit-dev/elicit/client/question"

// joinOf is the join func of s's module handles: a module about to start
// work that Close and teardown must wait for (questions, a stream) joins
// the session's lifecycle first (life.join): it fails with why the
// session is ending (ErrClosed while Close has not set one), or counts the
// work until leave is called.
func joinOf(s *Session) func() (leave func(), err error) {
	return func() (func(), error) {
		if err := s.life.join(); err != nil {
			return nil, err
		}
		return s.life.leave, nil
	}
}

// callOriginOf is the origin func of s's module handles: what the
// questions of call c belong to (call.origin; the call's ids are under
// its own lock).
func callOriginOf(s *Session) func(c *call) question.Origin {
	return func(c *call) question.Origin { return c.origin() }
}
