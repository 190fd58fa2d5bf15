package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/redact"
)

// SSE is the legacy HTTP+SSE transport of protocol 2024-11-05 (deprecated
// since 2025-03-26, still served by older servers): a long-lived GET event
// stream carries everything from the server, and each of our messages is
// POSTed to the endpoint the stream names in its first "endpoint" event.
//
// Every "message" event reaches Read, server requests (elicitation/create,
// sampling, roots) included. There is no resumption in this protocol: when
// the stream drops, the connection is lost and Read fails with an error
// wrapping io.EOF (or the read error).
//
// Use it when a Streamable HTTP POST of initialize fails with 400, 404 or
// 405 (see HTTP for the whole era probe); HTTP.Legacy builds it.
type SSE struct {
	// URL is the SSE endpoint (often .../sse).
	URL string
	// Header holds custom headers (e.g. Authorization) sent on the GET and
	// every POST. The transport's own headers take precedence.
	Header http.Header
	// Client makes the requests. Nil means a private client with no overall
	// timeout (the stream lives long); the Conn closes its idle connections
	// on Close. Redirects stay on the origin, as for HTTP.Client.
	Client *http.Client
	// Observer receives every frame; nil drops them.
	Observer Observer
	// EndpointTimeout bounds the wait for the endpoint event when Dial's
	// ctx has no deadline of its own; zero means DefaultEndpointTimeout.
	EndpointTimeout time.Duration
	// MessageLimit bounds one incoming message (an event's data); zero
	// means DefaultLineLimit. A larger one is skipped, and if it was an
	// answer whose id shows in its start, its call ends (see Conn).
	MessageLimit int
}

// DefaultEndpointTimeout bounds the wait for the endpoint event when Dial's
// ctx has no deadline: a server that opens the stream and then sends only
// keep-alives must not hold Dial for ever.
const DefaultEndpointTimeout = 30 * time.Second

// legacyPostBodyMax bounds how much of a POST reply is read: the body means
// nothing in this protocol (answers come on the stream).
const legacyPostBodyMax = 4 << 10

var (
	_ Transport     = (*SSE)(nil)
	_ Conn          = (*sseConn)(nil)
	_ VersionSetter = (*sseConn)(nil)
)

// Dial opens the event stream and waits for its endpoint event; ctx bounds
// both, and so does EndpointTimeout if ctx has no deadline (the error then
// wraps context.DeadlineExceeded and says no endpoint came). A non-2xx
// answer to the GET fails with a *StatusError. An endpoint on another
// origin (scheme, host and port) than the SSE URL is refused, so a server
// cannot make us POST our traffic, and the custom headers with it,
// elsewhere.
func (t *SSE) Dial(ctx context.Context) (Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("transport: dial %s: %w", redact.URL(t.URL), err)
	}
	u, err := ParseHTTPURL(t.URL)
	if err != nil {
		return nil, fmt.Errorf("transport: dial: %w", err)
	}
	c := &sseConn{
		base:   u,
		url:    u.String(),
		logURL: redact.URL(u.String()),
		header: t.Header.Clone(),
		obs:    t.Observer,
		maxMsg: messageLimit(t.MessageLimit),
		inbox:  newHTTPInbox(),
		ended:  make(chan struct{}),
	}
	c.client, c.ownClient = originClient(t.Client)
	if c.obs == nil {
		c.obs = ObserverFuncs{}
	}
	if _, ok := ctx.Deadline(); !ok {
		wait := t.EndpointTimeout
		if wait <= 0 {
			wait = DefaultEndpointTimeout
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, wait, fmt.Errorf(
			"no endpoint event within %v (the server must name where to POST first): %w", wait, context.DeadlineExceeded))
		defer cancel()
	}
	// The root context outlives Dial's ctx, which bounds only the dial:
	// until the endpoint arrives, ctx ending cancels the stream too.
	c.ctx, c.cancel = context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, c.cancel)
	p, err := c.open()
	stopped := stop()
	if err == nil && !stopped {
		err = context.Cause(ctx) // ctx ended just as the endpoint came
	}
	if err != nil {
		// A cancelled GET says only "context canceled": tell why instead.
		if cause := context.Cause(ctx); cause != nil && !errors.Is(err, cause) {
			if errors.Is(err, context.Canceled) {
				err = cause
			} else {
				err = fmt.Errorf("%w: %w", cause, err)
			}
		}
		c.cancel()
		if c.resp != nil {
			_ = c.resp.Body.Close()
		}
		if c.ownClient {
			c.client.CloseIdleConnections()
		}
		return nil, fmt.Errorf("transport: dial legacy SSE %s: %w", c.logURL, err)
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.readLoop(p)
	}()
	return c, nil
}

// sseConn is the Conn of SSE. One goroutine reads the stream (readLoop);
// POSTs run in the writers' goroutines.
type sseConn struct {
	base      *url.URL
	url       string
	logURL    string // url as frames and errors show it (RedactURL)
	header    http.Header
	client    *http.Client
	ownClient bool
	obs       Observer
	maxMsg    int // MessageLimit, defaulted

	ctx    context.Context // cancelled by Close (or a failed Dial)
	cancel context.CancelFunc
	wg     sync.WaitGroup
	inbox  *httpInbox

	// Set by open before readLoop starts; read-only afterwards.
	endpoint string // where messages are POSTed
	resp     *http.Response
	info     *HTTPInfo // describes the GET, for incoming frames

	ended  chan struct{} // closed when readLoop ends
	endErr error         // why the stream ended; written before ended closes

	mu        sync.Mutex
	version   string
	closeOnce sync.Once
}

// open sends the GET and reads up to the endpoint event. Messages before it
// (unusual, but harmless) are delivered. It returns the parser positioned
// after the endpoint event; the response body stays open for readLoop.
func (c *sseConn) open() (*sseReader, error) {
	req, err := http.NewRequestWithContext(c.ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return nil, fmt.Errorf("build GET request: %w", err)
	}
	c.setHeaders(req)
	req.Header.Set(hdrAccept, httpMediaSSE)
	c.info = &HTTPInfo{Method: http.MethodGet, URL: c.logURL, Header: httpLogHeader(req.Header)}
	resp, err := httpDo(c.client, req)
	if err != nil {
		return nil, fmt.Errorf("GET: %w", err)
	}
	c.info.Status = resp.StatusCode
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		se := httpStatusError(http.MethodGet, resp, nil)
		httpDiscard(resp)
		c.errFrame(se.Body, se)
		return nil, se
	}
	if mt := httpMediaType(resp.Header.Get(hdrContentType)); mt != httpMediaSSE {
		httpDiscard(resp)
		return nil, fmt.Errorf("GET: reply is %s, not an event stream", httpExcerpt([]byte(mt), 60))
	}
	c.info.Header = httpLogHeader(resp.Header)
	p := newSSEReader(resp.Body, c.maxMsg)
	for {
		ev, err := p.Next()
		if err != nil {
			_ = resp.Body.Close()
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("the stream ended before its endpoint event: %w", err)
			}
			return nil, err
		}
		if ev.Type != "endpoint" {
			c.event(ev)
			continue
		}
		ep, err := c.resolveEndpoint(string(ev.Data))
		if err != nil {
			_ = resp.Body.Close()
			c.errFrame(ev.Data, err)
			return nil, err
		}
		c.endpoint, c.resp = ep, resp
		return p, nil
	}
}

// resolveEndpoint resolves the endpoint event's URI against the SSE URL and
// checks it stays on the same origin.
func (c *sseConn) resolveEndpoint(data string) (string, error) {
	ref, err := url.Parse(strings.TrimSpace(data))
	if err != nil {
		return "", fmt.Errorf("endpoint event %s is not a URI: %w", httpExcerpt([]byte(data), 100), err)
	}
	ep := c.base.ResolveReference(ref)
	if !sameOrigin(c.base, ep) {
		return "", fmt.Errorf("endpoint event names %s, on another origin than %s: refusing to send messages there",
			httpExcerpt([]byte(ep.Redacted()), 100), httpExcerpt([]byte(c.base.Scheme+"://"+c.base.Host), 100))
	}
	ep.Fragment, ep.RawFragment = "", ""
	return ep.String(), nil
}

// readLoop delivers the stream's messages until it ends, then records why
// and wakes Read.
func (c *sseConn) readLoop(p *sseReader) {
	defer close(c.ended)
	defer httpDiscard(c.resp)
	for {
		ev, err := p.Next()
		if err != nil {
			switch {
			case c.ctx.Err() != nil:
				c.endErr = ErrClosed
			case errors.Is(err, io.EOF):
				c.endErr = fmt.Errorf("transport: legacy SSE stream ended; the connection is lost: %w", err)
			default:
				c.endErr = fmt.Errorf("transport: legacy SSE stream broke; the connection is lost: %w", err)
			}
			if c.ctx.Err() == nil {
				c.errFrame(nil, c.endErr)
			}
			return
		}
		switch ev.Type {
		case "", "message":
			c.event(ev)
		case "endpoint":
			// The endpoint is fixed for the connection; a second one
			// would let the server redirect our traffic mid-session.
			c.errFrame(ev.Data, errors.New("transport: legacy SSE: ignoring a second endpoint event"))
		}
	}
}

// event decodes one message event (one message, or a batch) and queues
// each message for Read; a bad one, or one past the limit, is an error
// frame and is skipped (an undecodable response still ends its
// request, see Conn).
func (c *sseConn) event(ev sseEvent) {
	if ev.Type != "" && ev.Type != "message" {
		return
	}
	now := time.Now()
	if ev.TooLarge {
		c.errFrame(ev.Data, fmt.Errorf("%w: %d bytes exceed the limit of %d; skipped (first %d bytes shown)",
			errSSETooLarge, ev.Size, c.maxMsg, len(ev.Data)))
		for _, in := range tooLargeReplies(ev.Data, ev.Size, c.maxMsg, now) {
			c.inbox.push(in)
		}
		return
	}
	if len(ev.Data) == 0 {
		return
	}
	for _, p := range jsonrpc.DecodeFrame(ev.Data) {
		info := *c.info
		info.Header = c.info.Header.Clone()
		info.EventID = ev.ID
		c.obs.Frame(Frame{Time: now, Dir: In, Raw: p.Raw, Err: p.Err, HTTP: &info})
		if p.Err == nil {
			c.inbox.push(Inbound{Msg: p.Msg, Received: now})
		} else if in, ok := undecodableReply(p.Err, now); ok {
			c.inbox.push(in)
		}
	}
}

// Read returns the next message from the stream. Once the stream ended and
// everything before that was read, it returns why: ErrClosed after Close, an
// error wrapping io.EOF when the server ended it.
func (c *sseConn) Read(ctx context.Context) (Inbound, error) {
	for {
		if c.ctx.Err() != nil {
			return Inbound{}, fmt.Errorf("transport: legacy SSE read: %w", ErrClosed)
		}
		if in, ok := c.inbox.pop(); ok {
			return in, nil
		}
		select {
		case <-c.ended:
			// Messages queued just before the end still come first.
			if in, ok := c.inbox.pop(); ok {
				return in, nil
			}
			if errors.Is(c.endErr, ErrClosed) {
				return Inbound{}, fmt.Errorf("transport: legacy SSE read: %w", ErrClosed)
			}
			return Inbound{}, c.endErr
		case <-c.inbox.ready:
		case <-ctx.Done():
			return Inbound{}, fmt.Errorf("transport: legacy SSE read: %w", context.Cause(ctx))
		case <-c.ctx.Done():
			return Inbound{}, fmt.Errorf("transport: legacy SSE read: %w", ErrClosed)
		}
	}
}

// Write POSTs m to the endpoint and returns when the server accepted it
// (any 2xx; the reply body is ignored, since answers come on the stream).
// A non-2xx answer is a *StatusError. ctx and Close abort the POST. This
// protocol has no per-message headers: opts.Headers are ignored.
func (c *sseConn) Write(ctx context.Context, m *jsonrpc.Message, _ *WriteOptions) error {
	if c.ctx.Err() != nil {
		return fmt.Errorf("transport: legacy SSE write: %w", ErrClosed)
	}
	select {
	case <-c.ended:
		return fmt.Errorf("transport: legacy SSE write %s: %w", httpDescribe(m), c.endErr)
	default:
	}
	body, err := jsonrpc.Encode(m)
	if err != nil {
		return fmt.Errorf("transport: legacy SSE write: %w", err)
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(c.ctx, cancel)
	defer stop()
	req, err := http.NewRequestWithContext(pctx, http.MethodPost, c.endpoint, httpBody(body))
	if err != nil {
		return fmt.Errorf("transport: legacy SSE write: build POST: %w", err)
	}
	c.setHeaders(req)
	req.Header.Set(hdrContentType, httpMediaJSON)
	c.mu.Lock()
	if c.version != "" {
		req.Header.Set(hdrProtocolVersion, c.version)
	}
	c.mu.Unlock()
	info := &HTTPInfo{Method: http.MethodPost, URL: c.endpoint, Header: httpLogHeader(req.Header)}
	c.obs.Frame(Frame{Time: time.Now(), Dir: Out, Raw: body, HTTP: info})

	what := httpDescribe(m)
	resp, err := httpDo(c.client, req)
	if err != nil {
		err = fmt.Errorf("transport: legacy SSE POST %s: %w", what, err)
		if c.ctx.Err() != nil {
			return fmt.Errorf("%w: %w", ErrClosed, err)
		}
		if ctx.Err() == nil {
			c.postErrFrame(info, 0, nil, err)
		}
		return err
	}
	defer httpDiscard(resp)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		se := httpStatusError(http.MethodPost, resp, nil)
		err := fmt.Errorf("transport: legacy SSE POST %s: %w", what, se)
		c.postErrFrame(info, resp.StatusCode, se.Body, err)
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, legacyPostBodyMax))
	return nil
}

// SetProtocolVersion records the negotiated version, sent from now on as
// MCP-Protocol-Version on POSTs (2025-06-18+ clients send it on HTTP; a
// 2024-11-05 server ignores it).
func (c *sseConn) SetProtocolVersion(v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.version = v
}

// Close cancels the stream and any POST in flight, waits for the reader,
// and makes Read and Write return ErrClosed. It is idempotent.
func (c *sseConn) Close() error {
	c.closeOnce.Do(func() {
		c.cancel()
		c.wg.Wait()
		if c.ownClient {
			c.client.CloseIdleConnections()
		}
	})
	return nil
}

// setHeaders puts the custom headers on req; callers set their own after.
func (c *sseConn) setHeaders(req *http.Request) {
	for k, vs := range c.header {
		req.Header[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
}

// errFrame reports a problem of the stream in the frame log.
func (c *sseConn) errFrame(raw []byte, err error) {
	info := *c.info
	info.Header = c.info.Header.Clone()
	c.obs.Frame(Frame{Time: time.Now(), Dir: In, Raw: raw, Err: err, HTTP: &info})
}

// postErrFrame reports a failed POST in the frame log.
func (c *sseConn) postErrFrame(req *HTTPInfo, status int, raw []byte, err error) {
	info := *req
	info.Status = status
	info.Header = req.Header.Clone()
	c.obs.Frame(Frame{Time: time.Now(), Dir: In, Raw: raw, Err: err, HTTP: &info})
}
