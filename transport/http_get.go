package transport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// runStandalone keeps the standalone GET stream, on which the server sends
// requests and notifications unrelated to our calls (list changes, logs).
//
//   - 405 means the server offers none: stop, silently.
//   - Any other failure is an error frame. If the stream never opened, that
//     is the end; once it was open, failures are retried with backoff, up to
//     MaxRetries in a row (a 404 ends it: the session is gone, and the next
//     POST tells the session so). Giving up because the server could not be
//     reached at all ends the Conn: Read reports it (markGone).
//   - When an open stream drops, it is resumed with Last-Event-ID after the
//     server's retry delay. Drops that delivered nothing double the delay
//     (capped), so a server that closes idle streams at once is polled
//     slowly rather than hammered.
//
// ready is closed once the first GET has been answered, whatever the answer.
func (c *httpConn) runStandalone(ctx context.Context, ready chan struct{}) {
	const what = "standalone GET stream"
	cur := newHTTPCursor()
	opened := false
	fails, idle := 0, 0
	var once sync.Once
	answered := func() { once.Do(func() { close(ready) }) }
	defer answered()
	for {
		resp, info, err := c.openGET(ctx, cur.lastID)
		answered()
		if ctx.Err() != nil {
			if resp != nil {
				_ = resp.Body.Close()
			}
			return
		}
		if err != nil {
			var se *StatusError
			isStatus := errors.As(err, &se)
			if isStatus && se.StatusCode == http.StatusMethodNotAllowed {
				return
			}
			var body []byte
			if isStatus {
				body = se.Body
			}
			c.errFrame(info, body, fmt.Errorf("transport: %s: %w", what, err))
			if !opened || isStatus && se.StatusCode == http.StatusNotFound {
				return
			}
			fails++
			if fails > c.maxRetries {
				c.errFrame(info, nil, fmt.Errorf("transport: %s: gave up after %d failed reconnects", what, fails-1))
				if !isStatus {
					// Not an answer we dislike but no answer at all: the
					// server is gone. (One that answers with errors is
					// alive; its POSTs will say what is wrong.)
					c.markGone(fmt.Errorf("transport: the server cannot be reached (%s, %d reconnects): %w", what, fails-1, err))
				}
				return
			}
			if httpSleep(ctx, httpBackoff(cur.retry, fails-1)) != nil {
				return
			}
			continue
		}
		opened, fails = true, 0
		msgs, lastID := cur.msgs, cur.lastID
		end, err := c.consumeSSE(ctx, resp.Body, info, cur, jsonrpc.ID{})
		_ = resp.Body.Close()
		switch {
		case end == httpEndStopped:
			return
		case c.maxRetries == 0:
			return // reconnection disabled
		}
		if cur.msgs == msgs && cur.lastID == lastID {
			idle++
		} else {
			idle = 0
		}
		if httpSleep(ctx, httpBackoff(cur.retry, idle)) != nil {
			return
		}
	}
}

// httpBackoff is base doubled n times, capped at httpMaxBackoff (or at base,
// if the server asked for more: its retry is a floor, never shortened). A
// zero base ("retry: 0") is honoured once; repeats start from a small floor
// so that a failing server is not hammered in a loop.
func httpBackoff(base time.Duration, n int) time.Duration {
	if n == 0 {
		return base
	}
	limit := max(httpMaxBackoff, base)
	d := max(base, httpMinBackoff)
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}
