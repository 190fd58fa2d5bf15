package serverspec

import (
	"net/url"
	"path/filepath"
	"strings"
)

// hostName names a server after its URL's host ("localhost:3001").
func hostName(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.Host
}

// baseName names a stdio server after its command, skipping launchers such
// as npx, uvx, node and python so "npx -y @scope/server-everything" becomes
// "server-everything".
func baseName(cmd []string) string {
	cmd = skipWrappers(cmd)
	if len(cmd) == 0 {
		return "server"
	}
	launchers := map[string]bool{"npx": true, "uvx": true, "node": true, "python": true, "python3": true,
		"go": true, "deno": true, "bun": true, "bunx": true, "pipx": true, "docker": true}
	for i, a := range cmd {
		b := filepath.Base(a)
		if i == 0 && !launchers[b] {
			return b
		}
		if i > 0 && !strings.HasPrefix(a, "-") && a != "run" {
			if pkg := packageName(a); pkg != "" {
				return pkg
			}
			if j := strings.LastIndex(a, "/"); j >= 0 {
				a = a[j+1:]
			}
			if k := strings.LastIndex(a, "@"); k > 0 {
				a = a[:k]
			}
			return strings.TrimSuffix(a, filepath.Ext(a))
		}
	}
	return filepath.Base(cmd[0])
}

// skipWrappers drops the commands that only run another one: env (with
// its VAR=value and -flags), sh -c's shell is kept as it is (its script
// names nothing), and exec-style prefixes such as nice, nohup, timeout.
// "env FOO=1 node server.js" is named after server.js, not "env".
func skipWrappers(cmd []string) []string {
	for len(cmd) > 0 {
		switch filepath.Base(cmd[0]) {
		case "env":
			cmd = cmd[1:]
			for len(cmd) > 0 && (strings.Contains(cmd[0], "=") || strings.HasPrefix(cmd[0], "-")) {
				cmd = cmd[1:]
			}
		case "nice", "nohup", "stdbuf", "time":
			cmd = cmd[1:]
			for len(cmd) > 0 && strings.HasPrefix(cmd[0], "-") {
				cmd = cmd[1:]
			}
		case "timeout":
			cmd = cmd[1:]
			for len(cmd) > 0 && strings.HasPrefix(cmd[0], "-") {
				cmd = cmd[1:]
			}
			if len(cmd) > 0 {
				cmd = cmd[1:] // the duration
			}
		default:
			return cmd
		}
	}
	return cmd
}

// packageName returns the npm package a path inside node_modules belongs
// to ("…/node_modules/@scope/server-everything/dist/index.js" gives
// "server-everything"), or "".
func packageName(path string) string {
	const nm = "node_modules/"
	i := strings.LastIndex(path, nm)
	if i < 0 {
		return ""
	}
	parts := strings.Split(path[i+len(nm):], "/")
	if len(parts) >= 2 && strings.HasPrefix(parts[0], "@") {
		return parts[1]
	}
	return parts[0]
}
