package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/apphost"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
)

// appHosts is what the engine needs to host MCP Apps from the TUI (the
// tools view's key): where the app's frames and notices go, and the
// hosts to wait for when the TUI ends.
type appHosts struct {
	// frame shows a message between an app and elicit in the traffic
	// view and the recording, as the server's "NAME (app)".
	frame func(server string, f client.Frame)
	// note shows what an app asked of the person (a link) or logged.
	note func(server, line string)
}

// appServer is how an app's traffic is named: its server's, marked.
func appServer(server string) string { return server + " (app)" }

// HostApp implements ui.Engine: elicit app's host for tool of server,
// over its live session, served until the TUI ends.
func (e *engine) HostApp(ctx context.Context, server, tool string, args map[string]any) (string, bool, error) {
	s, err := e.session(server)
	if err != nil {
		return "", false, err
	}
	tools, err := s.ListTools(ctx)
	if err != nil {
		return "", false, e.shownErr(fmt.Errorf("tools/list: %w", err))
	}
	var tl *wire.Tool
	for i := range tools {
		if tools[i].Name == tool {
			tl = &tools[i]
		}
	}
	if tl == nil {
		return "", false, fmt.Errorf("%s no longer lists %s", server, tool)
	}
	if args == nil {
		args = map[string]any{}
	}
	name := appServer(server)
	h, err := apphost.New(ctx, apphost.Config{
		Tool: *tl, Tools: tools, Args: args, Version: e.version,
		Call: func(ctx context.Context, name string, args map[string]any) (json.RawMessage, error) {
			res, err := s.CallTool(ctx, name, args, nil)
			if err != nil {
				return nil, err
			}
			return res.Raw, nil
		},
		Read: s.ReadResource,
		OnFrame: func(in bool, raw []byte) {
			dir := client.Out
			if in {
				dir = client.In
			}
			f := client.Frame{Time: time.Now(), Dir: dir, Raw: raw}
			e.rec.Frame(name, f)
			if e.apps.frame != nil {
				e.apps.frame(server, f)
			}
		},
		OnNotice: func(line string) {
			if e.apps.note != nil {
				e.apps.note(server, line)
			}
		},
	})
	if err != nil {
		return "", false, e.shownErr(err)
	}
	e.bg.Go(func() { _ = h.Serve(e.ctx) })
	opened, err := serverspec.OpenInBrowser(h.URL())
	if err != nil {
		return h.URL(), false, fmt.Errorf("$BROWSER: %w", err)
	}
	return h.URL(), opened, nil
}
