package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// shutdownGrace bounds how long ServeListener waits for open HTTP requests
// after its context ends.
const shutdownGrace = 5 * time.Second

// ServeStdio serves one session over os.Stdin and os.Stdout until the client
// disconnects or ctx ends, cancelling running tools in the second case. It
// returns nil in both. Nothing else may write to os.Stdout meanwhile.
//
// Over stdio go-sdk serves both eras in one session: it answers
// server/discover and 2026-07-28 requests (version and capabilities in each
// request's _meta) as well as the legacy initialize handshake.
func ServeStdio(ctx context.Context, opts *Options) error {
	cfg, err := newConfig(opts)
	if err != nil {
		return err
	}
	// go-sdk's StdioTransport is an IOTransport on these two; the demo
	// builds its own to filter the streams for 2025-11-25 tasks.
	return serveStream(ctx, cfg, os.Stdin, nopWriteCloser{os.Stdout})
}

// ServeIO serves one session reading requests from r and writing responses
// to w (newline-delimited JSON), for embedding the demo in-process over
// pipes. It returns nil when the client disconnects (r reaches EOF) or ctx
// ends; running tools are cancelled first. Before returning it closes r and
// w if they are io.Closers, so its reader stops and the client sees EOF.
// Like [ServeStdio] it speaks both eras.
func ServeIO(ctx context.Context, r io.Reader, w io.Writer, opts *Options) error {
	rc, wc := readCloser(r), writeCloser(w)
	defer func() {
		// Closing twice is harmless for pipes; errors say nothing new here.
		_ = rc.Close()
		_ = wc.Close()
	}()
	cfg, err := newConfig(opts)
	if err != nil {
		return err
	}
	return serveStream(ctx, cfg, rc, wc)
}

// serveStream serves one session over a newline-delimited byte stream,
// filtered for 2025-11-25 tasks (see tasks_transport.go). Tasks end with the
// session: they are cancelled, and their jobs have returned before it
// returns.
func serveStream(ctx context.Context, cfg config, r io.ReadCloser, w io.WriteCloser) error {
	life, stop := context.WithCancel(ctx)
	srv, tasks := newServer(cfg, life)
	err := serve(ctx, srv, &mcp.IOTransport{Reader: newLiftReader(r), Writer: &relayWriter{dst: w}})
	stop()
	tasks.wait()
	return err
}

// serve runs one session of srv over t. Unlike mcp.Server.Run, it treats the
// end of ctx as a normal shutdown.
func serve(ctx context.Context, srv *mcp.Server, t mcp.Transport) error {
	ss, err := srv.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("demo: connecting the server session: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("demo: session ended: %w", err)
		}
		return nil
	case <-ctx.Done():
		_ = ss.Close() // the session is being abandoned; its close error says nothing new
		<-done
		return nil
	}
}

// HTTPHandler returns a stateful Streamable HTTP handler (go-sdk's) serving
// the demo on every path (so http://ADDR/ and http://ADDR/mcp both work),
// one session per client, all sessions sharing one server. Sessions end when
// their client deletes them; the handler itself never closes them.
//
// It serves 2025-11-25 and older only: go-sdk answers a 2026-07-28 request
// on a stateful handler with an error, and its clients fall back to
// initialize. It panics on an unknown [Options.Protocol]; Options.Stateless
// is ignored.
func HTTPHandler(opts *Options) http.Handler {
	cfg := mustConfig(opts)
	cfg.stateless = false
	h, _, _ := httpHandler(cfg, context.Background())
	return h
}

// HTTPHandlerStateless returns a stateless Streamable HTTP handler (go-sdk's,
// with Stateless set), serving the demo on every path. It is the 2026-07-28
// transport: POST only, no Mcp-Session-Id, every request on its own, the
// Mcp-Method and Mcp-Name headers checked by go-sdk against the body, and
// questions asked through input_required results whose requestState carries
// what a later round needs. Closing a request's connection cancels it.
//
// A 2025-11-25 client can still call tools that ask nothing, but go-sdk
// refuses server-to-client requests on a stateless handler, so the tools
// that ask fail for it: serve old clients with [HTTPHandler].
//
// It panics on an unknown [Options.Protocol].
func HTTPHandlerStateless(opts *Options) http.Handler {
	cfg := mustConfig(opts)
	cfg.stateless = true
	h, _, _ := httpHandler(cfg, context.Background())
	return h
}

// httpHandler builds the handler. A stateful one also lifts params.task
// out of 2025-11-25 task-augmented calls (tasks_transport.go); a stateless
// one serves the 2026-07-28 tasks extension, which needs no help.
func httpHandler(cfg config, life context.Context) (http.Handler, *mcp.Server, *taskStore) {
	srv, tasks := newServer(cfg, life)
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{
			Logger:    cfg.logger,
			Stateless: cfg.stateless,
			// In 2026-07-28 a closed POST is the cancellation (there is no
			// other channel), so the tool must stop with it.
			PropagateRequestCancellation: cfg.stateless,
		})
	if !cfg.stateless {
		h = liftHTTP(h)
	}
	return h, srv, tasks
}

// ServeHTTP listens on addr (host:port) and serves [HTTPHandler] (or
// [HTTPHandlerStateless] when Options.Stateless is set) until ctx ends; it
// returns nil after a clean shutdown. It prints nothing; the listening
// address goes to Options.Logger.
func ServeHTTP(ctx context.Context, addr string, opts *Options) error {
	if _, err := newConfig(opts); err != nil {
		return err // before listening, so a bad option leaves no port open
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("demo: listening on %s: %w", addr, err)
	}
	return ServeListener(ctx, ln, opts)
}

// ServeListener is [ServeHTTP] on a listener the caller opened, e.g. on
// "127.0.0.1:0" to learn the port first. It closes ln.
//
// When ctx ends, running tools are cancelled (open questions are withdrawn
// with notifications/cancelled), sessions are closed, and open requests get
// a short grace period before their connections are cut.
func ServeListener(ctx context.Context, ln net.Listener, opts *Options) error {
	cfg, err := newConfig(opts)
	if err != nil {
		_ = ln.Close() // documented: ServeListener always closes ln
		return err
	}
	h, srv, tasks := httpHandler(cfg, ctx)
	defer tasks.wait() // ctx has ended by then, and with it every job
	// Requests outlive ctx by a little, so that answers and cancellations
	// already under way can still be written; cutRequests ends them.
	base, cutRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer cutRequests()
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	cfg.logger.Info("demo: serving Streamable HTTP", "addr", ln.Addr().String(), "stateless", cfg.stateless)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()

	select {
	case err := <-served:
		return fmt.Errorf("demo: serving HTTP on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}

	// Stop accepting, then close the sessions: their tools were cancelled
	// with ctx, and closing them ends their standalone SSE streams, which
	// would otherwise hold Shutdown open.
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	shutdown := make(chan error, 1)
	go func() { shutdown <- hs.Shutdown(shutdownCtx) }()
	closeSessions(srv)
	cut := time.AfterFunc(time.Second, cutRequests) // stragglers: streams of sessions created meanwhile
	defer cut.Stop()

	err = <-shutdown
	if err != nil {
		err = errors.Join(err, hs.Close())
	}
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	if err != nil {
		return fmt.Errorf("demo: shutting down HTTP on %s: %w", ln.Addr(), err)
	}
	return nil
}

// closeSessions closes every session of srv at once; each Close waits for
// that session's requests to finish.
func closeSessions(srv *mcp.Server) {
	var wg sync.WaitGroup
	for ss := range srv.Sessions() {
		wg.Go(func() { _ = ss.Close() }) // the session is being abandoned; its close error says nothing new
	}
	wg.Wait()
}

// readCloser and writeCloser adapt plain readers and writers to what
// mcp.IOTransport needs, closing the underlying value when it can be closed.
func readCloser(r io.Reader) io.ReadCloser {
	if rc, ok := r.(io.ReadCloser); ok {
		return rc
	}
	return io.NopCloser(r)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func writeCloser(w io.Writer) io.WriteCloser {
	if wc, ok := w.(io.WriteCloser); ok {
		return wc
	}
	return nopWriteCloser{w}
}
