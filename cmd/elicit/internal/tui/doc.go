// Package tui is the engine under elicit's TUI (package ui is the TUI
// itself): it resolves the servers and agents (the command line, a
// config file, the demo), opens every MCP session through internal/app's
// Wiring and runs the agents through internal/agents, adapts both to
// ui.Engine with the run's secrets masked in all it gives the UI
// (internal/shown), and runs the bubbletea program.
//
// Beside it: the frame governor (governor.go) stops bubbletea's renderer
// ticker while nothing changes; the task state file (taskstate.go)
// remembers the tasks left on servers, to resume them next time; the
// sign-in hooks (auth.go) ask the person in a pane; elicit acp without
// --prompt opens the TUI on one agent (RunACP). Env carries what the
// binary gives it (elicit's version, stdin, the inputs form).
package tui
