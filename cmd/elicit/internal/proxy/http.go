package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// maxBody bounds one message the host POSTs.
const maxBody = 16 << 20

// HTTPConfig is a Streamable HTTP endpoint for the host (at /mcp) that
// forwards to Upstream. What is filled in and who answers it are Config's
// (Host and Server unused).
type HTTPConfig struct {
	Config
	Upstream *url.URL
	// Client reaches the upstream; it must not follow redirects (the
	// host's headers, Authorization among them, go to the upstream's
	// origin only): nil uses one that follows none.
	Client *http.Client
	// OnFrame sees each message both ways: in is from the upstream.
	OnFrame func(in bool, raw []byte)
}

// HTTPProxy is the host's endpoint. Its requests to the upstream carry
// the host's own headers (Mcp-Session-Id, Last-Event-ID,
// MCP-Protocol-Version, Authorization…), so sessions, SSE streams and
// resumption are the upstream's, passed through; the bodies are read to
// fill in capabilities and answer what elicit fills in.
type HTTPProxy struct {
	p      *proxy
	cfg    HTTPConfig
	client *http.Client
}

// NewHTTP returns the endpoint; ctx bounds the answers elicit gives, and
// Wait waits for them.
func NewHTTP(ctx context.Context, cfg HTTPConfig) *HTTPProxy {
	client := cfg.Client
	if client == nil {
		client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	p := &proxy{cfg: cfg.Config, ctx: ctx, ids: newOwnIDs(), toHost: map[jsonrpc.ID]hostAsked{},
		answering: map[jsonrpc.ID]context.CancelCauseFunc{}, hostCalls: map[jsonrpc.ID]*call{},
		carried: map[string]map[string]json.RawMessage{}}
	return &HTTPProxy{p: p, cfg: cfg, client: client}
}

// Wait waits for the answers under way.
func (h *HTTPProxy) Wait() { h.p.wg.Wait() }

// hopHeaders are not forwarded either way.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Transfer-Encoding", "Upgrade", "Te", "Trailer", "Host", "Content-Length"}

func copyHeaders(dst, src http.Header) {
	for k, vs := range src {
		dst[k] = append([]string(nil), vs...)
	}
	for _, k := range hopHeaders {
		dst.Del(k)
	}
}

func (h *HTTPProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/mcp" {
		http.NotFound(w, r)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !localOrigin(o) {
		http.Error(w, "elicit proxy: origin not allowed", http.StatusForbidden)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		http.Error(w, "elicit proxy: body unreadable or too large", http.StatusRequestEntityTooLarge)
		return
	}
	var call *call
	if r.Method == http.MethodPost && len(body) > 0 {
		body, call = h.hostBody(body)
	}
	resp, err := h.upstream(r.Context(), r.Method, r.Header, body)
	if err != nil {
		http.Error(w, "elicit proxy: the upstream: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	copyHeaders(w.Header(), resp.Header)
	switch mediaType(resp.Header.Get("Content-Type")) {
	case "text/event-stream":
		w.WriteHeader(resp.StatusCode)
		h.relaySSE(r.Context(), w, resp.Body, r.Header, call)
	case "application/json":
		raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
		h.frame(true, raw)
		if err == nil && call != nil {
			raw = h.completeJSON(r.Context(), call, raw, r.Header)
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(raw)
	default:
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}
}

func localOrigin(o string) bool {
	u, err := url.Parse(o)
	if err != nil {
		return false
	}
	host := u.Hostname()
	return host == "localhost" || host == "127.0.0.1" || host == "::1"
}

func mediaType(ct string) string {
	t, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

func (h *HTTPProxy) frame(in bool, raw []byte) {
	if h.cfg.OnFrame != nil && len(raw) > 0 {
		h.cfg.OnFrame(in, raw)
	}
}

// upstream sends one request to the upstream with the host's headers.
func (h *HTTPProxy) upstream(ctx context.Context, method string, hdr http.Header, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, h.cfg.Upstream.String(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	copyHeaders(req.Header, hdr)
	req.Header.Del("Origin") // the host's page is not the upstream's business
	if len(body) > 0 {
		req.ContentLength = int64(len(body))
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return resp, nil
}

// hostBody fills in the capabilities of the host's message (initialize,
// or a 2026-07-28 request's _meta) and returns what goes upstream, with
// the host's request as a call when elicit may complete its rounds.
func (h *HTTPProxy) hostBody(body []byte) ([]byte, *call) {
	p := h.p
	parts := jsonrpc.DecodeFrame(body)
	if len(parts) != 1 || parts[0].Msg == nil {
		h.frame(false, body)
		return body, nil
	}
	m := parts[0].Msg
	var c *call
	switch m.Kind() {
	case jsonrpc.KindResponse:
		p.mu.Lock()
		asked, ours := p.toHost[key(m.ID)]
		delete(p.toHost, key(m.ID))
		p.mu.Unlock()
		if ours {
			p.judgeHostAnswer(asked, m)
		}
	case jsonrpc.KindRequest:
		p.ids.hostUsed(m.ID)
		out := m
		if m.Method == wire.MethodInitialize {
			host := initializeCaps(m.Params)
			fill := p.cfg.offer().minus(host)
			p.mu.Lock()
			p.fill, p.declared = fill, host.or(fill)
			p.mu.Unlock()
			if !fill.none() {
				if params, err := fillInitialize(m.Params, fill); err == nil {
					out = &jsonrpc.Message{ID: m.ID, Method: m.Method, Params: params}
					p.notice("filling in for the host: %s", fill)
				}
			}
		} else if meta := modernMeta(m.Params); meta != nil {
			host := readCaps(member(meta, wire.MetaClientCapabilities))
			c = &call{hostID: m.ID, method: m.Method}
			c.fill = p.cfg.offer().minus(host)
			c.declared = host.or(c.fill)
			if !c.fill.none() {
				params := m.Params
				if carried := p.withCarried(m.Method, params); carried != nil {
					params = carried
				}
				if filled, err := fillModern(params, c.fill); err == nil {
					out = &jsonrpc.Message{ID: m.ID, Method: m.Method, Params: filled}
				}
			}
			c.params, c.serverID = out.Params, m.ID
			if c.fill.none() {
				c = nil
			}
		}
		if b, err := jsonrpc.Encode(out); err == nil && out != m {
			body = b
		}
	}
	h.frame(false, body)
	return body, c
}

// relaySSE passes the upstream's event stream to the host event by event,
// answering itself the requests elicit fills in: such an event reaches
// the host with its id (its cursor for Last-Event-ID) and no data, which
// an SSE client dispatches as nothing.
func (h *HTTPProxy) relaySSE(ctx context.Context, w http.ResponseWriter, body io.Reader, hostHdr http.Header, c *call) {
	flusher, _ := w.(http.Flusher)
	br := bufio.NewReaderSize(body, 64<<10)
	var event []string
	var data strings.Builder
	flush := func() {
		raw := data.String()
		mine := false
		var final []byte
		if raw != "" {
			h.frame(true, []byte(raw))
			mine = h.serverMessage([]byte(raw), hostHdr)
			if c != nil && !mine {
				if done := h.completeJSON(ctx, c, []byte(raw), hostHdr); string(done) != raw {
					final = done // the round elicit completed: its end in its place
				}
			}
		}
		for _, l := range event {
			if (mine || final != nil) && strings.HasPrefix(l, "data") {
				continue
			}
			_, _ = io.WriteString(w, l+"\n")
		}
		if final != nil {
			_, _ = io.WriteString(w, "data: "+string(final)+"\n")
		}
		_, _ = io.WriteString(w, "\n")
		if flusher != nil {
			flusher.Flush()
		}
		event, data = event[:0], strings.Builder{}
	}
	for {
		line, err := br.ReadString('\n')
		line = strings.TrimRight(line, "\r\n")
		if line == "" && err == nil {
			flush()
			continue
		}
		if line != "" {
			event = append(event, line)
			if v, ok := strings.CutPrefix(line, "data:"); ok {
				if data.Len() > 0 {
					data.WriteByte('\n')
				}
				data.WriteString(strings.TrimPrefix(v, " "))
			}
		}
		if err != nil {
			if len(event) > 0 {
				flush()
			}
			return
		}
	}
}

// serverMessage looks at one message of the upstream's stream: a request
// elicit fills in is answered by elicit (POSTed upstream) and reported
// true; a request for the host is remembered, to judge its answer.
func (h *HTTPProxy) serverMessage(raw []byte, hostHdr http.Header) bool {
	p := h.p
	parts := jsonrpc.DecodeFrame(raw)
	if len(parts) != 1 || parts[0].Msg == nil || parts[0].Msg.Kind() != jsonrpc.KindRequest {
		return false
	}
	m := parts[0].Msg
	p.mu.Lock()
	fill, declared := p.fill, p.declared
	if !fills(fill, m) {
		p.toHost[key(m.ID)] = hostAsked{method: m.Method, mode: elicitMode(m.Params), declared: declared}
		p.mu.Unlock()
		return false
	}
	p.mu.Unlock()
	hdr := hostHdr.Clone()
	hdr.Del("Last-Event-ID")
	p.wg.Go(func() {
		key := question.Key{Server: p.cfg.Name, Delivery: question.ServerRequest, RequestID: m.ID}
		r, ok := p.ask(p.ctx, key, m.Method, m.Params, declared)
		if !ok {
			return
		}
		answer := &jsonrpc.Message{ID: m.ID, Result: r.Result, Error: r.Err}
		b, err := jsonrpc.Encode(answer)
		if err != nil {
			return
		}
		h.frame(false, b)
		ctx, cancel := context.WithTimeout(p.ctx, p.cfg.WriteTimeout)
		defer cancel()
		resp, err := h.upstream(ctx, http.MethodPost, hdr, b)
		if err != nil {
			p.notice("answer %s upstream: %v", m.ID, err)
			return
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
		resp.Body.Close()
	})
	return true
}

// completeJSON completes, in 2026-07-28, the rounds of a JSON answer to
// the host's call c that elicit answers wholly, retrying upstream under
// its own ids; what it returns is what the host gets.
func (h *HTTPProxy) completeJSON(ctx context.Context, c *call, raw []byte, hostHdr http.Header) []byte {
	p := h.p
	for n := 0; n < maxRounds; n++ {
		parts := jsonrpc.DecodeFrame(raw)
		if len(parts) != 1 || parts[0].Msg == nil || parts[0].Msg.Result == nil || key(parts[0].Msg.ID) != key(c.hostID) {
			return raw
		}
		r, ok := p.readRound(c, parts[0].Msg.Result)
		if !ok || len(r.host) > 0 {
			return raw // the host's, whole (HTTP shares no round yet)
		}
		responses, ok := p.answerRoundQuiet(ctx, c, r)
		if !ok {
			return raw
		}
		params, err := retryParams(c.params, responses, r.state)
		if err != nil {
			return raw
		}
		id, _ := p.ids.next()
		p.ids.forget(id) // answered on this exchange, not the read loop's
		b, err := jsonrpc.Encode(&jsonrpc.Message{ID: id, Method: c.method, Params: params})
		if err != nil {
			return raw
		}
		h.frame(false, b)
		resp, err := h.upstream(ctx, http.MethodPost, hostHdr, b)
		if err != nil {
			return raw
		}
		got := answerOf(resp, id)
		resp.Body.Close()
		if got == nil {
			return raw
		}
		if b, err := jsonrpc.Encode(got); err == nil {
			h.frame(true, b)
		}
		raw, err = jsonrpc.Encode(&jsonrpc.Message{ID: c.hostID, Result: got.Result, Error: got.Error})
		if err != nil {
			return raw
		}
	}
	return raw
}

// answerRoundQuiet is answerRound without telling the host over a
// connection: on HTTP the call's answer is the exchange's.
func (p *proxy) answerRoundQuiet(ctx context.Context, c *call, r round) (map[string]json.RawMessage, bool) {
	responses := map[string]json.RawMessage{}
	for k, in := range r.requests {
		key := question.Key{Server: p.cfg.Name, Delivery: question.InputRequest, CallID: c.hostID, Input: k}
		reply, ok := p.ask(ctx, key, in.Method, in.Params, c.declared)
		if !ok || reply.Abandon || reply.Err != nil {
			return nil, false
		}
		responses[k] = reply.Result
	}
	return responses, true
}

// answerOf is the response to id in resp's body, JSON or an event stream
// (whose other messages, the retry's progress, are dropped: the host's
// call has its answer only); nil when none came.
func answerOf(resp *http.Response, id jsonrpc.ID) *jsonrpc.Message {
	body := io.LimitReader(resp.Body, maxBody)
	pick := func(raw []byte) *jsonrpc.Message {
		parts := jsonrpc.DecodeFrame(raw)
		if len(parts) == 1 && parts[0].Msg != nil && parts[0].Msg.Kind() == jsonrpc.KindResponse && key(parts[0].Msg.ID) == key(id) {
			return parts[0].Msg
		}
		return nil
	}
	if mediaType(resp.Header.Get("Content-Type")) != "text/event-stream" {
		raw, err := io.ReadAll(body)
		if err != nil {
			return nil
		}
		return pick(raw)
	}
	sc := bufio.NewScanner(body)
	sc.Buffer(nil, maxBody)
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "data:"); ok {
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(strings.TrimPrefix(v, " "))
			continue
		}
		if line == "" && data.Len() > 0 {
			if m := pick([]byte(data.String())); m != nil {
				return m
			}
			data.Reset()
		}
	}
	if data.Len() > 0 {
		return pick([]byte(data.String()))
	}
	return nil
}
