// Package demo is a stand-alone MCP server that plays the scenes elicit
// exists for: a deploy confirmation that can be accepted, declined or
// dismissed; two tickets asked about at once; a form with every field type of
// the 2025-11-25 elicitation subset; a two-round wizard whose second question
// depends on the first answer; a call that must be retried at once (load
// shedding); a question the server withdraws; a URL-mode consent; a storm of
// parallel questions; and a slow tool that reports progress and logs.
//
// It is built only on github.com/modelcontextprotocol/go-sdk and the standard
// library and must not import any other elicit package: tests use it as a real
// peer, and the CLI embeds it (`elicit demo`, `elicit demo --serve stdio`,
// `elicit demo --serve http ADDR`).
//
// Usage:
//
//	srv := demo.New(&demo.Options{WithdrawAfter: 2 * time.Second})
//	st, ct := mcp.NewInMemoryTransports()
//	ss, _ := srv.Connect(ctx, st, nil)
//	// connect a client to ct ...
//
// or serve it: [ServeStdio], [ServeIO], [HTTPHandler], [HTTPHandlerStateless],
// [ServeHTTP].
//
// # Two protocol eras
//
// By default the server speaks every version go-sdk knows and the client's
// choice picks the era ([Options.Protocol] narrows it):
//
//   - 2025-11-25 and older (stateful): initialize handshake, sessions, and
//     questions sent as elicitation/create requests from the server, which
//     the server may withdraw with notifications/cancelled.
//   - 2026-07-28 (stateless): no handshake (server/discover is answered;
//     version and capabilities come in every request's _meta), and the
//     server sends no requests. A tool that needs to ask returns an
//     input_required result: inputRequests (questions by key) and an opaque
//     requestState. The client answers and retries tools/call with a new id,
//     inputResponses and the requestState echoed exactly (MRTR, SEP-2322).
//
// Transports: stdio ([ServeStdio], [ServeIO]) and in-memory serve both eras
// in one session. Over HTTP, go-sdk serves 2026-07-28 only statelessly:
// [HTTPHandler] is stateful and old-era only; [HTTPHandlerStateless] serves
// 2026-07-28 (POST only, no Mcp-Session-Id, Mcp-Method and Mcp-Name headers
// checked, a closed POST cancels its call) but cannot ask old-era clients
// anything. Options.Stateless picks it for [ServeHTTP].
//
// # One handler per tool, both eras
//
// deploy, create_ticket, showcase, wizard, needs_state_only and (in
// 2026-07-28) storm are written once, as steps that either finish or ask
// with an input_required result. In 2026-07-28 that result goes to the
// client. In older sessions the handler plays the client itself: it asks the
// questions with elicitation/create, concurrently, and runs the step again
// with the answers and the same requestState, until the step finishes.
// go-sdk's own bridge for this (serverMultiRoundTripMiddleware) re-invokes a
// handler only once and turns a question-less result into an error, so it
// cannot play the wizard or needs_state_only; see rounds.go.
//
// requestState is base64url(JSON) plus an HMAC-SHA256 under a random key
// made per server ([New]): it is bound to the tool, a digest of the call's
// arguments, the round and the time (valid one hour). A client that edits it,
// takes it from another call, or brings it to a restarted server gets a tool
// error saying "requestState refused". The server keeps no state between
// rounds, so the wizard's first answer reaches round 3 only through it.
// Answers that arrive as inputResponses are checked against the question's
// schema and get its defaults, as go-sdk's Session.Elicit does in the old
// era. A client that declared no elicitation capability gets -32021
// (MissingRequiredClientCapability) instead of a question.
//
// withdrawn and consent are old-era scenes (2026-07-28 has no server-side
// cancel, no elicitationId and no notifications/elicitation/complete); in
// 2026-07-28 they return a tool error that says so.
//
// Concurrency: go-sdk runs every tools/call in its own goroutine, so calls
// and their questions proceed in parallel; the tools keep no state between
// calls and share nothing, so answers can never cross.
//
// Every tool file registers one group of tools (tools_deploy.go,
// tools_wizard.go, ...), so later modes and task tools can be added as new
// files without touching the others.
package demo
