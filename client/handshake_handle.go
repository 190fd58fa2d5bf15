package client

import (
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
)

// handshakeOf is s's handshake, once Options, the logger, the peer and
// the Linter are settled (newSession).
func handshakeOf(s *Session) handshakeHandle {
	return handshakeHandle{
		name:   s.name,
		pin:    s.opts.Protocol,
		hint:   s.opts.hint,
		client: s.opts.ClientInfo,
		log:    s.log,
		peer:   s.peer,
		life:   &s.life,
		do:     s.do,
		notice: s.notice,
		caps:   s.offers.capabilities,
		meta:   s.metaFields,
		settle: func(n negotiated) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.neg = n
		},
		legacy: func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.legacySSE
		},
		redial: func(conn transport.Conn, legacy bool) error {
			s.mu.Lock()
			done, oldDone, err := s.life.newLoop()
			if err != nil {
				s.mu.Unlock()
				_ = conn.Close()
				return err
			}
			old := s.peer.Swap(conn)
			s.legacySSE = legacy
			s.mu.Unlock()
			_ = old.Close()
			<-oldDone
			go s.readLoop(conn, done)
			return nil
		},
		initSent: s.lint.InitSent,
		forgotten: func(gen int) {
			s.mu.Lock()
			defer s.mu.Unlock()
			for _, e := range s.peer.AllServing() {
				if e.gen <= gen {
					e.cancel(question.ErrDisconnected)
				}
			}
			s.receiver.endLocked(func(t *rtask) bool { return t.gen <= gen }, question.ErrDisconnected)
		},
	}
}
