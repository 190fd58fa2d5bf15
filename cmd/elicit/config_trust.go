package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// A config elicit finds in the working directory (./.mcp.json,
// ./.vscode/mcp.json) is a project's file: it comes with a clone or a
// download, and the person never named it. Its servers' and agents'
// commands (and URLs) run when the person names the file (--config), or
// confirms them on a terminal, shown whole as a replay shows a
// recording's (replay_trust.go). The person's own config
// ($XDG_CONFIG_HOME/elicit) needs neither.

// projectConfig says path is a config findConfig found in the working
// directory.
func projectConfig(path string) bool {
	return path == ".mcp.json" || path == filepath.Join(".vscode", "mcp.json")
}

// configGate is the gate of a project's config found at path; stdin nil
// (a headless command) never asks.
func configGate(path string, stdin io.Reader, stderr io.Writer) trustGate {
	return trustGate{file: path, stdin: stdin, stderr: stderr, whose: "a project's file, found in this directory",
		how: fmt.Sprintf("name the file with --config %s once you have read it, or give a server with -- CMD ARGS..., --url URL or --demo", path)}
}

// configLaunches are what the servers and agents of a config start.
func configLaunches(servers []serverSpec, agents []agentSpec) []recordedLaunch {
	var out []recordedLaunch
	for _, s := range servers {
		l := recordedLaunch{what: "server", name: s.Name, command: s.Command, args: s.Args, url: s.URL, legacySSE: s.LegacySSE,
			dir: s.Dir, envByFile: envNames(s.Env), headers: slices.Sorted(func(yield func(string) bool) {
				for k := range s.Header {
					if !yield(k) {
						return
					}
				}
			})}
		for _, r := range s.Roots {
			l.roots = append(l.roots, r.URI)
		}
		out = append(out, l)
	}
	for _, a := range agents {
		out = append(out, recordedLaunch{what: "agent", name: a.Name, command: a.Command, args: a.Args, dir: a.Dir, envByFile: envNames(a.Env)})
	}
	return out
}

// envNames are the names of NAME=value entries.
func envNames(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		out = append(out, name)
	}
	return out
}
