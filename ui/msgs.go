package ui

import (
	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

// promptOpenedMsg carries a new prompt from Bridge.Prompt (lane 1). reply
// has room for one Outcome, so answering never blocks Update.
type promptOpenedMsg struct {
	p     *question.Question
	reply chan<- question.Outcome
}

// promptClosedMsg says the prompt's context ended before or after an
// answer: the pane must stop taking input. The engine's PromptResolved
// event (lane 2) tells the final outcome.
type promptClosedMsg struct {
	key   question.Key
	cause error
}

// eventMsg carries a client.Event (lane 2).
type eventMsg struct{ e client.Event }

// streamsChangedMsg says the traffic, stderr or log rings grew (lane 3,
// coalesced); findings, that the engine's findings moved too.
type streamsChangedMsg struct{ findings bool }

// routedMsg is a message produced by a command of one form (a prompt pane
// or a tool's argument form), delivered back to that form only.
type routedMsg struct {
	id  int
	msg any
}

// Probe runs f on the model inside Update, on the event loop, so tests can
// read state without races (AGENTS.md, charm v2 facts: teatest). It is
// test-only, exported for teatest, which drives the real program.
type Probe func(*Model)
