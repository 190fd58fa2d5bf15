// Package hub keeps MCP sessions alive between commands: one hub process
// per user, started on demand by "elicit session start", holds each named
// session's client.Session (its server, its Mcp-Session-Id, its open
// questions) until "elicit session stop", and answers the commands that
// use a session over a unix socket.
//
// The socket lives in a folder only the user can enter (paths.go: 0700,
// refused when wider or another's; the socket 0600), and every connection
// must come from our own uid (SO_PEERCRED). The control protocol is
// JSON-RPC 2.0, one object per line, one connection per command
// (protocol.go, rpc.go): a connection that closes while its request is in
// flight is a caller that was killed, and what it started ends with it
// (its tool call is cancelled, its questions end abandoned).
//
// A session's questions wait in the hub's prompter (prompter.go), keyed as
// everywhere else (question.Key), with no timeout, until elicit answer, a
// call's own --answer policy or an attached TUI (Prompter.Next) settles
// them; the first answer wins, and a later one is told how the question
// ended. What a session is and runs (calls, results) is session.go; the
// hub's lifetime (it exits when its last session stops, its servers die
// with it) is hub.go; starting it exactly once is spawn.go.
//
// How a session is opened and how a command runs on it stay with
// cmd/elicit (Opener, Runner): they are its flags, its server specs and
// its commands, opened through cmd/elicit/internal/app like every other
// session.
package hub
