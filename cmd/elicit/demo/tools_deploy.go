package demo

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// deployQuestion is the message of the deploy tool's elicitation.
const deployQuestion = "Which branch should be deployed to production?"

// The deploy tool's answers other than a confirmed accept. Decline and cancel
// read differently on purpose: a person and a model must be able to tell
// "the user said no" from "the user walked away".
const (
	deployDeclined    = "Deployment declined by the user: nothing was deployed."
	deployCancelled   = "Deployment cancelled: the question was dismissed without an answer; ask again later."
	deployUnconfirmed = "Deployment of %s from %s not confirmed: nothing was deployed."
	deployDone        = "Deploying %s from %s."
)

// deployArgs are the deploy tool's arguments. The input schema is written
// out in deployInput because go-sdk's schema inference cannot express
// defaults.
type deployArgs struct {
	Service string `json:"service,omitempty"`
}

var deployInput = json.RawMessage(`{
  "type": "object",
  "properties": {
    "service": {"type": "string", "title": "Service", "description": "The service to deploy.", "default": "web"}
  }
}`)

// deployKey is the inputRequests key of the deploy question.
const deployKey = "deploy"

func addDeploy(srv *mcp.Server, cfg config) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "deploy",
		Title: "Deploy to production",
		Description: "Deploys a service to production after asking the user which branch to ship and " +
			"to confirm. Accept, decline and cancel each give a different result.",
		InputSchema: deployInput,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
	}, multiRound(cfg.codec, "deploy", deploy))
}

// deploySchema is the form the deploy tool asks the user to fill in.
func deploySchema() map[string]any {
	return objectSchema(map[string]any{
		"branch": map[string]any{
			"type":        "string",
			"title":       "Branch",
			"description": "The branch to deploy.",
			"enum":        []string{"main", "release", "hotfix"},
			"default":     "main",
		},
		"confirm": map[string]any{
			"type":        "boolean",
			"title":       "I confirm this production deployment",
			"description": "Nothing is deployed unless this is ticked.",
			"default":     false,
		},
	}, "branch")
}

// deploy asks one question (see multiRound for how it is asked in each era).
func deploy(_ context.Context, _ *mcp.CallToolRequest, in deployArgs, r *round) (*mcp.CallToolResult, error) {
	service := in.Service
	if service == "" {
		service = "web"
	}
	res, err := r.answer(deployKey, deploySchema())
	if err != nil {
		return nil, err
	}
	if res == nil {
		return r.ask(nil, map[string]*mcp.ElicitParams{deployKey: form(deployQuestion, deploySchema())})
	}
	switch res.Action {
	case actionAccept:
		branch := stringField(res.Content, "branch")
		if !boolField(res.Content, "confirm") {
			return text(deployUnconfirmed, service, branch), nil
		}
		return text(deployDone, service, branch), nil
	case actionDecline:
		return text(deployDeclined), nil
	case actionCancel:
		return text(deployCancelled), nil
	default:
		return nil, unknownAction(res.Action)
	}
}
