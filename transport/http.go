package transport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/redact"
)

// HTTP is the Streamable HTTP transport, for both protocol eras.
//
// Stateful (2025-03-26 to 2025-11-25): one endpoint, every message POSTed,
// replies as a JSON body or an SSE stream, a standalone GET stream for
// server-initiated messages, Mcp-Session-Id sessions, Last-Event-ID
// resumption (SEP-1699), DELETE on Close. Writing notifications/cancelled
// for a pending request also closes that request's stream.
//
// Stateless (2026-07-28 and later), chosen by SetProtocolVersion, which the
// session calls right after Dial in that era, or per request when params
// carry _meta["io.modelcontextprotocol/protocolVersion"] >= 2026-07-28 (so
// the era probe works before the version is set):
//   - POST only: no GET stream, no Mcp-Session-Id, no DELETE, no resumption.
//   - Headers: MCP-Protocol-Version (the _meta version when present, else
//     the set one), Mcp-Method, and Mcp-Name (params.name for tools/call
//     and prompts/get, params.uri for resources/read, params.taskId for
//     tasks/get, tasks/update, tasks/cancel); WriteOptions.Headers
//     (Mcp-Param-{Name}) too. Mcp-Name and Headers values that are not
//     plain header-safe ASCII go as =?base64?{base64 of UTF-8}?=.
//   - A response stream that breaks before the response loses the request:
//     Read gets Inbound{ID, Err} with Err wrapping ErrRequestLost;
//     re-issue with a new id.
//   - CancelRequest closes the request's response stream: that is the
//     cancel, and nothing more is delivered for it.
//   - Writing a response is refused (the server sends no requests).
//
// In both eras a 400 (or a 404 without a session) whose body is a JSON-RPC
// error for the request (its id, or none) is delivered to Read as that
// error response, data included; Write returns nil. Other failed replies
// fail Write with a *StatusError carrying status, content type and body.
//
// The era probe, on a fresh Conn:
//  1. Write server/discover with _meta protocolVersion 2026-07-28.
//  2. Read gets a result: modern, if its supportedVersions has a modern
//     version (a stateful go-sdk server answers discover too, listing only
//     older ones: go to 3). Read gets an error response with one of the
//     codes only 2026-07-28 defines (-32020, -32021, -32022): modern;
//     correct the request or retry with one of -32022's data.supported
//     versions (if it lists only older versions, go to 3). The same holds
//     when Write fails with a *StatusError whose Body is such an error
//     response (a status other than 400, or 404 without a session, which
//     Read would have got). Anything else is not modern, go to 3: another
//     error response, -32601 and -32602 included (plain JSON-RPC codes that
//     a server of any era sends for a method it does not know or params it
//     refuses; a TypeScript SDK server answers 400 -32000 "Server not
//     initialized"), or a *StatusError whose body is not a JSON-RPC error.
//  3. Write initialize. A *StatusError of 400, 404 or 405 means no
//     Streamable HTTP endpoint there: Dial an SSE (legacy HTTP+SSE) on the
//     same URL. Otherwise continue the stateful handshake and call
//     SetProtocolVersion with the negotiated version.
//
// Dial does no network I/O: the first request is the first contact.
type HTTP struct {
	// URL is the MCP endpoint.
	URL string
	// Header holds custom headers (from flags or config, e.g.
	// Authorization) sent on every HTTP request. The transport's own headers
	// (Content-Type, Accept, Mcp-Session-Id, ...) take precedence.
	Header http.Header
	// Client makes the requests. Nil means a private client with no overall
	// timeout (SSE streams live long); the Conn closes its idle connections
	// on Close. Either way redirects are followed only within the URL's
	// origin (a redirect elsewhere fails the request, wrapping
	// ErrOtherOrigin) and never get a Referer; a caller's client is copied
	// for that, not changed.
	Client *http.Client
	// Observer receives every frame; nil drops them.
	Observer Observer
	// MaxRetries is how many times in a row a broken SSE stream is
	// reconnected without progress (a new event id) before giving up. Zero
	// means 5; a negative value disables reconnection.
	MaxRetries int
	// MessageLimit bounds one incoming message (an SSE event's data, a
	// JSON reply body); zero means DefaultLineLimit. A larger one is
	// skipped, and if it was an answer whose id shows in its start, its
	// call ends (see Conn).
	MessageLimit int
}

// Limits of the transport (the reconnection timing is in http_backoff.go).
const (
	httpDefaultMaxRetries = 5
	httpDeleteTimeout     = 5 * time.Second
)

// Legacy implements LegacyFallback: the legacy HTTP+SSE transport for the
// same URL, with the same headers, client and observer.
func (t *HTTP) Legacy() Transport {
	return &SSE{URL: t.URL, Header: t.Header, Client: t.Client, Observer: t.Observer, MessageLimit: t.MessageLimit}
}

// Dial checks the URL and returns a Conn. The Conn also implements
// VersionSetter, RequestCanceler and HeaderSender.
func (t *HTTP) Dial(ctx context.Context) (Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("transport: dial %s: %w", redact.URL(t.URL), err)
	}
	u, err := ParseHTTPURL(t.URL)
	if err != nil {
		return nil, fmt.Errorf("transport: dial: %w", err)
	}
	c := &httpConn{
		url:        u.String(),
		logURL:     redact.URL(u.String()),
		header:     t.Header.Clone(),
		obs:        t.Observer,
		maxRetries: t.MaxRetries,
		maxMsg:     messageLimit(t.MessageLimit),
		inbox:      newHTTPInbox(),
		pending:    make(map[jsonrpc.ID]*httpCall),
		gone:       make(chan struct{}),
	}
	c.client, c.ownClient = originClient(t.Client)
	// A client's RoundTripper that keeps per-connection state (the OAuth
	// one remembers a failed sign-in so as not to ask on every request)
	// starts afresh with each connection.
	if r, ok := c.client.Transport.(interface{ NewConnection() }); ok {
		r.NewConnection()
	}
	if c.obs == nil {
		c.obs = ObserverFuncs{}
	}
	switch {
	case c.maxRetries == 0:
		c.maxRetries = httpDefaultMaxRetries
	case c.maxRetries < 0:
		c.maxRetries = 0
	}
	// The root context outlives Dial's ctx, which bounds only the dial.
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c, nil
}

// ParseHTTPURL parses raw as the URL of an HTTP transport (HTTP, SSE): it
// must be absolute, http or https, with a host. Dial checks its URL with
// it; callers may check a URL early the same way.
func ParseHTTPURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("bad URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("%q: want an http or https URL", raw)
	}
	return u, nil
}

// httpConn is the Conn of HTTP.
//
// Goroutines: one per POST (it waits for the reply and, for an SSE reply,
// reads and resumes that stream until the response arrives), and one for the
// standalone GET stream. All of them hang off ctx and are counted in wg, so
// Close stops and waits for every one.
type httpConn struct {
	url        string
	logURL     string // url as frames and errors show it (RedactURL)
	header     http.Header
	client     *http.Client
	ownClient  bool
	obs        Observer
	maxRetries int
	maxMsg     int // MessageLimit, defaulted

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup
	inbox  *httpInbox

	mu         sync.Mutex
	closed     bool
	sessionID  string
	version    string
	pending    map[jsonrpc.ID]*httpCall // our requests still awaiting a response
	standalone *httpStandalone          // the GET stream, nil if not running
	contacted  bool                     // the server has answered a request
	refused    int                      // attempts in a row that could not connect (http_gone.go)

	closeOnce sync.Once

	// gone is closed, with goneErr set first, when the server can no
	// longer be reached (http_gone.go, and the standalone GET stream
	// giving up): Read
	// then reports the end, as a stdio transport does when its process
	// dies, so the session ends (and prompts that came on that stream
	// end Disconnected) instead of looking ready forever.
	gone     chan struct{}
	goneErr  error
	goneOnce sync.Once
}

// markGone ends Read with err once what is queued has been read.
func (c *httpConn) markGone(err error) {
	c.goneOnce.Do(func() {
		c.goneErr = err
		close(c.gone)
	})
}

// httpCall is one of our requests whose response has not arrived. Its POST
// stream (and the GETs resuming it) run under ctx, so cancelling it ends that
// stream alone: the 2026-07-28 era cancels a request exactly that way.
type httpCall struct {
	cancel context.CancelFunc
	modern bool // sent by the 2026-07-28 rules
}

// httpStandalone is the running standalone GET stream.
type httpStandalone struct {
	cancel context.CancelFunc
	// ready is closed once the first GET has its answer (a stream, 405, or
	// a failure), so that SetProtocolVersion can wait for it.
	ready chan struct{}
}

// httpStandaloneWait bounds how long SetProtocolVersion waits for the
// standalone GET to be answered.
const httpStandaloneWait = 2 * time.Second

// PersonWaiter is implemented by a Conn whose requests may be waiting on
// a person rather than on the server: an HTTP Conn whose client's
// RoundTripper says so (transport/oauth's, while someone authorizes in a
// browser). Timeouts that mean "the server is silent" stand still
// meanwhile.
type PersonWaiter interface {
	WaitingOnPerson() bool
}

// WaitingOnPerson implements PersonWaiter.
func (c *httpConn) WaitingOnPerson() bool {
	w, ok := c.client.Transport.(interface{ Waiting() bool })
	return ok && w.Waiting()
}

var (
	_ PersonWaiter    = (*httpConn)(nil)
	_ Transport       = (*HTTP)(nil)
	_ LegacyFallback  = (*HTTP)(nil)
	_ Conn            = (*httpConn)(nil)
	_ VersionSetter   = (*httpConn)(nil)
	_ RequestCanceler = (*httpConn)(nil)
	_ HeaderSender    = (*httpConn)(nil)
)

// Read returns the next message from any stream, in arrival order per
// stream, or the end of a request whose response cannot come (see Conn).
func (c *httpConn) Read(ctx context.Context) (Inbound, error) {
	for {
		if c.ctx.Err() != nil {
			return Inbound{}, fmt.Errorf("transport: http read: %w", ErrClosed)
		}
		if in, ok := c.inbox.pop(); ok {
			return in, nil
		}
		select {
		case <-c.inbox.ready:
		case <-c.gone:
			if in, ok := c.inbox.pop(); ok {
				return in, nil
			}
			return Inbound{}, c.goneErr
		case <-ctx.Done():
			return Inbound{}, fmt.Errorf("transport: http read: %w", context.Cause(ctx))
		case <-c.ctx.Done():
			return Inbound{}, fmt.Errorf("transport: http read: %w", ErrClosed)
		}
	}
}

// Write POSTs m and returns once the server answered the POST: for a
// notification or response when it was accepted, for a request when its JSON
// reply was queued for Read or its SSE stream opened (a server may send the
// stream's headers only with its first event, so this can take as long as
// the request; CancelRequest may be called meanwhile). A 400, or a 404
// without a session, whose body is a JSON-RPC error for the request is
// queued for Read as its response. Any other non-2xx answer is returned as
// a *StatusError; a 404 for our session also drops the session id and
// wraps ErrSessionExpired, so the session can initialize again.
//
// ctx bounds only the wait: if it ends first, the POST of a request still
// completes and its replies still reach Read, because a disconnect is not
// a cancel (in the 2026-07-28 era, CancelRequest is how to cancel); the
// POST of a response or a notification, which carries nothing back, ends
// with it.
//
// opts.Headers go out with the POST (see WriteOptions and SendsHeaders).
// Once a notifications/cancelled for one of our pending requests has been
// sent (or has failed), that request's stream is closed (closeCancelled).
func (c *httpConn) Write(ctx context.Context, m *jsonrpc.Message, opts *WriteOptions) error {
	if id, ok := cancelledRequest(m); ok {
		defer c.closeCancelled(id)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("transport: http write %s: %w", httpDescribe(m), context.Cause(ctx))
	}
	body, err := jsonrpc.Encode(m)
	if err != nil {
		return fmt.Errorf("transport: http write: %w", err)
	}
	extra, err := httpMessageHeaders(opts)
	if err != nil {
		return fmt.Errorf("transport: http write %s: %w", httpDescribe(m), err)
	}
	isReq := m.Kind() == jsonrpc.KindRequest

	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return fmt.Errorf("transport: http write: %w", ErrClosed)
	}
	// initialize starts a session: it carries no old session id, and no
	// version header, since the version is what it negotiates.
	plan, err := c.planLocked(m)
	if err != nil {
		c.mu.Unlock()
		return fmt.Errorf("transport: http write %s: %w", httpDescribe(m), err)
	}
	sctx, scancel := context.WithCancel(c.ctx)
	if isReq {
		// Registered before sending: the response may come on another
		// stream before this POST returns.
		c.pending[m.ID] = &httpCall{cancel: scancel, modern: plan.modern}
	}
	c.wg.Add(1)
	c.mu.Unlock()

	rctx := sctx
	if opts != nil && opts.Written != nil {
		written := opts.Written
		rctx = httptrace.WithClientTrace(sctx, &httptrace.ClientTrace{WroteRequest: func(w httptrace.WroteRequestInfo) {
			if w.Err == nil {
				written()
			}
		}})
	}
	req, err := c.newRequest(rctx, http.MethodPost, body, plan.sid, plan.version, "", extra)
	if err != nil {
		c.wg.Done()
		scancel()
		c.forget(m.ID)
		return fmt.Errorf("transport: http write: %w", err)
	}
	setModernHeaders(req, m, plan)
	c.obs.Frame(Frame{Time: time.Now(), Dir: Out, Raw: body, HTTP: &HTTPInfo{
		Method: http.MethodPost, URL: c.logURL, Header: httpLogHeader(req.Header),
	}})

	done := make(chan error, 1)
	go func() {
		defer c.wg.Done()
		defer scancel()
		stream, err := c.post(sctx, req, m, plan)
		done <- err
		if stream != nil {
			stream()
		}
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		if !isReq {
			// Nothing comes back on the POST of a response or a
			// notification but its 202: abandoned, it is not left open
			// (a connection, a goroutine) until Close.
			scancel()
		}
		return fmt.Errorf("transport: http write %s: %w", httpDescribe(m), context.Cause(ctx))
	}
}

// SendsHeaders implements HeaderSender: every POST carries the message's
// WriteOptions.Headers, in either era.
func (c *httpConn) SendsHeaders() bool { return true }

// SetProtocolVersion records the negotiated version, sent from now on as
// MCP-Protocol-Version. For a stateful version it opens the standalone GET
// stream (the session calls it right after the initialize response). A
// 2026-07-28 or later version switches the Conn to that era's stateless
// rules (see HTTP); the session calls it right after Dial, before any
// request, and there is no GET stream.
//
// In the stateful era it opens the standalone GET stream and waits (up to
// httpStandaloneWait) until the server has answered it: servers such as the
// TypeScript SDK's send requests unrelated to a POST (an elicitation from a
// tool that did not tie it to its call) only on a GET stream that is already
// open, and drop them otherwise, so the stream must be there before the
// session is used.
func (c *httpConn) SetProtocolVersion(v string) {
	s := c.setVersion(v)
	if s == nil {
		return
	}
	t := time.NewTimer(httpStandaloneWait)
	defer t.Stop()
	select {
	case <-s.ready:
	case <-t.C:
	case <-c.ctx.Done():
	}
}

// setVersion records v and starts the standalone stream if it is due,
// returning it (nil if none was started).
func (c *httpConn) setVersion(v string) *httpStandalone {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.version = v
	if httpIsStateless(v) && c.standalone != nil {
		c.standalone.cancel()
		c.standalone = nil
	}
	if c.closed || c.standalone != nil || httpIsStateless(v) {
		return nil
	}
	ctx, cancel := context.WithCancel(c.ctx)
	s := &httpStandalone{cancel: cancel, ready: make(chan struct{})}
	c.standalone = s
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer cancel()
		c.runStandalone(ctx, s.ready)
		c.mu.Lock()
		if c.standalone == s {
			c.standalone = nil
		}
		c.mu.Unlock()
	}()
	return s
}

// Close ends every stream, sends DELETE for the session (a 405 is fine: the
// server does not let clients end sessions), and makes Read return
// ErrClosed. It waits for all of the Conn's goroutines; it is idempotent.
func (c *httpConn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		sid, ver := c.sessionID, c.version
		c.mu.Unlock()
		c.cancel()
		if sid != "" && !httpIsStateless(ver) {
			c.deleteSession(sid, ver)
		}
		c.wg.Wait()
		if c.ownClient {
			c.client.CloseIdleConnections()
		}
	})
	return nil
}

// newRequest builds a request with the message's extra headers first, the
// custom headers over them, and the transport's own on top. lastEventID is
// set only to resume a stream.
func (c *httpConn) newRequest(ctx context.Context, method string, body []byte, sid, ver, lastEventID string, extra http.Header) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.url, httpBody(body))
	if err != nil {
		return nil, fmt.Errorf("build %s request: %w", method, err)
	}
	for k, vs := range extra {
		req.Header[k] = vs
	}
	for k, vs := range c.header {
		req.Header[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	switch method {
	case http.MethodPost:
		req.Header.Set(hdrContentType, httpMediaJSON)
		req.Header.Set(hdrAccept, httpMediaJSON+", "+httpMediaSSE)
	case http.MethodGet:
		req.Header.Set(hdrAccept, httpMediaSSE)
	}
	if sid != "" {
		req.Header.Set(hdrSessionID, sid)
	}
	if ver != "" {
		req.Header.Set(hdrProtocolVersion, ver)
	}
	if lastEventID != "" {
		req.Header.Set(hdrLastEventID, lastEventID)
	}
	return req, nil
}

// isPending reports whether request id still awaits its response.
func (c *httpConn) isPending(id jsonrpc.ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.pending[id]
	return ok
}

// forget stops tracking request id; it reports whether it was tracked.
func (c *httpConn) forget(id jsonrpc.ID) bool {
	if !id.IsValid() {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.pending[id]
	delete(c.pending, id)
	return ok
}

// deliver queues a decoded message for Read. A response, from whatever
// stream, settles its request.
func (c *httpConn) deliver(in Inbound) {
	if in.Msg.Kind() == jsonrpc.KindResponse {
		c.forget(in.Msg.ID)
	}
	c.inbox.push(in)
}

// failCall settles a request whose response can no longer arrive (its stream
// broke and could not be resumed): the observer gets an error frame, and
// Read gets Inbound{ID: id, Err: err}, so the waiting call fails instead of
// hanging.
func (c *httpConn) failCall(id jsonrpc.ID, info *HTTPInfo, err error) {
	if !c.forget(id) {
		return // answered meanwhile, or already failed
	}
	c.errFrame(info, nil, err)
	c.inbox.push(Inbound{ID: id, Err: err, Received: time.Now()})
}

// frameIn reports an incoming message, or a body that failed to decode.
// at is when the frame was read: the Inbound made of it carries the same
// time, so what the engine says of a message names its frame exactly.
func (c *httpConn) frameIn(raw []byte, derr error, info *HTTPInfo, eventID string, at time.Time) {
	in := *info
	in.EventID = eventID
	in.Header = info.Header.Clone() // each frame owns its map
	c.obs.Frame(Frame{Time: at, Dir: In, Raw: raw, Err: derr, HTTP: &in})
}

// errFrame reports a transport problem (a failed request, a bad status) in
// the frame log; raw is the start of the body, if any.
func (c *httpConn) errFrame(info *HTTPInfo, raw []byte, err error) {
	c.frameIn(raw, err, info, "", time.Now())
}

// closedErr wraps err with ErrClosed when it happened because of Close.
func (c *httpConn) closedErr(err error) error {
	if c.ctx.Err() != nil && !errors.Is(err, ErrClosed) {
		return fmt.Errorf("%w: %w", ErrClosed, err)
	}
	return err
}
