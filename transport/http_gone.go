package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"
	"time"
)

// A dead server. Over Streamable HTTP no connection need outlive a
// request, so a server that died is noticed only by a request that cannot
// reach it. Once the Conn has reached the server, an attempt that cannot
// connect at all (refused, unreachable, no such host; not a broken
// connection, not a status) is the sign:
//
//   - a POST that cannot connect ends the Conn at once: it is the person's
//     own request that failed, and no stream is left to carry an answer;
//     a POST whose connection broke before any answer (EOF, reset: often
//     a kept-alive connection of a server that just died) is followed by
//     a HEAD on a new connection, and if that cannot connect, the same;
//   - a stream reconnect (the standalone GET stream, or a request's stream
//     resumed with Last-Event-ID) that cannot connect gets one more try,
//     after the usual backoff, so that a stream dropped by a server
//     restarting in place still resumes; the second in a row ends it.
//
// Ending it is markGone: Read reports why, the session ends Disconnected
// and its open prompts with it, within seconds of the death instead of
// after MaxRetries reconnects spaced by a backoff that grows to 30 s. A
// stream that drops while the server still answers is resumed as before.

// httpRefusedLimit is how many attempts in a row that could not connect
// end the Conn, for a stream reconnect.
const httpRefusedLimit = 2

// httpProbeTimeout bounds the probe of a server whose POST got no answer;
// a server that takes longer to answer a HEAD is there, if slow.
const httpProbeTimeout = 2 * time.Second

// httpNoConnection reports whether err says that no connection to the
// server could be made at all. A cancelled or expired context is ours, not
// the server's.
func httpNoConnection(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial" &&
		!errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// reached records that the server answered an HTTP request (whatever the
// status): it is there.
func (c *httpConn) reached() {
	c.mu.Lock()
	c.contacted, c.refused = true, 0
	c.mu.Unlock()
}

// unreachable records an attempt under ctx that failed with err; when err
// says no connection could be made, the server was reached before, and it
// is the limit-th such attempt in a row, the Conn ends (markGone) and
// unreachable reports true. Before the first contact a failure is the
// dial's own error, which the session reports as a failed connect.
func (c *httpConn) unreachable(ctx context.Context, what string, err error, limit int) bool {
	if ctx.Err() != nil || !httpNoConnection(err) {
		return false
	}
	c.mu.Lock()
	if !c.contacted {
		c.mu.Unlock()
		return false
	}
	c.refused++
	n := c.refused
	c.mu.Unlock()
	if n < limit {
		return false
	}
	why := "could not connect"
	if n > 1 {
		why = fmt.Sprintf("%d attempts in a row could not connect", n)
	}
	c.markGone(fmt.Errorf("transport: the server cannot be reached (%s: %s): %w", what, why, err))
	return true
}

// httpBrokenConnection reports whether err says a request's connection
// broke before any answer came (EOF, reset, broken pipe), as opposed to a
// connection never made, an answer, or our context ending.
func httpBrokenConnection(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || httpNoConnection(err) {
		return false
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// probe asks, after the POST of what broke without an answer, whether the
// server is still there: a HEAD on the endpoint (no body, no effect; its
// status does not matter) on a new connection. One that cannot connect
// ends the Conn (unreachable); any answer says the server is there.
func (c *httpConn) probe(what string) {
	ctx, cancel := context.WithTimeout(c.ctx, httpProbeTimeout)
	defer cancel()
	req, err := c.newRequest(ctx, http.MethodHead, nil, "", "", "", nil)
	if err != nil {
		return
	}
	resp, err := httpDo(c.client, req)
	if err != nil {
		c.unreachable(ctx, "POST "+what+" broke, then a HEAD", err, 1)
		return
	}
	httpDiscard(resp)
	c.reached()
}
