package client

import "github.com/elicit-dev/elicit/client/question"

// joinOf is the join func of s's module handles: a module about to start
// work that Close and teardown must wait for (questions, a stream) joins
// the session first. Under Session.mu, it fails with why the session is
// ending (ErrClosed while Close has not set one), or counts the work in
// the session's WaitGroup until leave is called.
func joinOf(s *Session) func() (leave func(), err error) {
	return func() (func(), error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.isDead || s.closing {
			if s.err != nil {
				return nil, s.err
			}
			return nil, ErrClosed
		}
		s.wg.Add(1)
		return s.wg.Done, nil
	}
}

// callOriginOf is the origin func of s's module handles: what the
// questions of call c belong to (call.origin), read under Session.mu,
// which guards the call's ids.
func callOriginOf(s *Session) func(c *call) question.Origin {
	return func(c *call) question.Origin {
		s.mu.Lock()
		defer s.mu.Unlock()
		return c.origin()
	}
}
