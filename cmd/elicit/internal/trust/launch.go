package trust

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport/redact"
)

// Launch is what a file (a recording, a project's config) would start,
// or connect to, that the person did not name.
type Launch struct {
	What, Name string // "server" or "agent", and its name in the file
	Command    string // a stdio command and its arguments
	Args       []string
	URL        string // an HTTP server
	LegacySSE  bool
	Dir        string   // where the command runs
	Env        []string // the variables it was recorded with, by name
	EnvByFile  []string // the variables the file sets, by name (a config's)
	Headers    []string // the HTTP headers the file sets, by name
	Extra      []string // more of what it does with the person's (a config's oauth files)
	Cwd        string   // an agent's session directory
	AllowFS    bool     // the agent may read and write files under Cwd
	// AllowTerminal: the agent may run commands in terminals under Cwd
	// (and Dirs, the session's additional directories).
	AllowTerminal bool
	Dirs          []string
	// Roots are offered to the server: where it may work (a filesystem
	// server takes them for its allowed directories).
	Roots []string
	// Whose, when set, says the server or agent is not the file's (the
	// person named it, or it is elicit's demo agent): only where it works
	// (Roots, Cwd, AllowFS) is.
	Whose string
}

// Lines is the launch as the person is shown it: every argument, quoted
// as a shell would need it (so a space or an empty argument shows), and
// all of it through untrusted, since it is the file's content.
func (l Launch) Lines() []string {
	head := fmt.Sprintf("%s %q", l.What, l.Name)
	var out []string
	switch {
	case l.Whose != "":
		out = append(out, fmt.Sprintf("%s (%s), as the recording says:", head, l.Whose))
	case l.URL != "":
		how := "connects to"
		if l.LegacySSE {
			how = "connects (HTTP+SSE) to"
		}
		// Where it goes, not what it carries: a URL's user info and query
		// values (a password, an API key) are masked as everywhere else.
		out = append(out, fmt.Sprintf("%s %s: %s", head, how, ShownURL(l.URL)))
	default:
		cmd := []string{Quote(l.Command)}
		for _, a := range l.Args {
			cmd = append(cmd, Quote(a))
		}
		out = append(out, fmt.Sprintf("%s runs: %s", head, strings.Join(cmd, " ")))
	}
	if l.Dir != "" {
		out = append(out, "  in the directory "+Quote(l.Dir))
	}
	if len(l.Env) > 0 {
		// A command inherits elicit's environment: these are its values
		// here, which the recording never had.
		out = append(out, "  in this environment; recorded with "+strings.Join(l.Env, ", ")+" set (values not shown)")
	}
	if len(l.EnvByFile) > 0 {
		out = append(out, "  with "+strings.Join(l.EnvByFile, ", ")+" set as the file says (values not shown)")
	}
	if len(l.Headers) > 0 {
		out = append(out, "  with the headers "+strings.Join(l.Headers, ", ")+" (values not shown)")
	}
	for _, e := range l.Extra {
		out = append(out, "  "+e)
	}
	if len(l.Roots) > 0 {
		s := "  offered the roots " + strings.Join(l.Roots, ", ")
		if l.Whose != "" {
			s += " (--root replaces them)"
		}
		out = append(out, s)
	}
	if l.Cwd != "" {
		out = append(out, "  its session in "+Quote(l.Cwd))
	}
	if len(l.Dirs) > 0 {
		dirs := make([]string, len(l.Dirs))
		for i, d := range l.Dirs {
			dirs[i] = Quote(d)
		}
		out = append(out, "  with the additional directories "+strings.Join(dirs, ", ")+" (--dir as recorded)")
	}
	if l.AllowFS {
		out = append(out, "  allowed to read and write files there (--allow-fs as recorded)")
	}
	if l.AllowTerminal {
		out = append(out, "  allowed to run commands in terminals there (--allow-terminal as recorded)")
	}
	for i, s := range out {
		out[i] = untrusted.Line(s)
	}
	return out
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// Quote is s as a POSIX shell would take it back as one word.
func Quote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShownURL is raw as written when it carries nothing to mask (so a
// ${VAR} in its path shows as the file has it), else redact.URL's form.
func ShownURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User == nil && u.RawQuery == "" && u.Fragment == "" {
		return raw
	}
	return redact.URL(raw)
}
