package transport

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Transport opens a connection to one MCP server.
type Transport interface {
	// Dial connects (starts the process, opens the HTTP endpoint) and returns
	// a Conn ready for messages. ctx bounds only the dial itself.
	Dial(ctx context.Context) (Conn, error)
}

// LegacyFallback is implemented by transports with an older form on the
// same server, to fall back to when the server refuses this one: HTTP's is
// SSE, the 2024-11-05 HTTP+SSE transport (see HTTP for when).
type LegacyFallback interface {
	Legacy() Transport
}

// Conn carries framed JSON-RPC messages to and from one server.
//
// Read returns the next Inbound: a message from the server with what the
// transport knows of it (RelatedID, Received), or the end of one of our
// requests whose response will not come (ID and Err). Write sends one
// message; opts carries what travels beside it (headers) and may be nil.
// jsonrpc.Message holds only what is on the wire.
//
// Concurrency: Read is called from one goroutine at a time (the session's
// read loop); Write may be called from many goroutines at once and each
// message is written whole; Close may be called at any time, from any
// goroutine, more than once, and unblocks a pending Read, which then returns
// an error wrapping ErrClosed (or the reason the peer went away).
//
// A frame that is a batch (a JSON array of messages, allowed in 2025-03-26)
// is served as its messages, each reported and delivered as if it had come
// alone; a leading UTF-8 BOM is ignored. A frame that is not a valid
// JSON-RPC message is reported to the Observer (Frame.Err set) and
// skipped; Read does not fail for it. A bad frame meant
// as a response (jsonrpc.DecodeError.Kind is KindResponse) whose id could
// be recovered is the server's answer all the same, so that its call does
// not wait in vain: Read returns Inbound{ID: that id, Err: the
// *jsonrpc.DecodeError}. So is a frame over the size limit (which is
// skipped, and the stream goes on) whose start shows a response's id: its
// DecodeError says it was too large. The stream transports (stdio, pipes)
// and legacy SSE do this for any such id; Streamable HTTP only for a request still
// awaiting its response, and for any undecodable JSON reply to a request's
// POST, which can only be its response. Streamable HTTP also ends a request
// that way when its response stream broke and could not be resumed (see
// HTTP).
type Conn interface {
	Read(ctx context.Context) (Inbound, error)
	Write(ctx context.Context, m *jsonrpc.Message, opts *WriteOptions) error
	Close() error
}

// WriteOptions is what travels beside an outgoing message, not in it. A nil
// *WriteOptions is the zero value.
type WriteOptions struct {
	// Headers are extra HTTP headers, full name to value, sent with the
	// message (MCP 2026-07-28: the Mcp-Param-{Name} headers mirroring the
	// tool arguments whose input schema marks them x-mcp-header; only the
	// caller knows schemas). Values are plain strings (integers in
	// decimal, booleans as true/false); the transport applies the spec's
	// =?base64?...?= encoding where needed (a name that is not an HTTP
	// token fails the Write). The transport's own headers and its
	// configured ones win over these. Connections without headers (stdio,
	// legacy HTTP+SSE) ignore them.
	Headers map[string]string
	// Written, if set, may be called, from any goroutine and more than
	// once (a request sent again after sign-in), as soon as the message
	// is on the wire, before Write has the server's answer: Streamable
	// HTTP calls it once the POST's request is written. Connections that
	// do not know sooner than Write returns do not call it.
	Written func()
}

// HeaderSender is implemented by connections that can put
// WriteOptions.Headers on the wire (Streamable HTTP); the others ignore
// them. SendsHeaders reports whether this one does, so that a caller
// computes headers only where they go out (the 2026-07-28 Mcp-Param
// mirroring).
type HeaderSender interface {
	SendsHeaders() bool
}

// VersionSetter is implemented by connections that must repeat the
// negotiated protocol version on every later request (Streamable HTTP's
// MCP-Protocol-Version header). The session calls it after initialize; in
// the 2026-07-28 era, which has no initialize, it calls it right after Dial
// with the pinned or probed version, which also switches Streamable HTTP to
// that era's stateless rules (see HTTP).
type VersionSetter interface {
	SetProtocolVersion(v string)
}

// RequestCanceler is implemented by connections where cancelling one of our
// requests has a transport-level form (2026-07-28 HTTP: close its response
// stream). It returns true if it handled the cancel, in which case the
// session sends no notifications/cancelled.
type RequestCanceler interface {
	CancelRequest(id jsonrpc.ID) bool
}

// Sentinel errors. Transports wrap them with context.
var (
	// ErrClosed: the connection was closed by us.
	ErrClosed = errors.New("transport: connection closed")
	// ErrSessionExpired: the server answered 404 for our Mcp-Session-Id; the
	// client must initialize a new session.
	ErrSessionExpired = errors.New("transport: session expired (HTTP 404)")
	// ErrRequestLost: MCP 2026-07-28 over HTTP, the response stream of a
	// request broke before its response. There is no resumption in that
	// era and the server treats the disconnect as a cancel, so the request
	// is gone; it may be re-issued with a new id. Read delivers
	// Inbound{ID, Err} for it, Err wrapping this.
	ErrRequestLost = errors.New("transport: request lost: its response stream broke; it may be re-issued with a new id")
)

// Direction tells which way a frame went.
type Direction int

// Directions.
const (
	Out Direction = iota // client to server
	In                   // server to client
)

func (d Direction) String() string {
	if d == In {
		return "in"
	}
	return "out"
}

// Frame is one raw message as it crossed the wire, for the traffic log.
type Frame struct {
	Time time.Time
	Dir  Direction
	// Raw is the exact bytes of the message (no framing newline); for a
	// message that came in a batch, its element's. It must not be modified
	// by the observer.
	Raw []byte
	// Err is set when Raw could not be decoded; the frame was skipped.
	Err error
	// HTTP describes the exchange that carried the frame, for HTTP transports.
	HTTP *HTTPInfo
}

// HTTPInfo is what the traffic view shows of an HTTP exchange.
type HTTPInfo struct {
	Method string // POST, GET, DELETE
	URL    string
	Status int // 0 for an outgoing frame whose response has not come yet
	// Header holds the headers that matter: MCP ones, content type, Accept,
	// Last-Event-ID, and (redacted) Authorization.
	Header http.Header
	// EventID is the SSE event id the frame arrived with, if any.
	EventID string
}

// Observer receives frames and server stderr lines. Its methods are called
// from transport goroutines and must not block; the traffic log copies what
// it keeps.
type Observer interface {
	Frame(f Frame)
	Stderr(line string)
}

// ObserverFuncs adapts functions to Observer; nil fields are skipped.
type ObserverFuncs struct {
	OnFrame  func(Frame)
	OnStderr func(string)
}

// Frame implements Observer.
func (o ObserverFuncs) Frame(f Frame) {
	if o.OnFrame != nil {
		o.OnFrame(f)
	}
}

// Stderr implements Observer.
func (o ObserverFuncs) Stderr(line string) {
	if o.OnStderr != nil {
		o.OnStderr(line)
	}
}

// Nop is an Observer that drops everything.
var _ Observer = ObserverFuncs{}
