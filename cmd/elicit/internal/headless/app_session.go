package headless

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
)

// elicit app TOOL --session NAME: the page is served here, as for a
// session of its own, and what it asks of the server goes to the kept
// session in the hub (hub.MethodApp), which must have been started with
// --apps (it declared MCP Apps). The messages between the app and elicit
// are not in the session's recording: that is the hub's.

// hubApp is the kept session r.session as an app host uses it. The hub
// is asked once here (tools/list), so a session unknown or started
// without --apps is refused before anything is served.
func (r *run) hubApp(ctx context.Context) (appSession, error) {
	name := r.session
	if err := r.noServer(name); err != nil {
		return appSession{}, err
	}
	if r.logLevel != "" {
		return appSession{}, exit.Usagef("--log-level on a session: give it to elicit session start")
	}
	p, err := hub.Locate()
	if err != nil {
		return appSession{}, exit.Fail(exit.Connect, "%w", err)
	}
	ask := func(ctx context.Context, params hub.AppParams, result any) error {
		params.Session = name
		return hub.Request(ctx, p, hub.MethodApp, params, result)
	}
	var tools []wire.Tool
	if err := ask(ctx, hub.AppParams{Method: hub.AppToolsList}, &tools); err != nil {
		return appSession{}, hubAppFailure(name, err)
	}
	return appSession{
		name:  "session " + name,
		tools: func(context.Context) ([]wire.Tool, error) { return tools, nil },
		call: func(ctx context.Context, tool string, args map[string]any) (json.RawMessage, error) {
			var res json.RawMessage
			if err := ask(ctx, hub.AppParams{Method: hub.AppToolsCall, Name: tool, Arguments: args}, &res); err != nil {
				return nil, errors.New(hub.Message(err))
			}
			return res, nil
		},
		read: func(ctx context.Context, uri string) ([]wire.ResourceContents, error) {
			var contents []wire.ResourceContents
			if err := ask(ctx, hub.AppParams{Method: hub.AppResourcesRead, URI: uri}, &contents); err != nil {
				return nil, errors.New(hub.Message(err))
			}
			return contents, nil
		},
		close: func() {},
	}, nil
}

// hubAppFailure is the error of an app host the hub refused or could not
// serve: its exit code and message.
func hubAppFailure(session string, err error) error {
	code := hub.ExitOf(err)
	switch {
	case errors.Is(err, hub.ErrNoHub):
		return exit.Fail(code, "no session %s: no session hub runs (elicit session start %s --apps … starts one)", session, session)
	case errors.Is(err, hub.ErrDisconnected):
		return exit.Fail(code, "session %s: disconnected: %s", session, hub.Message(err))
	}
	return exit.Fail(code, "%s", hub.Message(err))
}
