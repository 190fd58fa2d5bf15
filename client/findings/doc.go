// Package findings is elicit's catalogue of what a server may do wrong and
// the record of what one did: each spec violation the engine notices while
// it talks to a server becomes a Finding with a stable rule id, a severity
// (error for a MUST, warning for a SHOULD), the spec version and section it
// breaks, one line on how to fix it, and a reference to the frame it came
// from, so the traffic view can show it.
//
// Findings are about the server, never about elicit's own choices: a
// rule is in the catalogue only when the spec says what the server must or
// should do. The one exception is elicit proxy, between a host and a
// server, where the host's violations are findings too (Party "host",
// the host- rules).
//
// The engine (client) reports into a Recorder; the surfaces read it: the
// TUI's findings view, the headless results' "findings" array, and elicit
// check. Of ours it imports only transport/jsonrpc (its DecodeError is the
// JSON-RPC shape rule), so every layer may use its data types.
package findings
