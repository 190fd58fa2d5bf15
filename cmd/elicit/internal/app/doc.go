// Package app is elicit's application layer below cmd/elicit: the one
// session factory every MCP path of the binary opens its sessions
// through (the TUI, the headless commands, check, replay, conformance),
// and its sibling every ACP agent starts through (elicit acp, the TUI's
// agents, a replay of either).
//
// What varies between them (the server's name and protocol, what the
// client declares, the prompter and observer, the recording, the
// findings recorder, a frame and stderr observer of their own) is a
// Wiring; the hooks every session gets from it (the recording of its
// frames, events and answers, the findings of its frames and of what the
// engine notices) are wired here once, so no path can lack one. How the
// transport is made (a configured server, auth, the run's secrets
// masking) stays with the caller, which gets the observer to give it.
//
// An agent's is an AgentWiring: an agent is always a command on stdio,
// so its transport is made here, and with it the run's secrets applied
// (the agent's own joined, what it sends masked before anything sees
// it); its frames, answers and sign-in question are recorded and
// journalled here, and each prompt turn is recorded as one call
// (PromptMethod, PromptParams, TurnRecord: the format a replay reads).
package app
