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
	if r.session != "" {
		// A kept session was opened without the extension declared.
		return exit.Usagef("app runs on its own session, not --session (a kept session did not declare MCP Apps)")
	}
	toolArgs, err := argsObject(argsJSON)
	if err != nil {
		return err
	}
	r.appsUI = true
	if err := r.connect(ctx); err != nil {
		return err
	}
	defer r.close()
	sess := r.sess
	tools, err := sess.ListTools(ctx)
	if err != nil {
		return exit.Fail(exit.ToolError, "tools/list on %s: %w", sess.Name(), err)
	}
	var tool *wire.Tool
	for i := range tools {
		if tools[i].Name == r.pos[0] {
			tool = &tools[i]
		}
	}
	if tool == nil {
		return exit.Fail(exit.ToolError, "%s lists no tool %q", sess.Name(), r.pos[0])
	}
	appServer := sess.Name() + " (app)"
	host, err := apphost.New(ctx, apphost.Config{
		Tool: *tool, Tools: tools, Args: toolArgs, Version: e.Version,
		Call: func(ctx context.Context, name string, args map[string]any) (json.RawMessage, error) {
			res, err := sess.CallTool(ctx, name, args, nil)
			if err != nil {
				return nil, err
			}
			return res.Raw, nil
		},
		Read: sess.ReadResource,
		OnFrame: func(in bool, raw []byte) {
			dir := transport.Out
			if in {
				dir = transport.In
			}
			r.rec.Frame(appServer, client.Frame{Time: time.Now(), Dir: dir, Raw: raw})
		},
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

func mustApp(t wire.Tool) string {
	app, _ := t.App()
	return app.ResourceURI
}
