package transport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// post sends one message and interprets the reply up to the point where
// Write can return. For an SSE reply it also returns a
// function that reads (and resumes) the stream, which post's goroutine runs
// after Write has returned. sid is the session id the POST carried.
func (c *httpConn) post(ctx context.Context, req *http.Request, m *jsonrpc.Message, sid string) (func(), error) {
	what := httpDescribe(m)
	isReq := m.Kind() == jsonrpc.KindRequest
	info := &HTTPInfo{Method: http.MethodPost, URL: c.url, Header: httpLogHeader(req.Header)}
	fail := func(err error) (func(), error) {
		err = c.closedErr(fmt.Errorf("transport: POST %s: %w", what, err))
		if isReq {
			c.forget(m.ID)
		}
		if c.ctx.Err() == nil {
			c.errFrame(info, nil, err)
		}
		return nil, err
	}

	resp, err := c.client.Do(req)
	if err != nil {
		return fail(err)
	}
	info.Status = resp.StatusCode
	info.Header = httpLogHeader(resp.Header)

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		se := httpStatusError(http.MethodPost, resp, nil)
		httpDiscard(resp)
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
	if m.Method == "initialize" {
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
			c.readPOSTStream(ctx, resp, forID, info)
		}, nil
	case httpMediaJSON:
		defer httpDiscard(resp)
		return c.readJSONBody(resp, m, info)
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

// readJSONBody handles an application/json reply: one message. For a
// request, the body must be its response (or Write fails, since none will
// come); a body that is not JSON-RPC is reported as an error frame.
func (c *httpConn) readJSONBody(resp *http.Response, m *jsonrpc.Message, info *HTTPInfo) (func(), error) {
	what := httpDescribe(m)
	isReq := m.Kind() == jsonrpc.KindRequest
	body, err := io.ReadAll(io.LimitReader(resp.Body, sseMaxEvent+1))
	if err != nil {
		err = c.closedErr(fmt.Errorf("transport: POST %s: read reply: %w", what, err))
		if isReq {
			c.forget(m.ID)
		}
		c.errFrame(info, nil, err)
		return nil, err
	}
	if len(body) > sseMaxEvent {
		err := fmt.Errorf("transport: POST %s: reply larger than %d bytes", what, sseMaxEvent)
		if isReq {
			c.forget(m.ID)
		}
		c.errFrame(info, nil, err)
		return nil, err
	}
	if len(bytes.TrimSpace(body)) == 0 && !isReq {
		return nil, nil // an empty JSON body to a notification: nothing to say
	}
	msg, derr := jsonrpc.Decode(body)
	c.frameIn(body, derr, info, "")
	if derr == nil {
		c.deliver(msg)
	}
	if isReq && c.forget(m.ID) {
		// Still pending: the body was not its response.
		if derr != nil {
			return nil, fmt.Errorf("transport: POST %s: bad JSON reply: %w", what, derr)
		}
		return nil, fmt.Errorf("transport: POST %s: JSON reply is not the response to it", what)
	}
	return nil, nil
}

// httpStatusError reads the start of a failed reply's body.
func httpStatusError(method string, resp *http.Response, sentinel error) *StatusError {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, httpStatusBodyMax))
	return &StatusError{Method: method, StatusCode: resp.StatusCode, Body: body, Err: sentinel}
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
