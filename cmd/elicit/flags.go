package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/elicit-dev/elicit/transport"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/oauth"
)

// common holds the flags every command that talks to a server accepts.
type common struct {
	url           string
	headers       headerList
	demo          bool
	name          string
	protocol      string
	elicit        string
	sample        string        // --sample: off, decline, echo or FILE.json
	urlWait       time.Duration // --url-wait: a -32042's wait for completion
	promptTimeout time.Duration
	// connectTimeout and requestTimeout always hold a bound: zero is
	// refused, not taken for "no limit" (client.Options would read it as
	// the default, which would surprise whoever typed 0).
	connectTimeout time.Duration
	requestTimeout time.Duration
	command        []string // after "--"
	// roots are --root, relative to the working directory (roots.go).
	roots rootFlags
	// config and server pick one server of a servers file (headless
	// commands; the TUI takes every server of its --config).
	config, server string
	// OAuth for --url (a config's server has its "oauth" object).
	clientID, clientSecret string
	scopes                 headerList
	authTimeout            time.Duration
	// observer, if set, hears the session's events (headless call).
	observer client.Observer
	// record is --record FILE; rec the recording once the session is
	// set up (record.go), recordAs the command it names and answer the
	// --answer policy it notes.
	record   string
	rec      *record.Recorder
	recordAs string
	answer   string
	// findings records the server's spec violations (connectHeadless
	// makes it); the headless results carry them.
	findings *findings.Recorder
	// logLevel is --log-level (headless: loglevel.go); logLevelOut what
	// became of it once connected, for the JSON.
	logLevel    string
	logLevelOut *logLevelOutput
	// session is --session NAME: the command runs in the session hub on
	// that session (session_forward.go); dieWithParent is set for the
	// hub's own servers, which must not outlive it.
	session       string
	dieWithParent bool
	// onFrame, onStderr and findingsChanged, when set, also get the
	// session's frames, its server's stderr lines and word that its
	// findings moved: a hub's session keeps them for elicit attach's TUI
	// (attach_serve.go).
	onFrame         func(transport.Frame)
	onStderr        func(string)
	findingsChanged func()
}

// registerSession adds --session, for the commands that can run on a
// kept session.
func (c *common) registerSession(fs *flag.FlagSet) {
	fs.StringVar(&c.session, "session", "", "run on the session NAME (elicit session start): no server started, no handshake")
}

// registerConfig adds --config and --server, for the headless commands.
func (c *common) registerConfig(fs *flag.FlagSet) {
	fs.StringVar(&c.config, "config", "", `servers file ("mcpServers" or VS Code's "servers" shape); default: the first of the usual places, when --server is given`)
	fs.StringVar(&c.server, "server", "", "which server of the --config file to use (needed when it lists several)")
}

type headerList []string

func (h *headerList) String() string     { return strings.Join(*h, ", ") }
func (h *headerList) Set(v string) error { *h = append(*h, v); return nil }

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.url, "url", "", "Streamable HTTP endpoint of the server, e.g. http://localhost:3001/mcp")
	fs.Var(&c.headers, "header", "extra HTTP header 'Name: value' (repeatable), e.g. an Authorization header")
	fs.BoolVar(&c.demo, "demo", false, "use the embedded demo server (the default when no server is given)")
	fs.StringVar(&c.name, "name", "", "name to show for the server (default: derived from the command or URL)")
	fs.StringVar(&c.protocol, "protocol", "", "pin the MCP protocol version (2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05); default: detect (server/discover, then initialize)")
	fs.StringVar(&c.elicit, "elicit", "both", "elicitation modes to declare: off, form, url or both")
	fs.Var(&c.roots, "root", "offer PATH (or a file:// URI) to the server as a root (repeatable; relative paths are from here)")
	fs.StringVar(&c.sample, "sample", "decline", "sampling: off (not declared), decline, echo (reply with the last user message) or FILE.json ({\"text\",\"model\",\"stopReason\"}; per tool {\"tools\": {NAME: …}}; in order {\"replies\": […]}); the TUI asks the person unless off")
	fs.DurationVar(&c.urlWait, "url-wait", 10*time.Second, "after every URL elicitation of a -32042 answer was accepted, wait this long for notifications/elicitation/complete, then send the request again once either way (the TUI waits for the person's r unless this is given)")
	fs.DurationVar(&c.promptTimeout, "prompt-timeout", 0, "end an unanswered prompt after this long (default: never)")
	fs.DurationVar(&c.connectTimeout, "connect-timeout", client.DefaultConnectTimeout, "give up connecting when the server has not finished the handshake within this long")
	fs.DurationVar(&c.requestTimeout, "request-timeout", client.DefaultRequestTimeout,
		"fail a request the server has not answered within this long; progress extends it (up to 10 times), and a call waiting on an open prompt never times out")
	c.registerAuth(fs)
	fs.StringVar(&c.record, "record", "", recordFlagUsage)
}

// registerAuth adds the OAuth flags for --url.
func (c *common) registerAuth(fs *flag.FlagSet) {
	fs.StringVar(&c.clientID, "client-id", "", "OAuth: a pre-registered client ID for --url (else elicit registers itself where the server allows)")
	fs.StringVar(&c.clientSecret, "client-secret", "", "OAuth: the pre-registered client's secret, if it has one")
	fs.Var(&c.scopes, "scope", "OAuth: a scope to ask for when the server names none (repeatable, or space-separated)")
	fs.DurationVar(&c.authTimeout, "auth-timeout", oauth.DefaultTimeout, "OAuth: how long to wait for the sign-in in the browser")
}

// oauthFlags applies --client-id, --client-secret and --scope to a --url
// spec; they make no sense for anything else.
func (c *common) oauthFlags(s *serverSpec) error {
	if c.clientID == "" && c.clientSecret == "" && len(c.scopes) == 0 {
		return nil
	}
	if c.url == "" {
		return usageErr(`--client-id, --client-secret and --scope apply to --url (a config's server has "oauth": {…})`)
	}
	if c.clientSecret != "" && c.clientID == "" {
		return usageErr("--client-secret needs --client-id")
	}
	s.OAuth.ClientID, s.OAuth.ClientSecret = c.clientID, c.clientSecret
	for _, sc := range c.scopes {
		s.OAuth.Scopes = append(s.OAuth.Scopes, strings.Fields(sc)...)
	}
	return nil
}

// checkTimeouts refuses timeouts that are no bound.
func (c *common) checkTimeouts() error {
	if c.connectTimeout <= 0 {
		return usageErr("--connect-timeout must be positive, got %v (a bound always exists; the default is %v)", c.connectTimeout, client.DefaultConnectTimeout)
	}
	if c.requestTimeout <= 0 {
		return usageErr("--request-timeout must be positive, got %v (a bound always exists; the default is %v)", c.requestTimeout, client.DefaultRequestTimeout)
	}
	return nil
}

var knownProtocols = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// spec validates the flags and returns the server spec and session options.
func (c *common) spec(defaultDemo bool) (serverSpec, error) {
	var s serverSpec
	n := 0
	if c.url != "" {
		n++
	}
	if len(c.command) > 0 {
		n++
	}
	if c.demo {
		n++
	}
	if c.config != "" || c.server != "" {
		n++
	}
	if n > 1 {
		return s, usageErr("give one server: -- CMD ARGS..., --url URL, --demo or --config FILE --server NAME")
	}
	if c.logLevel != "" && !contains(wire.LogLevels(), c.logLevel) {
		return s, usageErr("bad --log-level %q: want one of %s (RFC 5424, lowest first)", c.logLevel, strings.Join(wire.LogLevels(), ", "))
	}
	if c.protocol != "" && !contains(knownProtocols, c.protocol) {
		return s, usageErr("unknown --protocol %q (known: %s)", c.protocol, strings.Join(knownProtocols, ", "))
	}
	if _, err := parseElicit(c.elicit); err != nil {
		return s, err
	}
	if _, _, err := parseSample(c.sample); err != nil {
		return s, err
	}
	if c.urlWait <= 0 {
		return s, usageErr("--url-wait must be positive, got %v (a bound always exists)", c.urlWait)
	}
	if c.promptTimeout < 0 {
		return s, usageErr("--prompt-timeout must not be negative")
	}
	if err := c.checkTimeouts(); err != nil {
		return s, err
	}
	if c.authTimeout < 0 {
		return s, usageErr("--auth-timeout must not be negative")
	}
	s.Header = http.Header{}
	for _, h := range c.headers {
		if err := parseHeader(s.Header, h); err != nil {
			return s, err
		}
	}
	if len(s.Header) > 0 && c.url == "" {
		return s, usageErr("--header only applies with --url")
	}
	flagRoots, err := c.roots.roots()
	if err != nil {
		return s, err
	}
	if c.config != "" || c.server != "" {
		if c.clientID != "" || c.clientSecret != "" || len(c.scopes) > 0 {
			return s, usageErr(`--client-id, --client-secret and --scope apply to --url; a config's server takes "oauth": {…}`)
		}
		s, err := c.configSpec()
		s.Roots = withRoots(flagRoots, s.Roots)
		return s, err
	}
	s.Roots = withRoots(flagRoots, nil) // repeats dropped
	switch {
	case c.url != "":
		s.URL = c.url
		s.Name = hostName(c.url)
	case len(c.command) > 0:
		s.Command, s.Args = c.command[0], c.command[1:]
		s.Name = baseName(c.command)
	case c.demo || defaultDemo:
		s.Demo = true
		s.Name = "demo"
	default:
		return s, usageErr("no server given: use -- CMD ARGS..., --url URL or --demo")
	}
	if c.name != "" {
		s.Name = c.name
	}
	if err := c.oauthFlags(&s); err != nil {
		return s, err
	}
	return s, nil
}

// configSpec is the server --config and --server name.
func (c *common) configSpec() (serverSpec, error) {
	path := c.config
	if path == "" {
		p, err := findConfig(os.Getenv)
		if err != nil {
			return serverSpec{}, usageErr("--server %s: %v", c.server, err)
		}
		path = p
	}
	cfg, err := loadConfig(path)
	if err != nil {
		return serverSpec{}, usageErr("%v", err)
	}
	if len(cfg.Servers) == 0 {
		return serverSpec{}, usageErr("config %s lists only ACP agents, no MCP server (an agent runs headless with elicit acp --prompt TEXT -- COMMAND)", path)
	}
	var names []string
	for _, s := range cfg.Servers {
		if s.Name == c.server || c.server == "" && len(cfg.Servers) == 1 {
			if c.config == "" && projectConfig(path) {
				// Found here, never named: a headless command does not ask.
				return serverSpec{}, configGate(path, nil, nil).allow(context.Background(), configLaunches(cfg, []serverSpec{s}, nil))
			}
			return s, s.broken // a variable it names is not set
		}
		names = append(names, s.Name)
	}
	if c.server == "" {
		return serverSpec{}, usageErr("config %s lists %d servers (%s): say which with --server NAME", path, len(names), strings.Join(names, ", "))
	}
	return serverSpec{}, usageErr("config %s has no server %q (it has %s)", path, c.server, strings.Join(names, ", "))
}

func parseElicit(v string) (client.ElicitModes, error) {
	switch v {
	case "off":
		return client.ElicitOff, nil
	case "form":
		return client.ElicitForm, nil
	case "url":
		return client.ElicitURL, nil
	case "both", "":
		return client.ElicitBoth, nil
	}
	return 0, usageErr("bad --elicit %q: want off, form, url or both", v)
}

// parseSample reads --sample: whether sampling is declared, and the
// headless policy that answers it.
func parseSample(v string) (client.SamplingMode, question.Prompter, error) {
	switch v {
	case "off":
		return client.SamplingOff, nil, nil
	case "decline", "":
		return client.SamplingOn, question.SampleDecline, nil
	case "echo":
		return client.SamplingOn, question.SampleEcho, nil
	}
	f, err := question.SamplingFile(v)
	if err != nil {
		return 0, nil, usageErr("--sample %s: %v (want off, decline, echo or FILE.json)", v, err)
	}
	return client.SamplingOn, f, nil
}

// splitDashDash separates "CMD ARGS..." after the first "--".
func splitDashDash(args []string) (before, after []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// parseInterleaved parses flags that may come before or after positional
// arguments ("call deploy --args {}" and "call --args {} deploy").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			return nil, errHelp // the usage is printed; asking for it is no error
		} else if err != nil {
			return nil, usageErr("%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func newFlagSet(name string, stderr io.Writer, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
