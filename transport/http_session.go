package transport

import (
	"context"
	"fmt"
	"net/http"
)

// The Mcp-Session-Id of the stateful eras: taken from the initialize
// response, sent on every later request, dropped when the server says it
// expired, and ended with DELETE on Close.

// session returns the current session id and protocol version.
func (c *httpConn) session() (sid, ver string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID, c.version
}

// adoptSession takes the session id from an initialize response. An id
// that is not visible ASCII is refused (it could smuggle header bytes).
func (c *httpConn) adoptSession(h http.Header, info *HTTPInfo) {
	sid := h.Get(hdrSessionID)
	if sid != "" && !httpValidSessionID(sid) {
		c.errFrame(info, nil, fmt.Errorf("transport: ignoring %s %s: not visible ASCII", hdrSessionID, httpExcerpt([]byte(sid), 40)))
		sid = ""
	}
	c.mu.Lock()
	c.sessionID = sid
	c.mu.Unlock()
}

// dropSession forgets sid after the server said it expired (404), and stops
// the GET stream that belonged to it. A newer session id is left alone.
func (c *httpConn) dropSession(sid string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sid == "" || c.sessionID != sid {
		return
	}
	c.sessionID = ""
	if c.standalone != nil {
		c.standalone.cancel()
		c.standalone = nil
	}
}

// deleteSession sends DELETE with a fresh, bounded context: the root one is
// already cancelled, and a hung server must not hang Close.
func (c *httpConn) deleteSession(sid, ver string) {
	ctx, cancel := context.WithTimeout(context.Background(), httpDeleteTimeout)
	defer cancel()
	req, err := c.newRequest(ctx, http.MethodDelete, nil, sid, ver, "", nil)
	if err != nil {
		return
	}
	info := &HTTPInfo{Method: http.MethodDelete, URL: c.logURL, Header: httpLogHeader(req.Header)}
	resp, err := httpDo(c.client, req)
	if err != nil {
		c.errFrame(info, nil, fmt.Errorf("transport: DELETE session: %w", err))
		return
	}
	defer httpDiscard(resp)
	info.Status = resp.StatusCode
	switch {
	case resp.StatusCode < 300, resp.StatusCode == http.StatusMethodNotAllowed,
		resp.StatusCode == http.StatusNotFound: // already gone
	default:
		se := httpStatusError(http.MethodDelete, resp, nil)
		c.errFrame(info, se.Body, fmt.Errorf("transport: DELETE session: %w", se))
	}
}
