// Package acpagent is elicit's demo ACP agent (elicit demo --acp): it
// speaks ACP v1 on stdio with raw JSON lines, no model and no SDK, and
// plays one scene per prompt, chosen by a word in the prompt text:
//
//	permission    a tool call that asks session/request_permission
//	question      a form elicitation/create in the session
//	withdraw      a form question it withdraws with $/cancel_request
//	withdrawperm  a permission request it withdraws with $/cancel_request
//	long          a long turn of chunks, to cancel with session/cancel
//	toolq         a form question during a tool call (toolCallId set)
//	url           a URL-mode elicitation, then elicitation/complete
//	fs            a read of /etc/hostname (-32601 without --allow-fs,
//	              refused -32602 with it: outside the cwd)
//	write         a write of notes.txt in the cwd, then a read of it
//	read          a read of notes.txt in the cwd
//	refuse        a turn that ends with stopReason refusal
//	err32800      a turn answered error -32800 once cancelled
//	crash         a permission request, then the agent dies
//	deaf          a turn that ignores session/cancel for 20s, but
//	              answers -32800 to $/cancel_request for the prompt
//	deafer        a turn that ignores both for 20s
//	updates       thought, commands, mode, usage and an unknown update kind
//	foreign       an update, a permission, a question, a read and a write
//	              in the name of a session the client never opened (all
//	              must be refused), then what came back
//	plans         20 plans, each longer than the last, up to 100,000 entries
//	stray         answers to ids the client never sent or had answered
//	silent        a turn that says nothing until session/cancel
//	manywrites    a write of 1 MiB, then 300 small ones, in the cwd
//	afterturn     a permission request sent once the turn is answered
//	blocks        says the prompt's content blocks (type:name:mimeType)
//	notice        a notice update (session.notices)
//	compact       a compaction and its summary (session.compaction)
//	named         a tool call with a name
//	commands      available_commands_update offering /echo
//	/echo TEXT    the command: says TEXT back
//	terminal      a command in a client terminal (--allow-terminal):
//	              create, wait_for_exit, output, release
//	ticker        as terminal, a command that ticks for 10s (the TUI's
//	              terminal panel shows it live; alt+k kills it)
//
// Beside the turn it serves every session method of stable v1: it
// starts with sessions old_1..old_3 (one turn each), lists them two to a
// page, replays a session's turns on session/load, resumes, closes and
// deletes them, has modes "ask" and "code" and config options "model"
// (a select) and "verbose" (a boolean), and answers logout.
//
// Anything else is echoed. It imports nothing of ours, so it is an
// independent peer for the engine's tests.
package acpagent
