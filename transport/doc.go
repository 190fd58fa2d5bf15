// Package transport moves framed JSON-RPC messages between elicit and one
// MCP server. It knows nothing of sessions, prompts or the UI.
//
// Implementations: Stdio (a subprocess, newline-delimited JSON), HTTP
// (Streamable HTTP), and Pipe (an in-memory pair for tests). Each reports
// every raw frame, both directions, with a timestamp, to an Observer; HTTP
// also reports method, URL, status and the headers that matter.
//
// The concurrency contract is on Conn.
package transport
