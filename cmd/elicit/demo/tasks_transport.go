package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport-level help for the 2025-11-25 tasks, which go-sdk v1.8.0 cannot
// give from inside the server:
//
//   - Incoming: a tools/call's params.task is dropped when go-sdk decodes
//     the call, so it is moved into _meta[metaLegacyTask] before that,
//     where the task middleware finds it (tasks_server.go).
//   - Outgoing: go-sdk sends no notification it does not know, so a task
//     status travels as a progress notification marked with relayToken and
//     is renamed notifications/tasks/status here (tasks_legacy.go).
//
// Three carriers get this: ServeIO and ServeStdio filter the
// newline-delimited byte streams (so go-sdk's own stdio connection stays as
// it is), HTTPHandler rewrites the POST body (incoming only: the SSE
// responses are go-sdk's, so no status notifications over HTTP), and
// WrapTransport wraps any other transport's Connection (in-memory). The
// 2026-07-28 extension needs none of it.

// WrapTransport prepares a server-side transport for the demo's 2025-11-25
// tasks: connect [New]'s server through it to accept task-augmented
// tools/call (params.task) and to get notifications/tasks/status. Without
// it, reflow_month answers a 2025-11-25 client that it must run as a task,
// and the other reflow tools run inline. [ServeIO], [ServeStdio] and
// [HTTPHandler] need no wrapping; 2026-07-28 needs none either.
//
// The wrapper hides the wrapped Connection's optional go-sdk interfaces;
// for go-sdk's IOTransport this means JSON-RPC batches are no longer
// refused after 2025-06-18, so prefer [ServeIO] for byte streams.
func WrapTransport(t mcp.Transport) mcp.Transport { return taskTransport{t} }

type taskTransport struct{ mcp.Transport }

func (t taskTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return taskConn{c}, nil
}

type taskConn struct{ mcp.Connection }

func (c taskConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil {
		liftRequest(req, true)
	}
	return msg, err
}

func (c taskConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok {
		msg = relayRequest(req)
	}
	return c.Connection.Write(ctx, msg)
}

// liftRequest moves a tools/call's params.task into _meta[metaLegacyTask],
// with relay telling whether status notifications can reach the client. A
// marker the client wrote itself is removed: the wrapper owns it.
func liftRequest(req *jsonrpc.Request, relay bool) {
	if req.Method != "tools/call" || !req.IsCall() {
		return
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(req.Params, &params) != nil || params == nil {
		return // not an object: go-sdk will say so
	}
	var meta map[string]json.RawMessage
	if raw, ok := params["_meta"]; ok && json.Unmarshal(raw, &meta) != nil {
		return
	}
	task, asked := params["task"]
	_, forged := meta[metaLegacyTask]
	if !asked && !forged {
		return
	}
	delete(meta, metaLegacyTask)
	if asked {
		var ttl struct {
			TTL *float64 `json:"ttl"`
		}
		_ = json.Unmarshal(task, &ttl) // a malformed task object gets the default ttl
		marker, err := json.Marshal(legacyTaskRequest{TTL: ttl.TTL, Relay: relay})
		if err != nil {
			return
		}
		if meta == nil {
			meta = map[string]json.RawMessage{}
		}
		meta[metaLegacyTask] = marker
		delete(params, "task")
	}
	rawMeta, err1 := json.Marshal(meta)
	params["_meta"] = rawMeta
	rawParams, err2 := json.Marshal(params)
	if err1 == nil && err2 == nil {
		req.Params = rawParams
	}
}

// relayRequest turns a marked progress notification into
// notifications/tasks/status carrying the Task; other messages pass.
func relayRequest(req *jsonrpc.Request) jsonrpc.Message {
	if req.Method != "notifications/progress" || req.IsCall() || !bytes.Contains(req.Params, []byte(relayToken)) {
		return req
	}
	var p struct {
		Token any                        `json:"progressToken"`
		Meta  map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(req.Params, &p) != nil || p.Token != relayToken || p.Meta[relayToken] == nil {
		return req
	}
	return &jsonrpc.Request{Method: "notifications/tasks/status", Params: p.Meta[relayToken]}
}

// rewriteLine applies f to one newline-delimited message; anything that is
// not a single request passes unchanged.
func rewriteLine(line []byte, f func(*jsonrpc.Request) jsonrpc.Message) []byte {
	body := bytes.TrimRight(line, "\r\n")
	msg, err := jsonrpc.DecodeMessage(body)
	req, ok := msg.(*jsonrpc.Request)
	if err != nil || !ok {
		return line
	}
	out, err := jsonrpc.EncodeMessage(f(req))
	if err != nil {
		return line
	}
	return append(out, line[len(body):]...)
}

// maxLiftLine bounds the lines the stdio filters look at; longer ones pass
// untouched (a task-augmented call is far shorter).
const maxLiftLine = 1 << 20

// liftReader filters the client-to-server byte stream of ServeIO.
type liftReader struct {
	src     io.ReadCloser
	br      *bufio.Reader
	pending []byte
	long    bool // inside a line too long to look at
}

func newLiftReader(r io.ReadCloser) *liftReader {
	return &liftReader{src: r, br: bufio.NewReaderSize(r, maxLiftLine)}
}

func (r *liftReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		line, err := r.br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			r.pending, r.long = append([]byte(nil), line...), true
			continue
		case r.long || !bytes.Contains(line, []byte(`"tools/call"`)):
			r.pending = append([]byte(nil), line...)
		default:
			r.pending = rewriteLine(append([]byte(nil), line...), func(req *jsonrpc.Request) jsonrpc.Message {
				liftRequest(req, true)
				return req
			})
		}
		r.long = false
		if err != nil && len(r.pending) == 0 {
			return 0, err
		}
		if err != nil {
			break // deliver what is left; the error comes back on the next call
		}
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

func (r *liftReader) Close() error { return r.src.Close() }

// relayWriter filters the server-to-client byte stream of ServeIO.
type relayWriter struct {
	dst io.WriteCloser
	mu  sync.Mutex
	buf []byte
}

func (w *relayWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := w.buf[:i+1]
		if bytes.Contains(line, []byte(relayToken)) {
			line = rewriteLine(line, relayRequest)
		}
		if _, err := w.dst.Write(line); err != nil {
			w.buf = nil
			return 0, err
		}
		w.buf = w.buf[i+1:]
	}
}

func (w *relayWriter) Close() error { return w.dst.Close() }

// maxLiftBody bounds the HTTP bodies HTTPHandler looks at.
const maxLiftBody = 4 << 20

// liftHTTP moves params.task of a 2025-11-25 POSTed tools/call into _meta
// before go-sdk's handler reads the body.
func liftHTTP(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxLiftBody+1))
		if err != nil || len(body) > maxLiftBody || !bytes.Contains(body, []byte(`task"`)) {
			// Hand go-sdk the body as it came, read error included.
			r.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
			h.ServeHTTP(w, r)
			return
		}
		body = rewriteLine(body, func(req *jsonrpc.Request) jsonrpc.Message {
			liftRequest(req, false)
			return req
		})
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		h.ServeHTTP(w, r)
	})
}
