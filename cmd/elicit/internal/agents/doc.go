// Package agents is elicit's side of the ACP agents, above
// client/acp: the Hub starts each agent through app.AgentWiring (the
// run's secrets, the recording, the one journal), opens its session,
// restarts, prompts, stops and abandons its turns, and implements
// ui.AgentEngine: the agents' questions reach the person as prompt panes
// and their updates as transcripts, with the run's secrets masked
// (internal/shown). RecordOf and RecordsOf are what a recording's
// settings name of an agent; Demo is the embedded demo agent.
//
// Env.RunACP is elicit acp --prompt: one turn with an agent, headless,
// its questions answered by policy (--answer, --permission), printed as
// JSON (ACPOutput).
package agents
