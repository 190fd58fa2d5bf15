// Package client is elicit's MCP client engine: one Session per server,
// speaking JSON-RPC 2.0 over a transport.Conn in either protocol era,
// serving the server's questions through a Prompter and recording every
// outcome in a Journal.
//
// It must not know the UI: no charm imports, no forms, no ui. Of ours it
// imports client/wire, client/question, client/findings, client/lint,
// client/skills, transport, transport/jsonrpc, transport/rpcpeer and
// forms/schema (the layer table in AGENTS.md).
//
// # Usage
//
// Example_stdio, compiled with the tests:
//
//	s, err := client.Connect(ctx, &transport.Stdio{Command: "server"}, &client.Options{
//		Name:     "demo",
//		Prompter: question.AcceptDefaults,
//	})
//	if err != nil { ... }
//	defer s.Close()
//	tools, err := s.ListTools(ctx)
//	res, err := s.CallTool(ctx, "deploy", map[string]any{"env": "prod"}, nil)
//
// ExampleConnect runs a session against an in-process go-sdk server.
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
// The session is its lifecycle and its peer, and modules behind handles.
// The JSON-RPC side is transport/rpcpeer's Peer, the one ACP runs on too
// (write.go builds it): our ids, the calls awaiting a response (each a
// *call) and their progress tokens, the ids we cancelled, late and stray
// responses, the server's requests being served (each an *incoming),
// bounded writes, notifications/cancelled or the 2026-07-28 request's
// stream closed. What is MCP's stays here: the round trip
// (request.go: eras, MRTR, -32042, re-initialize), serving the server's
// requests (incoming.go), request clocks (timeout.go). The lifecycle
// (life.go: connecting, ready, closing, ended, the initialize generation,
// the context every served request derives from, and what the end waits
// for) changes only by its transitions; the era's handshake (era.go,
// lifecycle.go) is a module with a handle.
//
// # Questions
//
// The question domain lives in client/question: a Question, its Key and
// Origin, the Prompter, the policies, the Outcome buckets and the
// Journal. Every question ends in exactly one Outcome, decided by the
// engine, never by the Prompter alone: if the question's context ends
// first (the server withdrew it, the transport died, the owning call was
// cancelled, it timed out), that cause wins and a late answer is
// discarded. The three deliveries (an elicitation/create request, an
// MRTR input, a task input) share one path (deliver.go: parse, settle,
// reply, send), and what goes on the wire for each outcome and delivery
// is one table, question.Decision.Reply. When we close the Session, open
// questions end Abandoned (a request is still answered cancel, so the
// server's wait ends too); a question that came on a call's HTTP stream
// ends Disconnected when that stream is lost (the transport ends the call
// with transport.Inbound.Err). An answer that did not reach the server
// (its write failed, or the server refused it: an HTTP 400 to the POSTed
// response) is journalled Undelivered, saying what it was and why, with
// nothing counted as sent; what waited on the server's next move ends at
// once wrapping question.ErrUndelivered: the call whose HTTP stream
// carried the question (cancelled on the wire), or the 2025-11-25 task it
// belongs to (lost); an extension task's tasks/update that failed, or
// that the server answered with an error, loses its task the same way.
// A question tied to no call (stdio, a GET stream) ends nothing more:
// which call it belongs to is a guess.
//
// What the client offers a server (the requests it serves and the
// capabilities it declares, per version) is one table, features.go
// (offers); notifications dispatch through notify.go.
//
// # Modules
//
// Session is its lifecycle, its id tables and its connection; each
// feature is a module that owns its state and its lock and reaches the
// session only through a handle of values and funcs built once in
// newSession (its *_handle.go; TestModulesReachTheSessionOnlyThroughTheirHandles
// and TestTasksReachTheSessionOnlyThroughTheirHandle fail when a
// module's files name Session, public entries aside):
//
//   - the ask path, asking (deliver.go; askHandle): the schema cache, the
//     Asker over the Prompter, ask/record for every delivery;
//   - what we offer, offers (features.go, elicit.go, notify.go;
//     offersHandle): the features, the server-request and notification
//     handler tables, read-only after newSession;
//   - -32042 elicitations, urlRequired (urlrequired.go; urlHandle);
//   - the 2026-07-28 request path and its rounds, rounds (mrtr*.go;
//     roundsHandle);
//   - the tasks we follow, taskTable (tasks*.go; tasksHandle), and those
//     we run for the server, receiverTable (receiver*.go; receiverHandle);
//   - subscriptions/listen streams and resource subscriptions,
//     subscriptions (listen.go, subscribe*.go; listensHandle); a
//     Listener guards its own acknowledgement;
//   - the x-mcp-header bindings, toolHeaders (headers.go; headersHandle);
//     the coalesced lists, listFlights (lists.go; listFreshnessOf); the
//     roots, rootsState (roots.go); the findings, lint.Handle (lint.go);
//     the skills, skills.Handle (skills.go).
//
// A module that starts work Close must wait for joins the session first
// (joinOf: it fails once the session is ending).
//
// A response the server sent that cannot be decoded, but whose id could be
// recovered, fails its call at once ("could not be decoded"), wrapping the
// *jsonrpc.DecodeError; the call's prompts stay open, since the server is
// still there to answer or withdraw them.
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
// every request: elicitation form/url per Options.Elicit, and the tasks
// extension) and clientInfo, merged into the caller's _meta (progressToken
// survives). HTTP is told the version right after the era is known, which
// makes it POST-only and stateless. Every result's resultType is read:
// absent or "complete" is a result, "input_required" starts MRTR (below),
// "task" starts a task (tools/call only; see Tasks), anything else fails
// the call as an invalid response. Servers send
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
// 10 in a row). Per key, what goes out is question.Decision.Reply's
// table: MRTR has no per-key error, so content failing the schema, or a
// malformed elicitation, is answered cancel and journalled Invalid; a
// round the person abandoned (the call cancelled, or Close) sends no
// retry at all, and every question of it ends Abandoned, answered or not.
//
// A roots/list entry is answered from Options.Roots without a person
// (see Roots). Entries of kinds we do not declare (roots/list without
// Options.Roots, sampling/createMessage unless Options.Sampling is on; the
// spec leaves this open) get no inputResponses entry: they are shown as a
// Notice and journalled Invalid.
// A sampling entry is a question like any other (question.KindSampling),
// answered by the assistant's message; since 2026-07-28 has no way to
// refuse one, a refused sampling question abandons the call
// (ErrAbandonedCall) and no retry goes out. A round's prompts are
// journalled, and PromptResolved sent, when its retry has been written;
// a retry that could not be written journals them Undelivered.
//
// # Sampling, -32042, and serving only what was declared
//
// features.go declares sampling (Options.Sampling; with "tools" from
// 2025-11-25) and serves sampling/createMessage through the one ask path;
// question.Decision.Reply's sampling table says what goes out (the spec's
// -1 "User rejected sampling request" for a decline or a dismissal). A
// server request for a capability not declared in the session's version
// is refused: sampling and roots (without Options.Roots) with -32601
// ("Sampling not supported", "Roots not supported"), elicitation (2025-03-26, 2024-11-05, --elicit
// off) with the spec's -32602 for an undeclared mode; the error's data
// names the capability and RequestRefused marks it for the traffic view.
// A -32042 answer to a request of ours (2025-11-25) makes each of its URL
// elicitations a question (question.URLRequired); once all are accepted
// and complete (notifications/elicitation/complete or
// Session.CompleteElicitation, within Options.URLWait) the request is sent
// again, once, and URLRetry says how it went (urlrequired.go).
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
// # Lists
//
// ListTools, ListResources, ListResourceTemplates and ListPrompts are
// coalesced per kind (lists.go): at most one request out and one queued,
// and the last answer given again while no list_changed came since it was
// asked (where the server says its changes), so a storm of list_changed
// and the consumers reacting to each cost a bounded number of requests.
// A request for a capability the server did not declare (tools,
// resources, prompts, logging) is not sent: its error wraps
// ErrUndeclared (undeclared.go).
//
// Resource subscriptions: Session.Subscribe and Unsubscribe send
// resources/subscribe and resources/unsubscribe in 2025-x; in 2026-07-28
// Subscribe opens a subscriptions/listen stream of its own for the URI
// (resourceSubscriptions), one per URI so that changing one never closes
// another's, and Unsubscribe closes it. Updates become ResourceUpdated
// events, only from a stream that agreed to their URI (or one it lies
// under); a stream the server ends is reported as
// ResourceSubscriptionEnded (subscribe.go, subscribe_listen.go).
//
// # Tasks
//
// Long jobs run as tasks, in either of two wire-incompatible designs
// (Task.Design): the 2025-11-25 core tasks, and the 2026-07-28 extension
// io.modelcontextprotocol/tasks. The session declares what it does: in
// 2025-11-25 the client capability tasks {list, cancel}, with
// requests.elicitation.create while it declares elicitation and
// requests.sampling.createMessage while it declares sampling (the server
// may run our questions as tasks of ours, see Receiver-side tasks below);
// in 2026-07-28 the extension in the clientCapabilities _meta of every
// request, tasks/* included.
//
// Which calls become tasks: in 2025-11-25 the client asks, by
// params.task.ttl (CallOptions.TaskTTL, default DefaultTaskTTL), following
// the tool's execution.taskSupport: "required" always, "optional" when
// CallOptions.AsTask says so (nil: when the server declared
// tasks.requests.tools.call), "forbidden" or absent never. The support
// comes from CallOptions.TaskSupport, else from the session's last
// ListTools (a session that never listed its tools lists them once, when
// the server declared task-augmented tools/call). In the extension the
// server decides: any tools/call may answer resultType "task".
//
// CallTool of a call that became a task blocks until the task is terminal
// and returns what the tools/call would have: the result (isError
// included; in 2025-11-25 such a task ends failed, in the extension
// completed), or an error wrapping the task's *jsonrpc.Error (failed),
// ErrTaskCancelled (cancelled) or ErrTaskLost. Meanwhile every change of
// the task is a TaskChanged event carrying a Task snapshot, and
// Session.Tasks lists them all. One goroutine per task polls tasks/get,
// never sooner than the server's pollInterval after the previous answer
// (without one: 1 s, doubling up to 10 s), until a terminal status.
// Status notifications (notifications/tasks/status; in the extension
// notifications/tasks on a subscriptions/listen stream that agreed to the
// task, see Options.ListenTasks and ListenOptions.TaskIDs) update the
// task at once but never replace polling. An id the server does not know
// (-32602), five failed polls in a row, or the end of the session end the
// task Lost.
//
// Questions of a task are prompts whose Origin is the task (OriginTask,
// TaskID, the tool's name, the creating call's id), settled, validated
// and journalled like every other prompt:
//
//   - 2025-11-25: on each transition into input_required the session
//     calls tasks/result once (not per poll; polling goes on). The server
//     sends the questions as elicitation/create requests tagged with
//     related-task _meta, keyed by their request id and answered as in
//     Prompts, the answer echoing related-task. The same tasks/result
//     brings the result at the end; if none has, it is called then.
//   - Extension: each inputRequests key is a prompt keyed PromptKey{
//     Server, TaskInput, TaskID, Input: key}, shown once however many
//     polls repeat it, and answered as soon as it is decided in a
//     tasks/update of its own ({taskId, inputResponses: {key: answer}}),
//     by question.Decision.Reply's table (Withdrawn: the server stopped
//     listing the key, or the task ended; Abandoned: tasks/cancel went
//     out instead, so nothing answers the key).
//
// Cancelling: Session.CancelTask sends tasks/cancel; so does cancelling
// the context of a waiting CallTool or ResumeTask (never
// notifications/cancelled for a task call), which then returns at once.
// Either way the task's prompts end Abandoned, and polling goes on (for
// at most two minutes) until the task says how it really ended: 2025-11-25
// cancels at once, while in the extension cancel is only a request and a
// task may still complete or fail. A context ended with ErrTaskDetached
// stops the wait without cancelling. Closing the session cancels nothing:
// its tasks end Lost here, and ResumeTask on a later session follows an
// extension task by id (2025-11-25 tasks belong to the session that made
// them). ListTasks is 2025-11-25's tasks/list.
//
// Receiver-side tasks (2025-11-25, receiver.go): a server that sends a
// request we declared task-augmentable with params.task gets a
// CreateTaskResult at once (status working, the TTL it asked within
// [1 min, 1 h], 128-bit random ids), and the question opens through the
// same ask path, keyed {ServerRequest id, ReceiverTask, TaskID}; its
// answer becomes the task's result. The session answers the server's
// tasks/get, tasks/result (blocking until the task is terminal, or that
// request ends), tasks/list (its own tasks, 50 a page) and tasks/cancel
// (the question ends Withdrawn), sends notifications/tasks/status on each
// change, and reports the task as a Task with Ours set. CancelTask of one
// of ours answers its question cancel; a call of ours given up ends the
// questions of ours that belong to it Abandoned. At most 128 tasks are
// kept per session; an ended one stays its TTL, and at least a minute.
//
// # Roots
//
// Options.Roots declares the roots capability (roots.go) and is what
// roots/list answers; SetRoots (Manager.SetRoots, which a reconnect
// keeps) replaces the list and, in the stateful era, sends
// notifications/roots/list_changed. In 2026-07-28 roots are declared as
// "roots":{} on every request and a roots/list entry of inputRequests is
// answered from the list without a person (the spec dropped the
// notification there: the server asks again when it needs them).
//
// # Timeouts
//
// Nothing the engine waits for from a server waits for ever, and nothing
// a person is doing is timed out behind their back (timeout.go).
//
//   - Connect is bounded by Options.ConnectTimeout (default 30 s): the
//     dial, the era probe, and initialize or server/discover. Its error
//     wraps ErrTimeout and names the request left unanswered.
//   - Every request of ours is bounded by Options.RequestTimeout (default
//     60 s) while it waits on the server: its clock runs in quiet periods,
//     and a quiet period of RequestTimeout (no answer, and no
//     notifications/progress for it) times it out. Each progress starts a
//     new quiet period, as the spec allows, but the clock runs for at most
//     10 × RequestTimeout in all.
//   - The clock stands still while a question that may be the request's
//     is open: the prompts of its MRTR round; an elicitation/create that
//     came on its HTTP stream; one that nothing ties to a request (stdio,
//     a GET stream) holds every request outstanding when it came, since a
//     guessed Origin may be wrong. When the last such question closes, a
//     new quiet period starts. So a tools/call, prompts/get or
//     resources/read that waits on a person is never timed out however
//     long they take, and is bounded again once they have answered.
//   - What the engine writes on its own (a response to the server's
//     request, notifications/cancelled, a task's status, initialized,
//     roots/list_changed) is bounded by Options.WriteTimeout (default
//     10 s, as ACP's writes): a server that stops reading its stdin, or
//     takes the POST and never answers it, fails that write with
//     ErrTimeout. An answer so lost is journalled Undelivered and ends
//     what waited on it (the call whose stream carried the question).
//   - A request that timed out is cancelled as one whose ctx ended is
//     (initialize and the probe never are), and its error wraps ErrTimeout
//     and says after how long.
//   - Unbounded by design: a subscriptions/listen stream (Listen and
//     Subscribe bound its acknowledgement only, Unsubscribe its end), and a 2025-11-25 tasks/result sent while
//     its task runs, which answers when the task ends. A task is bounded
//     per request (each tasks/get, tasks/update, tasks/cancel, and
//     tasks/result once it has ended), never as a whole.
//   - The era probe keeps its own 5 s (see Eras): that is how a stateful
//     server that ignores server/discover is recognised, not a failure.
//   - A prompt has no timeout unless Options.PromptTimeout sets one.
//
// # Session expiry
//
// When a stateful request fails with an error wrapping
// transport.ErrSessionExpired (Streamable HTTP answered 404 for our
// session id), the Session runs initialize again, once, and retries that
// request once with a new id. Prompts and calls of the old server session
// are not carried over.
package client
