package serverspec

import (
	"context"
	"flag"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/transport/oauth"
)

// Flags are the command-line flags that name one server: -- CMD ARGS…
// (Command), --url with its headers and OAuth flags, --demo, --config
// with --server, and --name and --root for any of them. Spec turns them
// into a Server.
type Flags struct {
	URL     string
	Headers ListFlag
	Demo    bool
	Name    string
	Command []string // after "--"
	// Roots are --root, relative to the working directory (roots.go).
	Roots RootFlags
	// Config and Server pick one server of a servers file (headless
	// commands; the TUI takes every server of its --config).
	Config, Server string
	// OAuth for --url (a config's server has its "oauth" object).
	ClientID, ClientSecret string
	Scopes                 ListFlag
	AuthTimeout            time.Duration
}

// ListFlag is a repeatable string flag.
type ListFlag []string

func (h *ListFlag) String() string     { return strings.Join(*h, ", ") }
func (h *ListFlag) Set(v string) error { *h = append(*h, v); return nil }

// Register adds --url, --header, --demo, --name and --root, and the
// OAuth flags (RegisterAuth).
func (c *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&c.URL, "url", "", "Streamable HTTP endpoint of the server, e.g. http://localhost:3001/mcp")
	fs.Var(&c.Headers, "header", "extra HTTP header 'Name: value' (repeatable), e.g. an Authorization header")
	fs.BoolVar(&c.Demo, "demo", false, "use the embedded demo server (the default when no server is given)")
	fs.StringVar(&c.Name, "name", "", "name to show for the server (default: derived from the command or URL)")
	fs.Var(&c.Roots, "root", "offer PATH (or a file:// URI) to the server as a root (repeatable; relative paths are from here)")
	c.RegisterAuth(fs)
}

// RegisterConfig adds --config and --server, for the headless commands.
func (c *Flags) RegisterConfig(fs *flag.FlagSet) {
	fs.StringVar(&c.Config, "config", "", `servers file ("mcpServers" or VS Code's "servers" shape); default: the first of the usual places, when --server is given`)
	fs.StringVar(&c.Server, "server", "", "which server of the --config file to use (needed when it lists several)")
}

// RegisterAuth adds the OAuth flags for --url.
func (c *Flags) RegisterAuth(fs *flag.FlagSet) {
	fs.StringVar(&c.ClientID, "client-id", "", "OAuth: a pre-registered client ID for --url (else elicit registers itself where the server allows)")
	fs.StringVar(&c.ClientSecret, "client-secret", "", "OAuth: the pre-registered client's secret, if it has one")
	fs.Var(&c.Scopes, "scope", "OAuth: a scope to ask for when the server names none (repeatable, or space-separated)")
	fs.DurationVar(&c.AuthTimeout, "auth-timeout", oauth.DefaultTimeout, "OAuth: how long to wait for the sign-in in the browser")
}

// CheckOne refuses more than one way of naming the server.
func (c *Flags) CheckOne() error {
	n := 0
	if c.URL != "" {
		n++
	}
	if len(c.Command) > 0 {
		n++
	}
	if c.Demo {
		n++
	}
	if c.Config != "" || c.Server != "" {
		n++
	}
	if n > 1 {
		return exit.Usagef("give one server: -- CMD ARGS..., --url URL, --demo or --config FILE --server NAME")
	}
	return nil
}

// Spec validates the flags and returns the server they name; with none
// given, the demo when defaultDemo, else a usage error.
func (c *Flags) Spec(defaultDemo bool) (Server, error) {
	var s Server
	if err := c.CheckOne(); err != nil {
		return s, err
	}
	if c.AuthTimeout < 0 {
		return s, exit.Usagef("--auth-timeout must not be negative")
	}
	s.Header = http.Header{}
	for _, h := range c.Headers {
		if err := parseHeader(s.Header, h); err != nil {
			return s, err
		}
	}
	if len(s.Header) > 0 && c.URL == "" {
		return s, exit.Usagef("--header only applies with --url")
	}
	flagRoots, err := c.Roots.Roots()
	if err != nil {
		return s, err
	}
	if c.Config != "" || c.Server != "" {
		if c.ClientID != "" || c.ClientSecret != "" || len(c.Scopes) > 0 {
			return s, exit.Usagef(`--client-id, --client-secret and --scope apply to --url; a config's server takes "oauth": {…}`)
		}
		s, err := c.configSpec()
		s.Roots = WithRoots(flagRoots, s.Roots)
		return s, err
	}
	s.Roots = WithRoots(flagRoots, nil) // repeats dropped
	switch {
	case c.URL != "":
		s.URL = c.URL
		s.Name = hostName(c.URL)
	case len(c.Command) > 0:
		s.Command, s.Args = c.Command[0], c.Command[1:]
		s.Name = baseName(c.Command)
	case c.Demo || defaultDemo:
		s.Demo = true
		s.Name = "demo"
	default:
		return s, exit.Usagef("no server given: use -- CMD ARGS..., --url URL or --demo")
	}
	if c.Name != "" {
		s.Name = c.Name
	}
	if err := c.oauthFlags(&s); err != nil {
		return s, err
	}
	return s, nil
}

// oauthFlags applies --client-id, --client-secret and --scope to a --url
// spec; they make no sense for anything else.
func (c *Flags) oauthFlags(s *Server) error {
	if c.ClientID == "" && c.ClientSecret == "" && len(c.Scopes) == 0 {
		return nil
	}
	if c.URL == "" {
		return exit.Usagef(`--client-id, --client-secret and --scope apply to --url (a config's server has "oauth": {…})`)
	}
	if c.ClientSecret != "" && c.ClientID == "" {
		return exit.Usagef("--client-secret needs --client-id")
	}
	s.OAuth.ClientID, s.OAuth.ClientSecret = c.ClientID, c.ClientSecret
	for _, sc := range c.Scopes {
		s.OAuth.Scopes = append(s.OAuth.Scopes, strings.Fields(sc)...)
	}
	return nil
}

// configSpec is the server --config and --server name.
func (c *Flags) configSpec() (Server, error) {
	path := c.Config
	if path == "" {
		p, err := Find(os.Getenv)
		if err != nil {
			return Server{}, exit.Usagef("--server %s: %v", c.Server, err)
		}
		path = p
	}
	cfg, err := Load(path)
	if err != nil {
		return Server{}, exit.Usagef("%v", err)
	}
	if len(cfg.Servers) == 0 {
		return Server{}, exit.Usagef("config %s lists only ACP agents, no MCP server (an agent runs headless with elicit acp --prompt TEXT -- COMMAND)", path)
	}
	var names []string
	for _, s := range cfg.Servers {
		if s.Name == c.Server || c.Server == "" && len(cfg.Servers) == 1 {
			if c.Config == "" && IsProject(path) {
				// Found here, never named: a headless command does not ask.
				return Server{}, ProjectGate(path, nil, nil).Allow(context.Background(), Launches(cfg, []Server{s}, nil))
			}
			return s, s.Broken // a variable it names is not set
		}
		names = append(names, s.Name)
	}
	if c.Server == "" {
		return Server{}, exit.Usagef("config %s lists %d servers (%s): say which with --server NAME", path, len(names), strings.Join(names, ", "))
	}
	return Server{}, exit.Usagef("config %s has no server %q (it has %s)", path, c.Server, strings.Join(names, ", "))
}
