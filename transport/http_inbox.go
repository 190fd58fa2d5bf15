package transport

import "sync"

// httpInbox is the queue between the HTTP streams and Conn.Read. It is
// unbounded on purpose: messages arrive from several streams at once (POST
// bodies, the GET stream, resumed streams), and Write must never wait for
// Read, because the session may write from its read loop. Each message was
// already fully buffered by the parser, so the queue adds no new way for a
// server to grow our memory beyond what it sends.
type httpInbox struct {
	mu    sync.Mutex
	q     []Inbound
	ready chan struct{} // holds a token while q may be non-empty
}

func newHTTPInbox() *httpInbox {
	return &httpInbox{ready: make(chan struct{}, 1)}
}

func (b *httpInbox) push(in Inbound) {
	b.mu.Lock()
	b.q = append(b.q, in)
	b.mu.Unlock()
	select {
	case b.ready <- struct{}{}:
	default: // a token is already there
	}
}

// pop takes the oldest message, if any.
func (b *httpInbox) pop() (Inbound, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.q) == 0 {
		return Inbound{}, false
	}
	in := b.q[0]
	b.q[0] = Inbound{}
	b.q = b.q[1:]
	if len(b.q) > 0 {
		// Keep the token so the next Read does not wait.
		select {
		case b.ready <- struct{}{}:
		default:
		}
	}
	return in, true
}
