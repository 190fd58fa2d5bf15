// Package headless is elicit's commands that talk to a server without a
// terminal: tools, call, resources, templates, read, prompts, get, ping
// and check, which print JSON for a script; auth (OAuth ahead of time,
// what is kept, revoking it); and conformance, the client the MCP
// conformance suite drives. Env's methods are the commands, as
// cmd/elicit's command table runs them; each has its usage text
// (ToolsUsage…), and the JSON ones their output type (CallOutput…).
//
// Every command goes through one helper (run.go): parse reads the flags
// naming the server and those of the session (package cli), --config
// and --server, --log-level, the command's own, and -- CMD ARGS...;
// connect is the one place a headless command gets its session, through
// app.Wiring, with the recording, the findings, the prompter and the
// observers. So a new headless command is its own flags and its body.
// WriteJSON writes what they print (server text through
// themes/untrusted, invalid UTF-8 repaired and said so).
package headless
