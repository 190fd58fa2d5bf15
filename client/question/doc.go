// Package question is the domain of questions a peer asks a person: an
// MCP server's elicitations (request, 2026-07-28 input, task input) and,
// with the same key and origin, an ACP agent's permission requests and
// elicitations. It holds the Question, its Key and Origin, the Prompter
// that answers it, the headless policies, the Outcome buckets and the
// Journal, the schema cache, and the rules by which a question ends:
//
//   - Parse reads elicitation params (exact member names) against the
//     modes in force and the schema subset;
//   - Asker.Settle runs a question through the Prompter to one Decision:
//     the cause that ended its context first (withdrawn, disconnected,
//     abandoned, timed out) wins over any answer, and accept content must
//     pass the schema;
//   - Decision.Reply is the one table of what goes on the wire for each
//     outcome and each delivery.
//
// A question kind (elicitation, sampling, ACP permission) is one
// descriptor (kinds.go): its name and method, whether it is declared, its
// parse, its judge, its columns of the reply table, its journal note and
// tally, and what a headless Route answers without a policy for it. Parse
// (ParseAs), Judge, Decision.Reply, the Journal, NewEntry and Route ask
// the descriptor; nothing else branches on the kind. A new kind is its
// constant, its descriptor and one line in kindSpecs, plus a front end's
// form for it (the TUI's ui/kinds.go).
//
// It has no session and does no I/O: an engine (client.Session) parses,
// settles and sends; this package decides. Its only goroutine is the
// Prompter's, counted in Asker.WG.
package question
