package headless

import (
	"context"
	"errors"
	"flag"
	"io"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
)

// The headless commands that read a server without calling a tool:
// resources, templates, read URI, prompts, get NAME. Same server flags and JSON
// shape as tools; what they print passes untrusted.JSON like the rest.
// What the server did not declare is not asked for: a list of it is empty
// with "skipped" saying why (exit 0), a read or get of it exits 4 naming
// the capability.

// ResourcesUsage is elicit resources -h.
const ResourcesUsage = `Usage: elicit resources [flags] [-- CMD ARGS...]

Lists the server's resources (all pages) as JSON on stdout. A server
that did not declare resources is not asked: the list is empty and
"skipped" says why (exit 0).
`

// TemplatesUsage is elicit templates -h.
const TemplatesUsage = `Usage: elicit templates [flags] [-- CMD ARGS...]

Lists the server's resource templates (resources/templates/list, all
pages) as JSON on stdout. A server that did not declare resources is not
asked: the list is empty and "skipped" says why (exit 0).
`

// ReadUsage is elicit read -h.
const ReadUsage = `Usage: elicit read URI [flags] [-- CMD ARGS...]

Reads the resource URI and prints its contents as JSON on stdout.
`

// PromptsUsage is elicit prompts -h.
const PromptsUsage = `Usage: elicit prompts [flags] [-- CMD ARGS...]

Lists the server's MCP prompts (prompts/list, all pages) as JSON on stdout.
A server that did not declare prompts is not asked: the list is empty and
"skipped" says why (exit 0).
`

// GetUsage is elicit get -h.
const GetUsage = `Usage: elicit get NAME [--args JSON] [flags] [-- CMD ARGS...]

Gets the MCP prompt NAME (prompts/get) with --args, a JSON object of
string arguments, and prints the result as JSON on stdout.
`

// ReadOutput is what the read-only commands print: the session's facts and
// the one member the command is about.
type ReadOutput struct {
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
	LogLevel *LogLevelOutput `json:"logLevel,omitempty"`
}

// Skipped is why a list was not asked for, "" when it was: a server that
// did not declare the capability has nothing of the kind, which is an
// empty list, not a failure (the engine does not send the request).
func Skipped(err error) (string, error) {
	var u *client.UndeclaredError
	if errors.As(err, &u) {
		return "the server did not declare " + u.Capability, nil
	}
	return "", err
}

func (o *ReadOutput) SetRepaired(note string) { o.Repaired = note }

// readOnly runs one read-only command: parse its flags and positionals
// (exactly npos of them), connect (questions are cancelled: nobody is
// there to answer), run do, print.
func (e Env) readOnly(ctx context.Context, name, usage string, npos int, args []string, stdout, stderr io.Writer,
	own func(*flag.FlagSet), do func(context.Context, *client.Session, []string, *ReadOutput, *record.Recorder) error) error {
	r, err := e.parse(name, usage, args, stderr, withLogLevel, own)
	if err != nil {
		return err
	}
	if len(r.pos) != npos {
		return exit.Usagef("%s takes %d argument(s), got %d (see elicit %s -h)", name, npos, len(r.pos), name)
	}
	if err := r.connect(ctx); err != nil {
		return err
	}
	defer r.close()
	sess := r.sess
	out := &ReadOutput{Server: sess.Name(), Protocol: sess.Protocol(), Era: sess.Era(), Roots: orEmpty(sess.Roots().Roots), LogLevel: r.logLevelOut}
	if err := do(ctx, sess, r.pos, out, r.rec); err != nil {
		if exit.CodeOf(err) != exit.Internal {
			return err // already says how to exit (a bad --args)
		}
		return exit.Fail(exit.ToolError, "%w", err) // the engine's error names the method and server
	}
	out.Findings = FindingsOf(r.findings)
	return WriteJSON(stdout, out)
}

// Resources is elicit resources.
func (e Env) Resources(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return e.readOnly(ctx, "resources", ResourcesUsage, 0, args, stdout, stderr, nil,
		func(ctx context.Context, s *client.Session, _ []string, out *ReadOutput, rec *record.Recorder) (err error) {
			rc := rec.Begin(s.Name(), wire.MethodResourcesList, "", nil, nil)
			out.Resources, err = s.ListResources(ctx)
			rc.End(out.Resources, err)
			out.Resources = orEmpty(out.Resources)
			out.Skipped, err = Skipped(err)
			return err
		})
}

// Templates is elicit templates.
func (e Env) Templates(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return e.readOnly(ctx, "templates", TemplatesUsage, 0, args, stdout, stderr, nil,
		func(ctx context.Context, s *client.Session, _ []string, out *ReadOutput, rec *record.Recorder) (err error) {
			rc := rec.Begin(s.Name(), wire.MethodResourcesTemplatesList, "", nil, nil)
			out.Templates, err = s.ListResourceTemplates(ctx)
			rc.End(out.Templates, err)
			out.Templates = orEmpty(out.Templates)
			out.Skipped, err = Skipped(err)
			return err
		})
}

// Read is elicit read.
func (e Env) Read(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return e.readOnly(ctx, "read", ReadUsage, 1, args, stdout, stderr, nil,
		func(ctx context.Context, s *client.Session, pos []string, out *ReadOutput, rec *record.Recorder) (err error) {
			out.URI = pos[0]
			rc := rec.Begin(s.Name(), wire.MethodResourcesRead, pos[0], recording.URIParams{URI: pos[0]}, nil)
			out.Contents, err = s.ReadResource(ctx, pos[0])
			rc.End(out.Contents, err)
			return err
		})
}

// Prompts is elicit prompts.
func (e Env) Prompts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return e.readOnly(ctx, "prompts", PromptsUsage, 0, args, stdout, stderr, nil,
		func(ctx context.Context, s *client.Session, _ []string, out *ReadOutput, rec *record.Recorder) (err error) {
			rc := rec.Begin(s.Name(), wire.MethodPromptsList, "", nil, nil)
			out.Prompts, err = s.ListPrompts(ctx)
			rc.End(out.Prompts, err)
			out.Prompts = orEmpty(out.Prompts)
			out.Skipped, err = Skipped(err)
			return err
		})
}

// Get is elicit get.
func (e Env) Get(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var argsJSON string
	return e.readOnly(ctx, "get", GetUsage, 1, args, stdout, stderr,
		func(fs *flag.FlagSet) {
			fs.StringVar(&argsJSON, "args", "{}", "prompt arguments as a JSON object of strings")
		},
		func(ctx context.Context, s *client.Session, pos []string, out *ReadOutput, rec *record.Recorder) (err error) {
			pargs, err := argsStrings(argsJSON)
			if err != nil {
				return err
			}
			out.Prompt = pos[0]
			rc := rec.Begin(s.Name(), wire.MethodPromptsGet, pos[0], recording.PromptGetParams{Name: pos[0], Arguments: pargs}, nil)
			out.Result, err = s.GetPrompt(ctx, pos[0], pargs)
			rc.End(out.Result, err)
			return err
		})
}
