package transport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// post sends one message and interprets the reply up to the point where
// Write can return. For an SSE reply it also returns a
// function that reads (and resumes) the stream, which post's goroutine runs
// after Write has returned. p tells how the POST was sent.
func (c *httpConn) post(ctx context.Context, req *http.Request, m *jsonrpc.Message, p httpPlan) (func(), error) {
	what := httpDescribe(m)
	isReq := m.Kind() == jsonrpc.KindRequest
	sid := p.sid
	info := &HTTPInfo{Method: http.MethodPost, URL: c.logURL, Header: httpLogHeader(req.Header)}
	fail := func(err error) (func(), error) {
		err = c.closedErr(fmt.Errorf("transport: POST %s: %w", what, err))
		if isReq {
			c.forget(m.ID)
		}
		// A cancelled ctx is Close or CancelRequest, which say so themselves.
		if ctx.Err() == nil {
			c.errFrame(info, nil, err)
		}
		return nil, err
	}

	resp, err := httpDo(c.client, req)
	if err != nil {
		// Before fail reports it, so that the session, seeing the write
		// fail, finds itself ended and says so (http_gone.go).
		if !c.unreachable(ctx, "POST "+what, err, 1) && ctx.Err() == nil && httpBrokenConnection(err) {
			c.probe(what)
		}
		return fail(err)
	}
	c.reached()
	info.Status = resp.StatusCode
	info.Header = httpLogHeader(resp.Header)

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		se, full := httpReadStatus(http.MethodPost, resp, nil)
		httpDiscard(resp)
		if isReq && httpMayCarryError(resp.StatusCode, sid) {
			// A JSON-RPC error in the body (2026-07-28: -32020 header
			// mismatch, -32021, -32022 and -32602 on 400, -32601 on 404)
			// is the server's answer to the request: it goes to Read like
			// any response, with its data, instead of an opaque status.
			if jerr := httpBodyError(full, m.ID); jerr != nil {
				now := time.Now()
				c.frameIn(full, nil, info, "", now)
				c.deliver(Inbound{Msg: jsonrpc.NewErrorResponse(m.ID, jerr), Received: now})
				return nil, nil
			}
		}
		if resp.StatusCode == http.StatusNotFound && sid != "" {
			se.Err = ErrSessionExpired
			c.dropSession(sid)
		}
		err := c.closedErr(fmt.Errorf("transport: POST %s: %w", what, se))
		if isReq {
			c.forget(m.ID)
		}
		c.errFrame(info, se.Body, err)
		return nil, err
	}
	if m.Method == "initialize" && !p.modern {
		c.adoptSession(resp.Header, info)
	}

	switch httpMediaType(resp.Header.Get(hdrContentType)) {
	case httpMediaSSE:
		var forID jsonrpc.ID
		if isReq {
			forID = m.ID
		}
		return func() {
			defer httpDiscard(resp)
			c.readPOSTStream(ctx, resp, forID, info, p.modern)
		}, nil
	case httpMediaJSON:
		defer httpDiscard(resp)
		return c.readJSONBody(ctx, resp, m, info)
	default:
		defer httpDiscard(resp)
		// 202 (or any 2xx) without a body is the normal answer to a
		// notification or response; a request must get its response.
		body, err := io.ReadAll(io.LimitReader(resp.Body, httpStatusBodyMax))
		if err != nil {
			return fail(fmt.Errorf("read reply: %w", err))
		}
		if len(bytes.TrimSpace(body)) > 0 {
			return fail(fmt.Errorf("HTTP %d with unexpected Content-Type %s", resp.StatusCode,
				httpExcerpt([]byte(resp.Header.Get(hdrContentType)), 60)))
		}
		if isReq {
			return fail(fmt.Errorf("HTTP %d with no body: the server sent no response", resp.StatusCode))
		}
		return nil, nil
	}
}

// readJSONBody handles an application/json reply: one message, or a batch
// of them (2025-03-26). For a
// request, the body must be its response (or Write fails, since none will
// come); a body that is not JSON-RPC is reported as an error frame.
func (c *httpConn) readJSONBody(ctx context.Context, resp *http.Response, m *jsonrpc.Message, info *HTTPInfo) (func(), error) {
	what := httpDescribe(m)
	isReq := m.Kind() == jsonrpc.KindRequest
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(c.maxMsg)+1))
	if err != nil {
		err = c.closedErr(fmt.Errorf("transport: POST %s: read reply: %w", what, err))
		if isReq {
			c.forget(m.ID)
		}
		if ctx.Err() == nil {
			c.errFrame(info, nil, err)
		}
		return nil, err
	}
	if len(body) > c.maxMsg {
		err := fmt.Errorf("transport: POST %s: reply larger than %d bytes", what, c.maxMsg)
		if isReq {
			c.forget(m.ID)
		}
		c.errFrame(info, nil, err)
		return nil, err
	}
	if len(bytes.TrimSpace(body)) == 0 && !isReq {
		return nil, nil // an empty JSON body to a notification: nothing to say
	}
	now := time.Now()
	parts := jsonrpc.DecodeFrame(body)
	for _, p := range parts {
		c.frameIn(p.Raw, p.Err, info, "", now)
		switch {
		case p.Err == nil:
			c.deliver(Inbound{Msg: p.Msg, Received: now})
		case len(parts) == 1 && isReq && c.forget(m.ID):
			// The JSON reply to a request is its response, so one we
			// cannot read ends the request at once (see Conn).
			c.inbox.push(Inbound{ID: m.ID, Err: p.Err, Received: now})
			return nil, nil
		default:
			// In a batch, only a response whose id we can read says
			// which request it ends.
			if in, ok := undecodableReply(p.Err, now); ok && c.forget(in.ID) {
				c.inbox.push(in)
			}
		}
	}
	if isReq && c.forget(m.ID) {
		// Still pending: the body was not its response.
		return nil, fmt.Errorf("transport: POST %s: JSON reply is not the response to it", what)
	}
	return nil, nil
}

// httpStatusError reads the start of a failed reply's body.
func httpStatusError(method string, resp *http.Response, sentinel error) *StatusError {
	se, _ := httpReadStatus(method, resp, sentinel)
	return se
}

// httpReadStatus is httpStatusError that also returns the body's first
// httpErrorBodyMax bytes, for httpBodyError; StatusError.Body keeps the
// first httpStatusBodyMax of them.
func httpReadStatus(method string, resp *http.Response, sentinel error) (*StatusError, []byte) {
	full, _ := io.ReadAll(io.LimitReader(resp.Body, httpErrorBodyMax))
	return &StatusError{
		Method: method, StatusCode: resp.StatusCode,
		ContentType: httpMediaType(resp.Header.Get(hdrContentType)),
		Body:        full[:min(len(full), httpStatusBodyMax):min(len(full), httpStatusBodyMax)],
		Err:         sentinel,
	}, full
}

// httpErrorBodyMax bounds a 4xx body read as a JSON-RPC error: room for
// -32021's requiredCapabilities or -32022's supported list, not a flood.
const httpErrorBodyMax = 64 << 10

// httpMayCarryError reports whether a failed reply to a request may be a
// JSON-RPC error response: 400, or 404 when no session was involved (with
// a session, 404 means it expired, which the session must handle).
func httpMayCarryError(status int, sid string) bool {
	return status == http.StatusBadRequest || status == http.StatusNotFound && sid == ""
}

// httpDiscard closes a reply body after draining a little of it, so that a
// short leftover does not cost the keep-alive connection.
func httpDiscard(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	_ = resp.Body.Close()
}

// httpBody returns a request body that can be replayed on redirects.
func httpBody(b []byte) io.Reader {
	if b == nil {
		return nil
	}
	return bytes.NewReader(b)
}

// httpDescribe names a message for errors: its method and id.
func httpDescribe(m *jsonrpc.Message) string {
	switch {
	case m.Method != "" && m.ID.IsValid():
		return fmt.Sprintf("%s (id %s)", m.Method, m.ID)
	case m.Method != "":
		return m.Method
	default:
		return "response (id " + m.ID.String() + ")"
	}
}
