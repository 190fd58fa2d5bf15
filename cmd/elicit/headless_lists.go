package main

import (
	"context"
	"errors"
	"flag"
	"io"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// The headless commands that read a server without calling a tool:
// resources, templates, read URI, prompts, get NAME. Same server flags and JSON
// shape as tools; what they print passes untrusted.JSON like the rest.
// What the server did not declare is not asked for: a list of it is empty
// with "skipped" saying why (exit 0), a read or get of it exits 4 naming
// the capability.

const resourcesUsage = `Usage: elicit resources [flags] [-- CMD ARGS...]

Lists the server's resources (all pages) as JSON on stdout. A server
that did not declare resources is not asked: the list is empty and
"skipped" says why (exit 0).
`

const templatesUsage = `Usage: elicit templates [flags] [-- CMD ARGS...]

Lists the server's resource templates (resources/templates/list, all
pages) as JSON on stdout. A server that did not declare resources is not
asked: the list is empty and "skipped" says why (exit 0).
`

const readUsage = `Usage: elicit read URI [flags] [-- CMD ARGS...]

Reads the resource URI and prints its contents as JSON on stdout.
`

const promptsUsage = `Usage: elicit prompts [flags] [-- CMD ARGS...]

Lists the server's MCP prompts (prompts/list, all pages) as JSON on stdout.
A server that did not declare prompts is not asked: the list is empty and
"skipped" says why (exit 0).
`

const getUsage = `Usage: elicit get NAME [--args JSON] [flags] [-- CMD ARGS...]

Gets the MCP prompt NAME (prompts/get) with --args, a JSON object of
string arguments, and prints the result as JSON on stdout.
`

// readOutput is what the read-only commands print: the session's facts and
// the one member the command is about.
type readOutput struct {
	Server   string `json:"server"`
	Protocol string `json:"protocol"`
	Era      string `json:"era"`
	// Roots are the roots served.
	Roots []client.Root `json:"roots"`
	// Exactly one of these is set. The lists are omitzero, not
	// omitempty: an empty list is printed as [], for a script to read.
	Resources []wire.Resource         `json:"resources,omitzero"`
	Templates []wire.ResourceTemplate `json:"resourceTemplates,omitzero"`
	URI       string                  `json:"uri,omitempty"`
	Contents  []wire.ResourceContents `json:"contents,omitempty"`
	Prompts   []wire.Prompt           `json:"prompts,omitzero"`
	Prompt    string                  `json:"prompt,omitempty"`
	Result    *wire.GetPromptResult   `json:"result,omitempty"`
	// Skipped says why a list was not asked for: the server did not
	// declare its capability (the list is then empty, and the exit 0).
	Skipped string `json:"skipped,omitempty"`
	// Findings are the server's spec violations seen meanwhile.
	Findings jsonList[findings.Finding] `json:"findings"`
	Repaired string                     `json:"repaired,omitempty"`
	// LogLevel is what became of --log-level (loglevel.go).
	LogLevel *logLevelOutput `json:"logLevel,omitempty"`
}

// skipped is why a list was not asked for, "" when it was: a server that
// did not declare the capability has nothing of the kind, which is an
// empty list, not a failure (the engine does not send the request).
func skipped(err error) (string, error) {
	var u *client.UndeclaredError
	if errors.As(err, &u) {
		return "the server did not declare " + u.Capability, nil
	}
	return "", err
}

func (o *readOutput) setRepaired(note string) { o.Repaired = note }

// runRead runs one read-only command: parse its flags and positionals
// (exactly npos of them), connect (questions are cancelled: nobody is
// there to answer), run do, print.
func runRead(ctx context.Context, name, usage string, npos int, args []string, stdout, stderr io.Writer,
	extra func(*flag.FlagSet), do func(context.Context, *client.Session, []string, *readOutput, *record.Recorder) error) error {
	var c common
	fs := newFlagSet(name, stderr, usage)
	c.register(fs)
	c.RegisterConfig(fs)
	c.registerLogLevel(fs)
	if extra != nil {
		extra(fs)
	}
	before, after := splitDashDash(args)
	c.Command = after
	pos, err := parseInterleaved(fs, before)
	if err != nil {
		return err
	}
	if len(pos) != npos {
		return exit.Usagef("%s takes %d argument(s), got %d (see elicit %s -h)", name, npos, len(pos), name)
	}
	c.recordAs = name
	sess, cleanup, err := connectHeadless(ctx, &c, question.CancelAll, stderr)
	if err != nil {
		return err
	}
	defer cleanup()
	out := &readOutput{Server: sess.Name(), Protocol: sess.Protocol(), Era: sess.Era(), Roots: orEmpty(sess.Roots().Roots), LogLevel: c.logLevelOut}
	if err := do(ctx, sess, pos, out, c.rec); err != nil {
		if exit.CodeOf(err) != exit.Internal {
			return err // already says how to exit (a bad --args)
		}
		return exit.Fail(exit.ToolError, "%w", err) // the engine's error names the method and server
	}
	out.Findings = findingsOf(c.findings)
	return writeJSON(stdout, out)
}

func runResources(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runRead(ctx, "resources", resourcesUsage, 0, args, stdout, stderr, nil,
		func(ctx context.Context, s *client.Session, _ []string, out *readOutput, rec *record.Recorder) (err error) {
			rc := rec.Begin(s.Name(), wire.MethodResourcesList, "", nil, nil)
			out.Resources, err = s.ListResources(ctx)
			rc.End(out.Resources, err)
			out.Resources = orEmpty(out.Resources)
			out.Skipped, err = skipped(err)
			return err
		})
}

func runTemplates(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runRead(ctx, "templates", templatesUsage, 0, args, stdout, stderr, nil,
		func(ctx context.Context, s *client.Session, _ []string, out *readOutput, rec *record.Recorder) (err error) {
			rc := rec.Begin(s.Name(), wire.MethodResourcesTemplatesList, "", nil, nil)
			out.Templates, err = s.ListResourceTemplates(ctx)
			rc.End(out.Templates, err)
			out.Templates = orEmpty(out.Templates)
			out.Skipped, err = skipped(err)
			return err
		})
}

func runReadResource(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runRead(ctx, "read", readUsage, 1, args, stdout, stderr, nil,
		func(ctx context.Context, s *client.Session, pos []string, out *readOutput, rec *record.Recorder) (err error) {
			out.URI = pos[0]
			rc := rec.Begin(s.Name(), wire.MethodResourcesRead, pos[0], uriParams{URI: pos[0]}, nil)
			out.Contents, err = s.ReadResource(ctx, pos[0])
			rc.End(out.Contents, err)
			return err
		})
}

func runPrompts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runRead(ctx, "prompts", promptsUsage, 0, args, stdout, stderr, nil,
		func(ctx context.Context, s *client.Session, _ []string, out *readOutput, rec *record.Recorder) (err error) {
			rc := rec.Begin(s.Name(), wire.MethodPromptsList, "", nil, nil)
			out.Prompts, err = s.ListPrompts(ctx)
			rc.End(out.Prompts, err)
			out.Prompts = orEmpty(out.Prompts)
			out.Skipped, err = skipped(err)
			return err
		})
}

func runGetPrompt(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var argsJSON string
	return runRead(ctx, "get", getUsage, 1, args, stdout, stderr,
		func(fs *flag.FlagSet) {
			fs.StringVar(&argsJSON, "args", "{}", "prompt arguments as a JSON object of strings")
		},
		func(ctx context.Context, s *client.Session, pos []string, out *readOutput, rec *record.Recorder) (err error) {
			pargs, err := argsStrings(argsJSON)
			if err != nil {
				return err
			}
			out.Prompt = pos[0]
			rc := rec.Begin(s.Name(), wire.MethodPromptsGet, pos[0], promptGetParams{Name: pos[0], Arguments: pargs}, nil)
			out.Result, err = s.GetPrompt(ctx, pos[0], pargs)
			rc.End(out.Result, err)
			return err
		})
}
