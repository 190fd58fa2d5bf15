// Package acp is the engine of an ACP (Agent Client Protocol v1) client:
// it spawns an agent over the stdio transport, speaks newline-delimited
// JSON-RPC with a request id space per direction, runs initialize,
// authenticate, session/new and session/prompt turns, decodes
// session/update into typed updates, and puts the agent's questions
// (session/request_permission, elicitation/create, and with AllowFS the
// writes of fs/write_text_file) through the question domain
// (question.Asker and Decision.Reply's ACP rows).
//
// Cancellation goes both ways, and a reply is always owed:
//   - $/cancel_request from the agent withdraws one open question,
//     answered -32800;
//   - Stop sends session/cancel, answers every open permission of the
//     session "cancelled" and elicitation "cancel" (a write -32800), and
//     waits a bounded time for the agent's stopReason; without it, or at
//     once on AbandonTurn, the prompt itself gets $/cancel_request, and a
//     -32800 then is TurnResult.RequestCancelled, not a failure;
//   - a call of ours whose ctx ends (session/new, authenticate) is
//     abandoned with $/cancel_request, and the agent's -32800 is
//     ErrCancelled;
//   - internal cancellation answers -32800 too: Options.QuestionTimeout,
//     and Close, which answers every open request of the agent's.
//
// What a UI uses beside Prompt and Stop: Options.ChooseAuth, called when
// session/new is refused -32000 (AskAuth makes one that asks its
// Prompter a form with one choice per authMethod, a question.AuthChoice,
// so the form panes show it), AbandonTurn (a second Stop), Options.OnUpdate and OnFile (the
// turn and the fs accesses as they happen), question.FileWrite (a write
// asked first: a permission whose tool call carries the diff, options
// WriteAllow and WriteReject; Esc refuses it without stopping the turn),
// and Options.MCPServers (session/new's mcpServers from its config).
//
// Beyond the turn, every client method of stable v1 (schema v1.25), each
// sent only when the agent declares it (Capabilities; ErrNotDeclared
// otherwise, nothing sent): OpenSession (session/new, session/load with
// its replayed history gathered, session/resume; additionalDirectories
// widen where fs requests may reach), ListSessions (every page),
// CloseSession, DeleteSession, SetMode, SetConfigOption (select values
// and booleans), Logout, and PromptBlocks/Attach (image and resource-link
// blocks). Each such call ends as an Action (Actions, Options.OnAction):
// the journal of what is not a question. The client declares
// session.notices, session.compaction and boolean config options, and
// decodes their updates (Update.Notice, Compaction, ConfigOptions) and
// a tool call's name.
//
// With Options.AllowTerminal the client declares terminal and serves
// terminal/*: each terminal/create is a question.TerminalCreate
// permission first (Esc or a reject refuses it, -32603, the turn goes
// on), then a real PTY (creack/pty) in the session's roots, the
// request's env over ours, output cut from the beginning to
// outputByteLimit; wait_for_exit answers -32800 when withdrawn. Every
// terminal of a session is killed when its turn ends, a person may kill
// one (KillTerminal), and each ending is an Action.
//
// It never imports charm: it runs headless (elicit acp) as well as under
// a UI.
package acp
