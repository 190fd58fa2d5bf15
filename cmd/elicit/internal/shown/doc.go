// Package shown is what the TUI is shown of servers and agents: the
// run's secrets (redact.Secrets) masked in every value, event, update,
// journal entry, task and question the engine gives the UI, while the
// engine, the records and the answers keep what the servers sent.
//
// A question is masked in what is shown only (Prompter, Question): the
// message, the URL, each field's title, description, option labels and
// default, a sampling request, an agent's permission request; what goes
// back (an option's value, a default left as shown) stays the server's.
// The TUI's MCP engine (cmd/elicit) and its agents (the agent hub) both
// mask through it.
package shown
