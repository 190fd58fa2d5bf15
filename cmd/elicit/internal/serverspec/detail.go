package serverspec

import (
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/transport/redact"
)

// Detail is what may be shown or recorded of how a server is reached.
// Nothing secret is in it: header and environment values stay behind
// (their names go), and so do the URL's password and query values; an
// argument that is, or follows, a flag naming a secret is masked.
type Detail struct {
	Kind        string // "in-process", "Streamable HTTP", "HTTP+SSE" or "stdio"
	URL         string
	HeaderNames []string // sorted
	Command     string
	Args        []string
	Dir         string
	EnvNames    []string // in the order of Env
}

// Detail describes s as its config wrote it (Shown).
func (s Server) Detail() Detail {
	s = s.Shown()
	switch {
	case s.Demo:
		return Detail{Kind: "in-process"}
	case s.URL != "":
		kind := "Streamable HTTP"
		if s.LegacySSE {
			kind = "HTTP+SSE"
		}
		names := make([]string, 0, len(s.Header)) // [] when none, never null
		for k := range s.Header {
			names = append(names, k)
		}
		slices.Sort(names)
		return Detail{Kind: kind, URL: redact.URL(s.URL), HeaderNames: names}
	}
	env := make([]string, 0, len(s.Env))
	for _, kv := range s.Env {
		k, _, _ := strings.Cut(kv, "=")
		env = append(env, k)
	}
	return Detail{Kind: "stdio", Command: s.Command, Args: MaskArgs(s.Args), Dir: s.Dir, EnvNames: env}
}
