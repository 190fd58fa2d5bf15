package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// errHTTPNoResume means a stream ended before the response and the server
// gave no event id to resume it from.
var errHTTPNoResume = errors.New("stream ended before the response, with no event id to resume from")

// httpCursor is where one logical SSE stream stands across reconnects: the
// id to resume from, the reconnection delay the server asked for, and how
// far the backoff from it has gone (see wait).
type httpCursor struct {
	lastID  string
	retry   time.Duration
	msgs    int  // messages delivered from this stream, over all connections
	quiet   int  // connections and attempts in a row that brought no message
	failing bool // the last attempt got no stream at all
}

func newHTTPCursor() *httpCursor { return &httpCursor{retry: httpDefaultRetry} }

// httpStreamEnd tells why one connection of a stream stopped.
type httpStreamEnd int

const (
	httpEndDropped  httpStreamEnd = iota // EOF or read error: resumable
	httpEndAnswered                      // the awaited response arrived
	httpEndStopped                       // our context ended
)

// consumeSSE reads one SSE reply body, delivering each message to Read in
// order, until the body ends or, if forID is set, its response arrives.
// Events with empty data (SEP-1699 priming events) only move the cursor;
// events of a type other than "message" are not MCP messages and are
// skipped; malformed ones become error frames, and so do ones past the
// limit (an answer among those still ends its request).
func (c *httpConn) consumeSSE(ctx context.Context, body io.Reader, info *HTTPInfo, cur *httpCursor, forID jsonrpc.ID) (httpStreamEnd, error) {
	p := newSSEReader(body, c.maxMsg)
	// WHATWG keeps the last event id across reconnections.
	p.lastID = cur.lastID
	for {
		ev, err := p.Next()
		cur.lastID = p.LastEventID()
		if d, ok := p.Retry(); ok {
			cur.retry = d
		}
		switch {
		case ctx.Err() != nil:
			return httpEndStopped, ctx.Err()
		case err != nil:
			return httpEndDropped, err // io.EOF included: the server closed it
		}
		if ev.Type != "" && ev.Type != "message" {
			continue
		}
		if ev.TooLarge {
			if c.skipTooLarge(ev, info, forID) {
				return httpEndAnswered, nil
			}
			continue
		}
		if len(ev.Data) == 0 {
			continue
		}
		if c.deliverEvent(ev, info, cur, forID) {
			return httpEndAnswered, nil
		}
	}
}

// skipTooLarge reports an event past the limit and ends the pending
// requests it shows an answer to (see Conn); it reports whether forID's
// was among them.
func (c *httpConn) skipTooLarge(ev sseEvent, info *HTTPInfo, forID jsonrpc.ID) (answered bool) {
	now := time.Now()
	c.frameIn(ev.Data, fmt.Errorf("%w: %d bytes exceed the limit of %d; skipped (first %d bytes shown)",
		errSSETooLarge, ev.Size, c.maxMsg, len(ev.Data)), info, ev.ID, now)
	for _, in := range tooLargeReplies(ev.Data, ev.Size, c.maxMsg, now) {
		if c.forget(in.ID) {
			c.inbox.push(in)
			answered = answered || forID.IsValid() && in.ID == forID
		}
	}
	return answered
}

// deliverEvent queues the messages of one event (one, or a batch's) for
// Read and reports whether forID's response was among them.
func (c *httpConn) deliverEvent(ev sseEvent, info *HTTPInfo, cur *httpCursor, forID jsonrpc.ID) (answered bool) {
	now := time.Now()
	for _, p := range jsonrpc.DecodeFrame(ev.Data) {
		c.frameIn(p.Raw, p.Err, info, ev.ID, now)
		if p.Err != nil {
			// A response we cannot read still ends its request (Conn);
			// only a pending one, since nothing else waits for it.
			if in, ok := undecodableReply(p.Err, now); ok && c.forget(in.ID) {
				c.inbox.push(in)
				answered = answered || forID.IsValid() && in.ID == forID
			}
			continue
		}
		msg := p.Msg
		cur.msgs++
		in := Inbound{Msg: msg, Received: now}
		if forID.IsValid() && msg.Kind() != jsonrpc.KindResponse {
			// A server request or notification on a request's stream
			// belongs to that request (the spec says it should relate to
			// it); the engine uses this to key and attribute prompts.
			in.RelatedID = forID
		}
		c.deliver(in)
		answered = answered || forID.IsValid() && msg.Kind() == jsonrpc.KindResponse && msg.ID == forID
	}
	return answered
}

// readPOSTStream reads the SSE reply of a POST. If it ends before the
// response to forID, it resumes it with GET and Last-Event-ID, after the
// server's retry delay, until the response comes (from this stream or any
// other), MaxRetries reconnects in a row make no progress, or the stream
// cannot be resumed; in the last two cases the call is failed. A modern
// (2026-07-28) stream is never resumed: the server took its end as a
// cancel, so the call fails at once with ErrRequestLost.
func (c *httpConn) readPOSTStream(ctx context.Context, resp *http.Response, forID jsonrpc.ID, info *HTTPInfo, modern bool) {
	cur := newHTTPCursor()
	what := "POST stream"
	if forID.IsValid() {
		what = "stream of request " + forID.String()
	}
	body := resp.Body
	tries := 0 // reconnects since the cursor last moved
	for {
		before, msgs := cur.lastID, cur.msgs
		end, err := c.consumeSSE(ctx, body, info, cur, forID)
		if end == httpEndAnswered {
			httpDrainAnswered(body)
		}
		_ = body.Close()
		cur.ended(msgs)
		pending := forID.IsValid() && c.isPending(forID)
		switch {
		case end == httpEndAnswered, end == httpEndStopped:
			return
		case !pending:
			// A POST of a notification or response has nothing to wait
			// for, and an answer that came on another stream settles it.
			return
		case modern:
			c.failCall(forID, info, fmt.Errorf("transport: %s ended before its response (%v): %w", what, err, ErrRequestLost))
			return
		case cur.lastID == "":
			c.failCall(forID, info, fmt.Errorf("transport: %s: %w", what, errHTTPNoResume))
			return
		}
		if cur.lastID != before {
			tries = 0
		}
		resp, rinfo, err := c.resume(ctx, cur, &tries, what)
		if err != nil {
			if ctx.Err() == nil {
				c.failCall(forID, rinfo, err)
			}
			return
		}
		body, info = resp.Body, rinfo
	}
}

// httpDrainAnswered reads what is left of a request's stream once its
// response has come, so that the connection goes back to the client's pool:
// a server ends the stream right after the response (the end of the chunked
// body is a few bytes, usually in flight already), and a body closed before
// its end costs the connection, so the next request dials a new one. A
// server that keeps the stream open gets httpDrainWait and httpDrainMax
// bytes, then the stream is closed as before; what it sent after the
// response is not read as messages (it was not before either).
func httpDrainAnswered(body io.ReadCloser) {
	t := time.AfterFunc(httpDrainWait, func() { _ = body.Close() })
	defer t.Stop()
	_, _ = io.Copy(io.Discard, io.LimitReader(body, httpDrainMax))
}

// Bounds of httpDrainAnswered.
const (
	httpDrainWait = 100 * time.Millisecond
	httpDrainMax  = 64 << 10
)

// resume reconnects a stream with GET and Last-Event-ID. It waits at least
// the server's retry delay first (a MUST in SEP-1699), backing off from it
// after each attempt that brought no message (cur.wait). tries counts
// attempts without progress (a new event id); past maxRetries it gives up.
// 405 (no GET support) and 404 (session gone) end it at once, and so does
// a server that cannot be reached (http_gone.go), which ends the Conn.
func (c *httpConn) resume(ctx context.Context, cur *httpCursor, tries *int, what string) (*http.Response, *HTTPInfo, error) {
	var last error
	for {
		if *tries >= c.maxRetries {
			if last == nil {
				last = errors.New("the stream kept ending without progress")
			}
			return nil, c.getInfo(nil), fmt.Errorf("transport: %s: gave up after %d reconnects: %w", what, *tries, last)
		}
		*tries++
		if err := httpSleep(ctx, cur.wait()); err != nil {
			return nil, c.getInfo(nil), err
		}
		resp, info, err := c.openGET(ctx, cur.lastID)
		if err == nil {
			return resp, info, nil
		}
		if ctx.Err() != nil {
			return nil, info, ctx.Err()
		}
		var se *StatusError
		if errors.As(err, &se) && (se.StatusCode == http.StatusMethodNotAllowed || se.StatusCode == http.StatusNotFound) ||
			c.unreachable(ctx, what+" resume", err, httpRefusedLimit) {
			return nil, info, fmt.Errorf("transport: %s: resume: %w", what, err)
		}
		c.errFrame(info, nil, fmt.Errorf("transport: %s: resume: %w", what, err))
		cur.failed()
		last = err
	}
}

// openGET opens an SSE stream with GET, resuming after lastEventID if set.
// It returns the open response, or a *StatusError for a non-2xx reply (a
// 404 for our session wraps ErrSessionExpired). The session id is kept: the
// next POST gets the same 404 and Write tells the session, which drops it
// then; dropping it here would turn that 404 into a confusing 400.
func (c *httpConn) openGET(ctx context.Context, lastEventID string) (*http.Response, *HTTPInfo, error) {
	sid, ver := c.session()
	req, err := c.newRequest(ctx, http.MethodGet, nil, sid, ver, lastEventID, nil)
	if err != nil {
		return nil, c.getInfo(nil), err
	}
	info := c.getInfo(req.Header)
	resp, err := httpDo(c.client, req)
	if err != nil {
		return nil, info, fmt.Errorf("GET: %w", err)
	}
	c.reached()
	info.Status = resp.StatusCode
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		se := httpStatusError(http.MethodGet, resp, nil)
		httpDiscard(resp)
		if resp.StatusCode == http.StatusNotFound && sid != "" {
			se.Err = ErrSessionExpired
		}
		return nil, info, se
	}
	if mt := httpMediaType(resp.Header.Get(hdrContentType)); mt != httpMediaSSE {
		httpDiscard(resp)
		return nil, info, fmt.Errorf("GET: reply is %s, not an event stream", httpExcerpt([]byte(mt), 60))
	}
	// Frames of the stream show the reply's headers; the request's
	// Last-Event-ID stays visible, since it tells where the stream resumed.
	h := httpLogHeader(resp.Header)
	if lastEventID != "" {
		h.Set(hdrLastEventID, lastEventID)
	}
	info.Header = h
	return resp, info, nil
}

// getInfo describes a GET for frames; h is the request's headers, if any.
func (c *httpConn) getInfo(h http.Header) *HTTPInfo {
	info := &HTTPInfo{Method: http.MethodGet, URL: c.logURL}
	if h != nil {
		info.Header = httpLogHeader(h)
	}
	return info
}
