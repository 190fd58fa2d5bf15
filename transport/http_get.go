package transport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

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
//     reached at all ends the Conn: Read reports it (markGone). Attempts
//     that cannot connect at all end it sooner, at the second in a row
//     (http_gone.go).
//   - When an open stream drops, it is resumed with Last-Event-ID after the
//     server's retry delay, at least httpMinRetry. Drops that delivered no
//     message double the delay (capped; see http_backoff.go), whatever
//     event ids and retry they carried, so a server that closes streams at
//     once is polled slowly rather than hammered.
//
// ready is closed once the first GET has been answered, whatever the answer.
func (c *httpConn) runStandalone(ctx context.Context, ready chan struct{}) {
	const what = "standalone GET stream"
	cur := newHTTPCursor()
	opened := false
	fails := 0
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
			if c.unreachable(ctx, what, err, httpRefusedLimit) {
				return // the server is gone (http_gone.go): Read says so
			}
			// A stream that never opened is the end, unless no connection
			// could be made: that one gets its second try.
			if !opened && !httpNoConnection(err) || isStatus && se.StatusCode == http.StatusNotFound {
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
			cur.failed()
			if httpSleep(ctx, cur.wait()) != nil {
				return
			}
			continue
		}
		opened, fails = true, 0
		msgs := cur.msgs
		end, _ := c.consumeSSE(ctx, resp.Body, info, cur, jsonrpc.ID{})
		_ = resp.Body.Close()
		cur.ended(msgs)
		switch {
		case end == httpEndStopped:
			return
		case c.maxRetries == 0:
			return // reconnection disabled
		}
		if httpSleep(ctx, cur.wait()) != nil {
			return
		}
	}
}
