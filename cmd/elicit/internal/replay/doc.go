// Package replay is elicit replay FILE: it runs the calls of a
// recording (elicit --record, docs/record.md) again, against the
// recorded server or agent or one given, answers every question as it
// was answered (matched by what it asks, never its id), and reports what
// differs (results, errors, question shapes and outcomes, a question
// missing or extra), leaving out what differs between runs by design.
//
// A recording is shared data: what it names runs only when the person
// names it, confirms it or passes --trust-recorded-command, and a
// recorded allow of an agent's tool call that may change things needs
// their word too (trust.go, permit.go, on internal/trust). The sessions
// open through internal/app: an MCP server's with Wiring, an agent's with
// AgentWiring, so a replay records (--record) and reports findings as
// the live run does.
package replay
