package headless

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/apphost"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport"
)

// AppUsage is elicit app -h.
const AppUsage = `Usage: elicit app TOOL [--args JSON] [--no-open] [flags] [-- CMD ARGS...]
       elicit app TOOL [--args JSON] [--no-open] --session NAME

Hosts TOOL's MCP App (its _meta.ui.resourceUri): elicit serves a page on
127.0.0.1 (a random port, a one-time token in its path; nothing is
reachable without it) that renders the app in a sandboxed iframe under the
CSP its resource declares, calls TOOL with --args, and carries the app's
requests over this session: tools/call (tools visible to the app only),
resources/read, notifications, size changes. A link the app asks to open
is shown on the page and on stderr, never opened by elicit. The session
declares the MCP Apps extension (io.modelcontextprotocol/ui).
$BROWSER opens the page (as the OAuth sign-in does); --no-open, or no
$BROWSER, prints its URL on stdout instead. Serves until interrupted
(SIGINT or SIGTERM end it cleanly, exit 0). Messages between the app and
elicit go to the recording (--record) as the server's "NAME (app)".
--session NAME hosts the app on a kept session instead, which must have
been started with --apps (elicit session start NAME --apps …): the page
is served here, and the tool call and the app's requests go to that
session (the messages between the app and elicit are then not recorded).
`

// App is elicit app.
func (e Env) App(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var argsJSON string
	var noOpen bool
	r, err := e.parse("app", AppUsage, args, stderr, withLogLevel, func(fs *flag.FlagSet) {
		fs.StringVar(&argsJSON, "args", "{}", "the tool's arguments as a JSON object")
		fs.BoolVar(&noOpen, "no-open", false, "print the page's URL instead of running $BROWSER")
	})
	if err != nil {
		return err
	}
	if len(r.pos) != 1 {
		return exit.Usagef("app needs exactly one TOOL name (see elicit app -h)")
	}
	toolArgs, err := argsObject(argsJSON)
	if err != nil {
		return err
	}
	var as appSession
	if r.session != "" {
		as, err = r.hubApp(ctx) // app_session.go
	} else {
		as, err = r.ownApp(ctx)
	}
	if err != nil {
		return err
	}
	defer as.close()
	tools, err := as.tools(ctx)
	if err != nil {
		return exit.Fail(exit.ToolError, "tools/list on %s: %w", as.name, err)
	}
	var tool *wire.Tool
	for i := range tools {
		if tools[i].Name == r.pos[0] {
			tool = &tools[i]
		}
	}
	if tool == nil {
		return exit.Fail(exit.ToolError, "%s lists no tool %q", as.name, r.pos[0])
	}
	host, err := apphost.New(ctx, apphost.Config{
		Tool: *tool, Tools: tools, Args: toolArgs, Version: e.Version,
		Call: as.call, Read: as.read, OnFrame: as.frame,
		OnNotice: func(s string) { fmt.Fprintf(stderr, "elicit: %s\n", untrusted.Line(s)) },
	})
	if err != nil {
		return exit.Fail(exit.ToolError, "%s: %w", untrusted.Line(tool.Name), err)
	}
	opened := false
	if !noOpen {
		if opened, err = serverspec.OpenInBrowser(host.URL()); err != nil {
			fmt.Fprintf(stderr, "elicit: $BROWSER: %v\n", err)
		}
	}
	if opened {
		fmt.Fprintf(stderr, "elicit: $BROWSER opened %s\n", host.URL())
	} else {
		fmt.Fprintln(stdout, host.URL())
	}
	fmt.Fprintf(stderr, "elicit: hosting %s's app %s; interrupt (ctrl+c) to end\n", untrusted.Line(tool.Name), untrusted.Line(mustApp(*tool)))
	if err := host.Serve(ctx); err != nil {
		return exit.Fail(exit.Internal, "%w", err)
	}
	return nil
}

// appSession is what an app host needs of a session: its own (ownApp)
// or a kept one's in the hub (hubApp).
type appSession struct {
	name  string // for messages
	tools func(context.Context) ([]wire.Tool, error)
	call  func(ctx context.Context, name string, args map[string]any) (json.RawMessage, error)
	read  func(ctx context.Context, uri string) ([]wire.ResourceContents, error)
	frame func(in bool, raw []byte) // the recording's; nil: none here
	close func()
}

// ownApp connects this command's own session, declaring MCP Apps; the
// messages between the app and elicit go to its recording as the
// server's "NAME (app)".
func (r *run) ownApp(ctx context.Context) (appSession, error) {
	r.appsUI = true
	if err := r.connect(ctx); err != nil {
		return appSession{}, err
	}
	sess, rec := r.sess, r.rec
	appServer := sess.Name() + " (app)"
	return appSession{
		name:  sess.Name(),
		tools: sess.ListTools,
		call: func(ctx context.Context, name string, args map[string]any) (json.RawMessage, error) {
			res, err := sess.CallTool(ctx, name, args, nil)
			if err != nil {
				return nil, err
			}
			return res.Raw, nil
		},
		read: sess.ReadResource,
		frame: func(in bool, raw []byte) {
			dir := transport.Out
			if in {
				dir = transport.In
			}
			rec.Frame(appServer, client.Frame{Time: time.Now(), Dir: dir, Raw: raw})
		},
		close: r.close,
	}, nil
}

func mustApp(t wire.Tool) string {
	app, _ := t.App()
	return app.ResourceURI
}
