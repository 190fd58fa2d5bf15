// Package transport moves framed JSON-RPC messages between elicit and one
// MCP server. It knows nothing of sessions, prompts or the UI.
//
// Implementations: Stdio (a subprocess, newline-delimited JSON), HTTP
// (Streamable HTTP, both the stateful eras and the stateless 2026-07-28
// one), SSE (the legacy HTTP+SSE transport of 2024-11-05), and Pipe (an
// in-memory pair for tests). Each reports every raw frame, both
// directions, with a timestamp, to an Observer; HTTP and SSE also report
// method, URL, status and the headers that matter.
//
// NewStream frames any reader/writer pair the stdio way; Stdio and Pipe are
// built on it, and it can put our Conn in front of anything that speaks
// newline-delimited JSON-RPC. A stdio server runs in its own process group,
// and Conn.Close stops the whole group: close stdin, wait, SIGTERM, wait,
// SIGKILL. When a server exits by itself, Read fails with an *ExitError
// (wrapping io.EOF) carrying its exit status and last stderr lines.
//
// A server is not trusted to be well-behaved. HTTP and SSE follow a
// redirect only within the origin of their URL, so the configured headers
// go nowhere else (ErrOtherOrigin); every message has a size limit past
// which it is skipped; SSE reconnects are floored and backed off whatever
// retry the server asks for; and an answer the transport cannot deliver
// (too large, undecodable) still ends the call it answers, so no call waits
// for what has come and gone.
//
// The concurrency contract is on Conn.
package transport
