package hub

import (
	"context"
	"encoding/json"

	"github.com/elicit-dev/elicit/client"
)

// elicit app TOOL --session NAME serves the app's page in its own
// process; what the page asks of the server goes to the kept session
// through MethodApp, one MCP request per hub request, answered as the
// server sent it. Only the three requests an app host makes are
// carried, and only on a session started with --apps (it declared the
// MCP Apps extension); which tools the app may call is the host's check
// (apphost), made against the tools/list this method answers.

// The requests MethodApp carries.
const (
	AppToolsList     = "tools/list"
	AppToolsCall     = "tools/call"
	AppResourcesRead = "resources/read"
)

// AppParams are one request of an app host on a session: Method is one
// of AppToolsList, AppToolsCall (Name, Arguments), AppResourcesRead (URI).
type AppParams struct {
	Session   string         `json:"session"`
	Method    string         `json:"method"`
	Name      string         `json:"name,omitempty"`
	Arguments map[string]any `json:"arguments,omitempty"`
	URI       string         `json:"uri,omitempty"`
}

// app answers an app host's request on its session: the tools listed,
// the call's result or the contents read, as the server sent them. A
// tool call is one of the session's calls (elicit session list counts
// it; its questions are known as its own).
func (h *hub) app(ctx context.Context, p AppParams) (any, error) {
	s, err := h.session(p.Session)
	if err != nil {
		return nil, err
	}
	if !s.opened.Apps {
		return nil, hubError(ExitUsage, ErrorData{}, "session %s did not declare MCP Apps: start it with --apps (elicit session start %s --apps …)", s.Name, s.Name)
	}
	if err := s.Err(); err != nil {
		return nil, hubError(ExitConnect, ErrorData{}, "%s", err.Error())
	}
	c := s.Client()
	switch p.Method {
	case AppToolsList:
		return c.ListTools(ctx)
	case AppResourcesRead:
		return c.ReadResource(ctx, p.URI)
	case AppToolsCall:
		call := s.newCall()
		defer func() { call.finish(RunResult{}); s.forget(call) }()
		args := p.Arguments
		if args == nil { // {} came as none (omitempty): a server wants an object
			args = map[string]any{}
		}
		res, err := c.CallTool(ctx, p.Name, args, &client.CallOptions{OnID: call.OnID})
		if err != nil {
			return nil, err
		}
		return json.RawMessage(res.Raw), nil
	}
	return nil, hubError(ExitUsage, ErrorData{}, "an app host asks no %q (want %s, %s or %s)", p.Method, AppToolsList, AppToolsCall, AppResourcesRead)
}
