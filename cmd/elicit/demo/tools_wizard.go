package demo

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The wizard's questions and their inputRequests keys. Round 2 asks one of
// two questions, chosen by the answer to round 1.
const (
	wizardEnvironmentKey = "environment"
	wizardSlotKey        = "slot"
	wizardServiceKey     = "service"

	wizardEnvironmentQuestion = "What kind of environment?"
	wizardSlotQuestion        = "Which staging slot?"
	wizardServiceQuestion     = "Type the service name to confirm"
)

// wizardState is what round 2 needs from round 1. It travels in the signed
// requestState, so the server keeps nothing between rounds and the client
// cannot change the first answer afterwards.
type wizardState struct {
	Environment string `json:"environment,omitempty"`
}

func addWizard(srv *mcp.Server, cfg config) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "wizard",
		Title: "A two-step wizard",
		Description: "Asks for an environment (staging or production), then a second question that " +
			"depends on the answer: a staging slot, or the service name to confirm production. In " +
			"2026-07-28 the first answer travels between the rounds in requestState.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, multiRound(cfg.codec, "wizard", wizard))
}

func wizardEnvironmentSchema() map[string]any {
	return objectSchema(map[string]any{
		"environment": map[string]any{
			"type":  "string",
			"title": "Environment",
			"enum":  []string{"staging", "production"},
		},
	}, "environment")
}

func wizardSlotSchema() map[string]any {
	return objectSchema(map[string]any{
		"slot": map[string]any{
			"type":  "string",
			"title": "Staging slot",
			"enum":  []string{"slot-a", "slot-b"},
		},
	}, "slot")
}

func wizardServiceSchema() map[string]any {
	return objectSchema(map[string]any{
		"service": map[string]any{
			"type":        "string",
			"title":       "Service name",
			"description": "Typing it confirms the production environment.",
			"minLength":   1,
		},
	}, "service")
}

// wizardSecond is round 2's question, which depends on round 1's answer.
func wizardSecond(environment string) (key, question string, schema map[string]any) {
	if environment == "production" {
		return wizardServiceKey, wizardServiceQuestion, wizardServiceSchema()
	}
	return wizardSlotKey, wizardSlotQuestion, wizardSlotSchema()
}

// wizardAbandoned is the result when the user declines or cancels at a step.
func wizardAbandoned(action, step string) (*mcp.CallToolResult, error) {
	switch action {
	case actionDecline:
		return text("Wizard declined at the %s step: nothing was set up.", step), nil
	case actionCancel:
		return text("Wizard cancelled at the %s step: the question was dismissed without an answer; ask again later.", step), nil
	default:
		return nil, unknownAction(action)
	}
}

func wizard(_ context.Context, _ *mcp.CallToolRequest, _ any, r *round) (*mcp.CallToolResult, error) {
	var st wizardState
	if err := r.carry(&st); err != nil {
		return nil, err
	}
	askEnvironment := func() (*mcp.CallToolResult, error) {
		return r.ask(wizardState{}, map[string]*mcp.ElicitParams{
			wizardEnvironmentKey: form(wizardEnvironmentQuestion, wizardEnvironmentSchema()),
		})
	}
	if r.first() {
		return askEnvironment()
	}

	key, question, schema := wizardSecond(st.Environment)
	if st.Environment == "" { // round 1 was asked; its answer is due now
		res, err := r.answer(wizardEnvironmentKey, wizardEnvironmentSchema())
		switch {
		case err != nil:
			return nil, err
		case res == nil:
			return askEnvironment() // retried without an answer: ask again
		case res.Action != actionAccept:
			return wizardAbandoned(res.Action, "environment")
		}
		if st.Environment = stringField(res.Content, "environment"); st.Environment == "" {
			return nil, errors.New("the user accepted the environment question without choosing an environment")
		}
		key, question, schema = wizardSecond(st.Environment)
		return r.ask(st, map[string]*mcp.ElicitParams{key: form(question, schema)})
	}

	res, err := r.answer(key, schema)
	switch {
	case err != nil:
		return nil, err
	case res == nil:
		return r.ask(st, map[string]*mcp.ElicitParams{key: form(question, schema)})
	case res.Action != actionAccept:
		return wizardAbandoned(res.Action, key)
	}
	answer := stringField(res.Content, key)
	if st.Environment == "production" {
		return text("Wizard done: environment production, service '%s' confirmed.", answer), nil
	}
	return text("Wizard done: environment staging, slot %s.", answer), nil
}
