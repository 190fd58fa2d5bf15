// Package client is elicit's MCP client engine: one Session per server,
// speaking JSON-RPC 2.0 over a transport.Conn in either protocol era,
// serving the server's questions through a Prompter and recording every
// outcome in a Journal.
//
// It must not know the UI: no charm imports, no forms. It depends only on
// transport, transport/jsonrpc and forms/schema.
//
// # Usage
//
//	s, err := client.Connect(ctx, &transport.Stdio{Command: "server"}, &client.Options{
//		Name:     "demo",
//		Prompter: client.AcceptDefaults,
//	})
//	if err != nil { ... }
//	defer s.Close()
//	tools, err := s.ListTools(ctx)
//	res, err := s.CallTool(ctx, "deploy", map[string]any{"env": "prod"}, nil)
//
// # Concurrency
//
// A Session runs one read loop that blocks on nothing but the transport.
// Responses reach their waiting callers through buffered channels; each
// request from the server runs in its own goroutine with its own context;
// notifications and state changes reach the Observer, in order, from one
// dispatcher goroutine per session (see Event). Our outgoing ids and the
// server's incoming ids live in two separate tables: they are different id
// spaces and may collide.
//
// # Prompts
//
// Every prompt ends in exactly one Outcome, decided by the engine, never by
// the Prompter alone: if the prompt's context ends first (the server
// withdrew it, the transport died, the owning call was cancelled, the
// prompt timed out), that cause wins and a late answer is discarded. What
// goes on the wire per outcome for an elicitation/create request (the
// stateful era; for 2026-07-28 see MRTR):
//
//	Accept        {"action":"accept","content":{...}} (URL mode: no content),
//	              after the content passed the schema; else -32602 and Invalid
//	Decline       {"action":"decline"}
//	Cancel        {"action":"cancel"}
//	Withdrawn     nothing (the server cancelled the request)
//	Disconnected  nothing (there is no one to send it to)
//	Abandoned     {"action":"cancel"}, so the server's wait ends too; this is
//	              also how prompts end when the Session is closed by us
//	Timeout       {"action":"cancel"}
//	Invalid       JSON-RPC error -32602 naming the property
//
// # Eras
//
// Connect settles how to speak to the server; Session.Era and
// ServerStateChanged.Era name it ("2026-07-28 stateless", "2025-11-25
// stateful", "2024-11-05 legacy SSE").
//
//   - Unless Options.Protocol pins a version, the probe comes first:
//     server/discover carrying our _meta, bounded by 5 s (a stateful server
//     may ignore a method it does not know before initialize). A result
//     listing 2026-07-28, or an error of that era (-32020, -32021, -32022),
//     means a 2026-07-28 server: a -32022 listing only stateful versions
//     falls back, the others fail Connect with a clear message. Anything
//     else (another error, the timeout, on HTTP a refused POST whose body
//     is not such an error) falls back to initialize, offering 2025-11-25.
//   - On HTTP, a POST initialize refused with 400, 404 or 405 means a
//     server of the legacy HTTP+SSE transport: the session dials
//     transport.SSE on the same URL and runs initialize there.
//   - A pin of "2026-07-28" skips the probe (server/discover still runs,
//     for the server's capabilities, and must succeed); an older pin runs
//     initialize at once. A Manager remembers a server's stateful or
//     legacy-SSE era and skips the probe when it reconnects.
//
// 2026-07-28 has no initialize, notifications/initialized or ping (Ping
// returns ErrNoPing; SetLogLevel rides in _meta). Every request carries
// params._meta with our protocolVersion, clientCapabilities (the same on
// every request: elicitation form/url per Options.Elicit) and clientInfo,
// merged into the caller's _meta (progressToken survives). HTTP is told
// the version right after the era is known, which makes it POST-only and
// stateless. Every result's resultType is read: absent or "complete" is a
// result, "input_required" starts MRTR (below), anything else ("task"
// included, for now) fails the call as an invalid response. Servers send
// no requests in this era and clients no responses, so a request from the
// server is left unanswered with a Notice. Cancelling one of our requests
// closes its stream on HTTP (transport.RequestCanceler) and sends
// notifications/cancelled on stdio. A request whose HTTP stream broke is
// lost (no resumption): MRTR retries and requests without side effects
// are sent again under a new id, at most twice, with a Notice; a first
// tools/call is not (it may have acted), it fails wrapping
// transport.ErrRequestLost.
//
// # MRTR (2026-07-28 multi round-trip requests)
//
// A tools/call, prompts/get or resources/read may be answered
// input_required with inputRequests (key -> elicitation/create params)
// and maybe requestState. Each elicitation becomes a Prompt keyed
// PromptKey{Server, InputRequest, CallID: the id of our original request
// (the same in every round), Input: key}, whose Origin is the call. A
// round's prompts are shown all at once and settled exactly like
// elicitation/create (same outcomes, same validation, same journal); then
// ONE retry goes out with a new id, the original params, inputResponses
// {key: ElicitResult} and requestState echoed byte for byte (never parsed;
// absent if it was absent). Rounds repeat until a final result (at most
// 100; a round asking nothing, load shedding, is retried at once, at most
// 10 in a row). Per key, on the wire:
//
//	Accept        {"action":"accept","content":{...}} (URL mode: no content)
//	Decline       {"action":"decline"}
//	Cancel        {"action":"cancel"}
//	Timeout       {"action":"cancel"}
//	Invalid       {"action":"cancel"}: MRTR has no per-key error, so content
//	              failing the schema, or a malformed elicitation, is
//	              answered cancel and journalled Invalid with the reason
//	Abandoned     nothing: the person cancelled the call (or Close) while a
//	              round was open, so no retry is sent at all, and every
//	              prompt of that round ends Abandoned, answered or not
//	Disconnected  nothing (the transport died during the round)
//
// Entries of kinds we do not declare (sampling/createMessage, roots/list;
// the spec leaves this open) get no inputResponses entry: they are shown
// as a Notice and journalled Invalid. A round's prompts are journalled,
// and PromptResolved sent, when its retry has been written.
//
// # Subscriptions
//
// In 2026-07-28 list changes come only on a subscriptions/listen stream:
// Session.Listen opens one, checks the server's acknowledgement against
// what was asked (a Notice if it agreed to less, an error if it named
// more), turns the notifications carrying its subscriptionId into
// ListChanged events, and ends cleanly when its ctx ends. In older eras
// list_changed notifications become ListChanged as they come.
//
// # Session expiry
//
// When a stateful request fails with an error wrapping
// transport.ErrSessionExpired (Streamable HTTP answered 404 for our
// session id), the Session runs initialize again, once, and retries that
// request once with a new id. Prompts and calls of the old server session
// are not carried over.
package client
