// Package proxy puts elicit between an MCP host (Claude Desktop, an IDE,
// any client) and a server: elicit proxy. Every frame goes both ways
// unchanged in meaning and order; the host's ids stay the host's, and the
// requests elicit adds itself (2026-07-28 retries it completes) get ids
// of their own that the host's cannot collide with.
//
// What the host's initialize (or, in 2026-07-28, each request's
// clientCapabilities) does not declare, elicit may declare in its place:
// elicitation form, elicitation url, sampling, roots. Only that part of
// the params is rewritten, and the server's requests of a filled
// capability are answered by elicit (a question.Prompter: a headless
// policy or a person), never forwarded; those of a capability the host
// declared go to the host, and elicit never answers them. Never both.
//
// The package works on transport.Conns: the command (cmd/elicit/proxy.go)
// builds the host's from stdin and stdout and the server's from the same
// server flags elicit uses for itself.
package proxy
