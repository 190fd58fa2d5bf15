// Package demo is a stand-alone MCP server that plays the scenes elicit
// exists for: a deploy confirmation that can be accepted, declined or
// dismissed; two tickets asked about at once; a form with every field type of
// the 2025-11-25 elicitation subset; a two-round wizard whose second question
// depends on the first answer; a call that must be retried at once (load
// shedding); a question the server withdraws; a URL-mode consent; a storm of
// parallel questions; a slow tool that reports progress and logs; and long
// jobs run as tasks (reflow_*), in both task designs; and an MCP App
// (palette, its ui://demo/palette.html page and the app-only pick_colour).
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
// consent plays in both eras: in 2025-11-25 a URL-mode elicitation/create
// with an elicitationId, then notifications/elicitation/complete; in
// 2026-07-28 a URL-mode question in an input_required result (no
// elicitationId, no completion notification: the retry brings the answer).
// withdrawn is an old-era scene (2026-07-28 has no server-side cancel): a
// server that serves 2026-07-28 only ([Options.Protocol]) does not list
// it, and one serving both eras says so in its description and answers a
// 2026-07-28 call with a tool error naming the era it needs.
//
// Besides the tools there is one resource (demo://readme), one resource
// template (demo://scene/{tool}) and one prompt (greet).
//
// It declares the skills extension (io.modelcontextprotocol/skills, in
// both eras) and serves skills/list and skills/get (go-sdk's
// AddReceivingCustomMethod) for two skills whose files are resources,
// read through a second template (skill://{+path}):
// release-notes (a supporting file and a nested SKILL.md) and tampered,
// whose entry declares a digest its data.txt does not have, so that
// elicit skill shows the check failing (skills.go).
//
// Concurrency: go-sdk runs every tools/call in its own goroutine, so calls
// and their questions proceed in parallel; the tools keep no state between
// calls and share nothing, so answers can never cross.
//
// # Long jobs as tasks, in both task designs
//
// reflow_month (execution.taskSupport "required") moves twelve bookings one
// at a time, reporting "Moved booking 5 of 12 (Design review → Room B)" in
// statusMessage; one booking fits nowhere, so it asks what to do
// (input_required, a form with a choice) and then completes with a summary
// naming the answer, or saying the workshop was left unplaced on decline or
// cancel. reflow_fail ends with a JSON-RPC error, reflow_iserror with an
// isError result, and reflow_stubborn ignores cancellation (all three
// "optional": called without a task they run inline). Jobs look for a
// cancel only between bookings, never in the middle of one.
//
// go-sdk v1.8.0 has no tasks, so the demo keeps its own store (one per
// server; tasks_store.go) and plugs it in from outside (tasks_server.go):
// tasks/* are custom methods, and receiving middleware answers tools/call
// of a task tool with a task and patches what go-sdk's types cannot carry
// (the tasks capability, execution.taskSupport). Task ids are random
// (128 bits); pollInterval is [Options.TaskPollInterval]; tasks live ten
// minutes by default (2025-11-25 clients may ask for 1 s to 1 h).
//
//   - 2025-11-25 (core tasks, SEP-1686): initialize declares
//     tasks {list, cancel, requests.tools.call}; tools/call with params.task
//     answers {"task": {...}}; tasks/get, tasks/list, tasks/cancel answer
//     Tasks; tasks/result blocks until the end and answers what the call
//     would have (the result with related-task _meta, or the JSON-RPC
//     error; -32000 for a cancelled task), and while the task waits for
//     input it asks the question on its own stream as elicitation/create
//     with _meta["io.modelcontextprotocol/related-task"]. An isError result
//     makes the task failed. Tasks belong to their session and end with it.
//     tasks/cancel makes the task cancelled before answering, as the spec
//     requires; reflow_stubborn keeps working anyway, which only the log
//     shows. notifications/tasks/status is sent on each change of status
//     over ServeIO, ServeStdio and [WrapTransport], not over HTTP. A
//     required tool called without a task is -32600 "Task augmentation
//     required".
//     go-sdk drops params.task while decoding tools/call, so the carriers
//     move it into _meta first: ServeIO and ServeStdio filter the byte
//     streams, [HTTPHandler] rewrites the POST body, and [WrapTransport]
//     wraps a Connection for in-memory use (tasks_transport.go).
//   - 2026-07-28 (the io.modelcontextprotocol/tasks extension, SEP-2663):
//     server/discover declares the extension; a tools/call whose _meta
//     declares it answers {"resultType": "task", "taskId", ..., "ttlMs",
//     "pollIntervalMs"}; tasks/get answers the task with inputRequests
//     (key "placement", the same on every poll), result or error inline;
//     tasks/update hands in answers (checked against the form; a bad one is
//     -32602); tasks/cancel is only an acknowledgement and the task becomes
//     cancelled when the job next looks (reflow_stubborn ends completed). An
//     isError result completes the task. Without the extension, a required
//     tool and tasks/* are -32021; tasks/result and tasks/list are -32601.
//     Ids are bearer handles, on every transport including stateless HTTP.
//     Polling is the only channel: subscriptions/listen is go-sdk's and
//     does not acknowledge taskIds.
//
// Every tool file registers one group of tools (tools_deploy.go,
// tools_wizard.go, ...), so later modes and task tools can be added as new
// files without touching the others.
package demo
