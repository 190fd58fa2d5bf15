package serverspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/jsontext"
)

// Config is a servers file in the shape Claude Desktop, Cursor and the MCP
// Inspector use ({"mcpServers": {...}}), or VS Code's ({"servers": {...}}),
// plus elicit's own optional "theme".
type Config struct {
	Theme   string
	Servers []Server
	// Agents are the entries of "type": "acp": ACP agents, beside the
	// MCP servers (the TUI's agent view).
	Agents []Agent
	Path   string
	// Inputs are the file's declared VS Code inputs ("inputs"), in its
	// order.
	Inputs []Input
	// Reads are, per server or agent, the environment variables its
	// values expand ($VAR in env, headers, oauth): what of the person's
	// it would send (config_trust.go).
	Reads map[string][]string
}

// Input is one entry of VS Code's "inputs": what to ask for a
// ${input:ID} ("promptString", or "pickString" with options).
type Input struct {
	Type        string   `json:"type"`
	ID          string   `json:"id"`
	Description string   `json:"description"`
	Default     string   `json:"default"`
	Password    bool     `json:"password"`
	Options     []string `json:"options"`
}

// InputLookup gives the value of ${input:ID}, or reports it has none.
type InputLookup func(id string) (string, bool)

// envInput reads ${input:ID} from ELICIT_INPUT_ID (inputEnv), as the
// headless commands do: nobody is there to ask.
func envInput(id string) (string, bool) { return os.LookupEnv(InputEnv(id)) }

type configServer struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Type    string            `json:"type"`
	Headers map[string]string `json:"headers"`
	// Disabled servers (Cursor, Claude Code) are skipped.
	Disabled bool `json:"disabled"`
	// Roots replace the top level's for this server (roots.go).
	Roots json.RawMessage `json:"roots"`
	// OAuth configures authorization to an HTTP server.
	OAuth *OAuth `json:"oauth"`
}

// Load reads and checks a config file, with ${input:ID} from the
// environment. Errors name the file and the server, so a person can find
// the line to fix.
func Load(path string) (*Config, error) { return LoadWith(path, envInput) }

// LoadWith is Load with ${input:ID} given by inputs.
func LoadWith(path string, inputs InputLookup) (*Config, error) {
	b, err := readConfigFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	// A byte order mark (a Windows editor's) is no part of the JSON
	// text: RFC 8259 §8.1 lets a parser ignore it.
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	var raw struct {
		Theme      string                     `json:"theme"`
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Servers    map[string]json.RawMessage `json:"servers"`
		Roots      json.RawMessage            `json:"roots"`
		Inputs     []Input                    `json:"inputs"`
	}
	// By exact names, as the other clients reading the file read them:
	// a lone "Args" or "MCPServers" is no member elicit acts on.
	if err := wire.DecodeExact(b, &raw); err != nil {
		return nil, fmt.Errorf("config %s: not valid JSON: %w", path, jsontext.Err(string(b), err))
	}
	if err := configDuplicate(b); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	entries := raw.MCPServers
	if entries == nil {
		entries = raw.Servers
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf(`config %s: no servers (want {"mcpServers": {"name": {"command": …} or {"url": …}}})`, path)
	}
	cfg := &Config{Theme: raw.Theme, Path: path, Inputs: raw.Inputs, Reads: map[string][]string{}}
	dir := filepath.Dir(path)
	topRoots, topWarnings, err := parseConfigRoots(raw.Roots, dir)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		var cs configServer
		if err := wire.DecodeExact(entries[name], &cs); err != nil {
			return nil, fmt.Errorf("config %s: server %q: %w", path, name, err)
		}
		if cs.Disabled {
			continue
		}
		cfg.Reads[name] = cs.reads()
		if cs.Type == "acp" {
			a, err := cs.agent(name, dir, inputs)
			var unset *unsetError
			if errors.As(err, &unset) {
				// As for a server: this agent is not started, the others are.
				a = Agent{Name: name, Command: cs.Command,
					Broken: fmt.Errorf("not started: %w (agent %q of config %s)", err, name, path)}
			} else if err != nil {
				return nil, fmt.Errorf("config %s: agent %q: %w", path, name, err)
			}
			cfg.Agents = append(cfg.Agents, a)
			continue
		}
		spec, err := cs.server(name, dir, inputs)
		var unset *unsetError
		if errors.As(err, &unset) {
			// This server is not started, naming the variable; the file's
			// other servers are (expandVars says why not "").
			cfg.Servers = append(cfg.Servers, Server{Name: name,
				Broken: exit.Fail(exit.Connect, "not started: %w (server %q of config %s)", err, name, path)})
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("config %s: server %q: %w", path, name, err)
		}
		var warnings []string
		spec.Roots, warnings = topRoots, topWarnings
		if cs.Roots != nil {
			if spec.Roots, warnings, err = parseConfigRoots(cs.Roots, dir); err != nil {
				return nil, fmt.Errorf("config %s: server %q: %w", path, name, err)
			}
		}
		for _, w := range warnings {
			spec.Warnings = append(spec.Warnings, fmt.Sprintf("config %s: server %q: %s", path, name, w))
		}
		cfg.Servers = append(cfg.Servers, spec)
	}
	if len(cfg.Servers) == 0 && len(cfg.Agents) == 0 {
		return nil, fmt.Errorf("config %s: every server is disabled", path)
	}
	return cfg, nil
}

// agent reads an entry of "type": "acp": an ACP agent on stdio,
// started as a stdio server is (command, args, env, cwd). What only an
// MCP server or an HTTP one has is refused by name, so a mistyped entry
// is not silently half-read.
func (cs configServer) agent(name, base string, inputs InputLookup) (Agent, error) {
	a := Agent{Name: name}
	switch {
	case cs.Command == "" && cs.URL != "":
		return a, errors.New(`"type": "acp" runs a command on stdio; ACP has no "url" (give "command")`)
	case cs.Command == "":
		return a, errors.New(`"type": "acp" needs "command" (the agent, run on stdio)`)
	case cs.URL != "":
		return a, errors.New(`has both "command" and "url"; an ACP agent takes "command" only`)
	case len(cs.Headers) > 0:
		return a, errors.New(`"headers" apply to HTTP servers, not to an ACP agent`)
	case cs.OAuth != nil:
		return a, errors.New(`"oauth" applies to HTTP servers, not to an ACP agent`)
	case cs.Roots != nil:
		return a, errors.New(`"roots" are MCP's; an ACP agent works in its "cwd"`)
	}
	run, written, secrets, err := cs.expandLaunch(base, inputs)
	if err != nil {
		return a, err
	}
	a.Command, a.Args, a.Dir, a.written = run.Command, run.Args, run.Dir, written
	a.secrets = append(a.secrets, secrets...)
	env, envSecrets, err := cs.expandEnv(inputs)
	if err != nil {
		return a, err
	}
	a.Env, a.secrets = env, append(a.secrets, envSecrets...)
	return a, nil
}

// expandEnv is the launch's "env" as KEY=VALUE, sorted, with ${…}
// expanded, and the values that came from a secret reference.
func (cs configServer) expandEnv(inputs InputLookup) (env, secrets []string, err error) {
	for k, v := range cs.Env {
		ev, err := expandVars(v, inputs)
		if err != nil {
			return nil, nil, fmt.Errorf("env %s: %w", k, err)
		}
		env = append(env, k+"="+ev)
		if secretRef(v) {
			secrets = append(secrets, ev)
		}
	}
	slices.Sort(env)
	return env, secrets, nil
}

func (cs configServer) server(name, base string, inputs InputLookup) (Server, error) {
	s := Server{Name: name}
	switch {
	case cs.Command != "" && cs.URL != "":
		return s, errors.New(`has both "command" and "url"; give one`)
	case cs.Command != "":
		if cs.Type != "" && cs.Type != "stdio" {
			return s, fmt.Errorf(`type %q does not go with a command (want "stdio", or "acp" for an ACP agent)`, cs.Type)
		}
		run, written, secrets, err := cs.expandLaunch(base, inputs)
		if err != nil {
			return s, err
		}
		s.Command, s.Args, s.Dir, s.written = run.Command, run.Args, run.Dir, written
		s.secrets = append(s.secrets, secrets...)
		env, envSecrets, err := cs.expandEnv(inputs)
		if err != nil {
			return s, err
		}
		s.Env, s.secrets = env, append(s.secrets, envSecrets...)
	case cs.URL != "":
		switch cs.Type {
		case "", "http", "streamable-http", "streamableHttp":
		case "sse":
			s.LegacySSE = true
		default:
			return s, fmt.Errorf(`unknown type %q (want "http" or "sse"; "acp" for an ACP agent)`, cs.Type)
		}
		run, written, secrets, err := cs.expandLaunch(base, inputs)
		if err != nil {
			return s, err
		}
		s.URL, s.written = run.URL, written
		s.secrets = append(s.secrets, secrets...)
		if cs.OAuth != nil {
			o, err := cs.OAuth.expanded(inputs)
			if err != nil {
				return s, fmt.Errorf("oauth: %w", err)
			}
			s.OAuth = o
		}
		s.Header = http.Header{}
		for k, v := range cs.Headers {
			hv, err := expandVars(v, inputs)
			if err != nil {
				return s, fmt.Errorf("header %s: %w", k, err)
			}
			s.Header.Set(k, hv)
		}
	default:
		return s, errors.New(`needs "command" (stdio) or "url" (HTTP)`)
	}
	if cs.OAuth != nil && cs.URL == "" {
		return s, errors.New(`"oauth" only applies to a server with a "url"`)
	}
	return s, nil
}

// expanded checks an "oauth" object and expands $VAR in its secrets and
// paths (a client secret belongs in the environment, not the file).
func (o OAuth) expanded(inputs InputLookup) (OAuth, error) {
	for _, f := range []*string{&o.ClientID, &o.ClientSecret, &o.PrivateKeyFile, &o.AssertionFile} {
		v, err := expandVars(*f, inputs)
		if err != nil {
			return o, err
		}
		*f = v
	}
	if o.RedirectPort < 0 || o.RedirectPort > 65535 {
		return o, fmt.Errorf("redirectPort %d is not a port", o.RedirectPort)
	}
	if o.ClientSecret != "" && o.ClientID == "" {
		return o, errors.New(`"clientSecret" needs "clientId"`)
	}
	if _, err := o.grant(); err != nil {
		return o, err
	}
	return o, nil
}

// expandVars expands $VAR and ${VAR} from the environment, and VS Code's
// ${input:ID} through inputs. A variable that is not set is an
// *unsetError naming it: silently expanding it to "" sent
// "Authorization: Bearer " and empty API keys. A variable set to "" is
// taken as it is.
func expandVars(v string, inputs InputLookup) (string, error) {
	var missing []string
	out := os.Expand(v, func(name string) string {
		var val string
		var ok bool
		if input, isInput := strings.CutPrefix(name, "input:"); isInput {
			val, ok = inputs(input)
		} else {
			val, ok = os.LookupEnv(name)
		}
		if !ok {
			missing = append(missing, name)
		}
		return val
	})
	switch {
	case len(missing) == 0:
		return out, nil
	case strings.HasPrefix(missing[0], "input:"):
		input := strings.TrimPrefix(missing[0], "input:")
		return "", &unsetError{Name: missing[0], msg: fmt.Sprintf("${%s} is a VS Code input: set %s to its value", missing[0], InputEnv(input))}
	}
	return "", &unsetError{Name: missing[0], msg: fmt.Sprintf("${%s} is not set (set it, to \"\" if it should be empty)", missing[0])}
}

// InputEnv is the environment variable that gives VS Code input NAME its
// value: ELICIT_INPUT_ and the name in capitals, other than letters and
// digits made "_" ("api-key" is ELICIT_INPUT_API_KEY).
func InputEnv(name string) string {
	b := []byte("ELICIT_INPUT_")
	for _, r := range strings.ToUpper(name) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b = append(b, byte(r))
		} else {
			b = append(b, '_')
		}
	}
	return string(b)
}

// configCandidates lists where elicit looks for a config when none is
// given, in order.
func candidates(getenv func(string) string) []string {
	var out []string
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		if home := getenv("HOME"); home != "" {
			dir = filepath.Join(home, ".config")
		}
	}
	if dir != "" {
		out = append(out, filepath.Join(dir, "elicit", "config.json"), filepath.Join(dir, "elicit", "mcp.json"))
	}
	out = append(out, ".mcp.json", filepath.Join(".vscode", "mcp.json"))
	return out
}

// Find returns the first candidate that exists, or an error that
// lists every place it looked.
func Find(getenv func(string) string) (string, error) {
	cands := candidates(getenv)
	for _, p := range cands {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("config %s: %w", p, err)
		}
	}
	return "", exit.Usagef("no server given and no config found; looked in:\n  %s\n"+
		"Try: elicit demo, elicit -- CMD ARGS..., elicit --url URL, or elicit --config FILE",
		strings.Join(cands, "\n  "))
}
