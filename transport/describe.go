package transport

// ConnInfo is what a connection can say about itself, for a view of the
// server it reaches. It carries no header values: nothing configured (an
// Authorization token) is in it.
type ConnInfo struct {
	// Kind names the transport: "stdio", "Streamable HTTP", "HTTP+SSE".
	Kind string
	// Pid is a stdio server's process id (also its process group's).
	Pid int
	// SessionID is the Mcp-Session-Id the server gave (Streamable HTTP,
	// stateful eras); "" when it gave none.
	SessionID string
	// Stateless says Streamable HTTP follows the 2026-07-28 rules (POST
	// only, no session, no GET stream).
	Stateless bool
	// GETStream says the standalone GET stream is kept (open, or being
	// reconnected).
	GETStream bool
	// Endpoint is where HTTP+SSE POSTs our messages, as its endpoint event
	// named it (its session is usually in the query).
	Endpoint string
}

// Describer is implemented by connections that describe themselves
// (Stdio's, HTTP's and SSE's).
type Describer interface {
	Describe() ConnInfo
}

var (
	_ Describer = (*stdioConn)(nil)
	_ Describer = (*httpConn)(nil)
	_ Describer = (*sseConn)(nil)
)

// Describe implements Describer.
func (c *stdioConn) Describe() ConnInfo { return ConnInfo{Kind: "stdio", Pid: c.Pid()} }

// Describe implements Describer.
func (c *httpConn) Describe() ConnInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return ConnInfo{Kind: "Streamable HTTP", SessionID: c.sessionID, Stateless: httpIsStateless(c.version),
		GETStream: c.standalone != nil}
}

// Describe implements Describer.
func (c *sseConn) Describe() ConnInfo {
	return ConnInfo{Kind: "HTTP+SSE", Endpoint: c.endpoint}
}
