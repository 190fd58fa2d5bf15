// Package lint is the findings checks of one MCP session: each hook is one
// call the engine (client) makes where it already notices what the server
// did, never under the session's lock, and each violation it sees goes to
// the session's findings.Recorder (client/findings: the rule catalogue,
// docs/findings.md). A Linter remembers what the checks need across frames
// (the ids answered, the progress tokens callers chose, the tools'
// outputSchemas, the last page of each list) and reads the session only
// through its Handle (server name, protocol, era, declared capabilities).
// With no Recorder each hook costs a nil check.
//
// Findings are about the server only. Of ours it imports client/findings,
// client/question, client/wire, forms/schema and transport/jsonrpc; the
// engine imports it, never the reverse.
package lint
