package transport

import (
	"context"
	"time"
)

// Reconnection timing of SSE streams. The default retry is the WHATWG
// suggestion; the spec lets the server set its own with the SSE retry
// field, which is a floor: it is never shortened, only lengthened, first
// to httpMinRetry (a "retry: 0" would reconnect as fast as the server can
// close), then doubled for every reconnect in a row that brought no
// message (a fresh event id alone is none, or a server could reset the
// backoff at will), up to a cap. A connection that delivered a message
// resets it.
const (
	httpDefaultRetry = time.Second
	httpMinRetry     = 250 * time.Millisecond
	// httpMaxQuietBackoff caps the wait after streams that opened and
	// ended with nothing to say: such a server is alive, and a SEP-1699
	// poll of a long call should pick up its answer within this much.
	httpMaxQuietBackoff = 5 * time.Second
	// httpMaxBackoff caps the wait after attempts that failed.
	httpMaxBackoff = 30 * time.Second
)

// httpBackoff is max(retry, httpMinRetry) doubled n times, capped at limit
// (or at the server's retry, if it asked for more).
func httpBackoff(retry time.Duration, n int, limit time.Duration) time.Duration {
	d := max(retry, httpMinRetry)
	limit = max(limit, d)
	for i := 0; i < n && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}

// ended records that a connection of the stream ended after it opened;
// msgsBefore is what cur.msgs was when it opened.
func (cur *httpCursor) ended(msgsBefore int) {
	if cur.msgs != msgsBefore {
		cur.quiet = 0
	} else {
		cur.quiet++
	}
	cur.failing = false
}

// failed records an attempt to connect that got no stream.
func (cur *httpCursor) failed() {
	cur.quiet++
	cur.failing = true
}

// wait is how long to wait before the next attempt. The first quiet
// reconnect waits just the retry, so that a server that closes the stream
// after each message is reconnected as it asked.
func (cur *httpCursor) wait() time.Duration {
	limit := httpMaxQuietBackoff
	if cur.failing {
		limit = httpMaxBackoff
	}
	return httpBackoff(cur.retry, max(cur.quiet-1, 0), limit)
}

// httpSleep waits d or until ctx ends.
func httpSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
