package serverspec

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/trust"
)

// A config elicit finds in the working directory (./.mcp.json,
// ./.vscode/mcp.json) is a project's file: it comes with a clone or a
// download, and the person never named it. Its servers' and agents'
// commands (and URLs) run when the person names the file (--config), or
// confirms them on a terminal, shown whole as a replay shows a
// recording's (package trust). The person's own config
// ($XDG_CONFIG_HOME/elicit) needs neither.

// IsProject says path is a config Find found in the working directory.
func IsProject(path string) bool {
	return path == ".mcp.json" || path == filepath.Join(".vscode", "mcp.json")
}

// ProjectGate is the gate of a project's config found at path; stdin nil
// (a headless command) never asks.
func ProjectGate(path string, stdin io.Reader, stderr io.Writer) trust.Gate {
	return trust.Gate{File: path, Stdin: stdin, Stderr: stderr, Whose: "a project's file, found in this directory",
		How: fmt.Sprintf("name the file with --config %s once you have read it, or give a server with -- CMD ARGS..., --url URL or --demo", path)}
}

// Launches are what the servers and agents of cfg start, and what of the
// person's they would send: the variables they expand, the files their
// oauth reads.
func Launches(cfg *Config, servers []Server, agents []Agent) []trust.Launch {
	var out []trust.Launch
	for _, s := range servers {
		s = s.Shown() // as written: the variables it reads are said below
		l := trust.Launch{What: "server", Name: s.Name, Command: s.Command, Args: s.Args, URL: s.URL, LegacySSE: s.LegacySSE,
			Dir: s.Dir, EnvByFile: EnvNames(s.Env), Headers: slices.Sorted(maps.Keys(s.Header))}
		for _, r := range s.Roots {
			l.Roots = append(l.Roots, r.URI)
		}
		l.Extra = append(readsLine(cfg.Reads[s.Name]), oauthFiles(s.OAuth)...)
		out = append(out, l)
	}
	for _, a := range agents {
		a = a.Shown()
		out = append(out, trust.Launch{What: "agent", Name: a.Name, Command: a.Command, Args: a.Args, Dir: a.Dir,
			EnvByFile: EnvNames(a.Env), Extra: readsLine(cfg.Reads[a.Name])})
	}
	return out
}

// readsLine says which of the person's environment variables an entry
// expands into what it sends (none: nothing).
func readsLine(vars []string) []string {
	if len(vars) == 0 {
		return nil
	}
	return []string{"takes $" + strings.Join(vars, ", $") + " from this environment (into its command, args, cwd, url, env, headers or oauth)"}
}

// oauthFiles says which files of the person's a server's oauth reads:
// a jwt-bearer assertion is sent as it is.
func oauthFiles(o OAuth) []string {
	var out []string
	if o.AssertionFile != "" {
		out = append(out, "sends the contents of "+trust.Quote(o.AssertionFile)+" to its authorization server (oauth assertionFile)")
	}
	if o.PrivateKeyFile != "" {
		out = append(out, "signs its sign-in with the private key in "+trust.Quote(o.PrivateKeyFile)+" (oauth privateKeyFile)")
	}
	return out
}

// reads are the environment variables the entry's values expand ($VAR,
// ${VAR}; not ${input:ID}, which the person types): in its command, args,
// cwd, url, env, headers and oauth. Sorted.
func (cs configServer) reads() []string {
	seen := map[string]bool{}
	scan := func(v string) {
		os.Expand(v, func(name string) string {
			if !strings.HasPrefix(name, "input:") && name != "" {
				seen[name] = true
			}
			return ""
		})
	}
	// In what starts it only ${VAR} is expanded (expandBraced); a bare $
	// there is taken as written.
	for _, v := range append([]string{cs.Command, cs.Cwd, cs.URL}, cs.Args...) {
		for i := strings.Index(v, "${"); i >= 0; i = strings.Index(v, "${") {
			j := strings.IndexByte(v[i:], '}')
			if j < 0 {
				break
			}
			scan(v[i : i+j+1])
			v = v[i+j+1:]
		}
	}
	for _, v := range cs.Env {
		scan(v)
	}
	for _, v := range cs.Headers {
		scan(v)
	}
	if o := cs.OAuth; o != nil {
		for _, v := range []string{o.ClientID, o.ClientSecret, o.PrivateKeyFile, o.AssertionFile} {
			scan(v)
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// EnvNames are the names of NAME=value entries.
func EnvNames(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		out = append(out, name)
	}
	return out
}
