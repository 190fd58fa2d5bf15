package serverspec

import (
	"fmt"
	"path/filepath"
	"strings"
)

// ${VAR} in the parts of a config entry that start it (command, args,
// cwd, url): expanded as in env and headers, an unset one stopping that
// entry alone (unsetError), and what was written kept apart from what
// runs, for everything that shows or records the entry.

// unsetError is a variable of a server entry that is not set (a VS Code
// input not given): that server is not started, and the file's others are.
type unsetError struct {
	Name string // as written: "TOKEN", "input:api-key"
	msg  string
}

func (e *unsetError) Error() string { return e.msg }

// expandBraced expands only ${VAR} (and ${input:ID}) as expandVars does,
// leaving a bare $ alone: in a command, its arguments, cwd and URL a "$"
// is more often meant as it is ("print $x") than in env and headers.
// seen is told each ${…} and what it expanded to.
func expandBraced(v string, inputs InputLookup, seen func(ref, value string)) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(v, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(v[i:], '}')
		if j < 0 {
			break
		}
		val, err := expandVars(v[i:i+j+1], inputs)
		if err != nil {
			return "", err
		}
		seen(v[i:i+j+1], val)
		b.WriteString(v[:i])
		b.WriteString(val)
		v = v[i+j+1:]
	}
	b.WriteString(v)
	return b.String(), nil
}

// launch is the command, args, cwd and url of a config entry, as written
// (with its ${VAR}s) or as run.
type launch struct {
	Command string
	Args    []string
	Dir     string
	URL     string
}

// writtenLaunch is an entry's launch as written in its config. What is
// shown and recorded of the entry (transportDetail, the trust question,
// --record) is what was written, so a token taken from the environment
// into an argument or a URL never is.
type writtenLaunch struct{ launch }

// expandLaunch expands ${VAR} in the entry's command, args, cwd and url;
// a relative cwd is taken from base. written is nil when nothing was
// expanded (what runs is what was written); secrets are the values of
// the ${…} that secretRef calls secrets (an input, ${GITHUB_TOKEN}), for
// every sink to mask.
func (cs configServer) expandLaunch(base string, inputs InputLookup) (run launch, written *writtenLaunch, secrets []string, err error) {
	expanded := false
	seen := func(ref, value string) {
		expanded = true
		if secretRef(ref) {
			secrets = append(secrets, value)
		}
	}
	expand := func(what, v string) (string, error) {
		out, err := expandBraced(v, inputs, seen)
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		return out, nil
	}
	if run.Command, err = expand("command", cs.Command); err != nil {
		return run, nil, nil, err
	}
	if run.Dir, err = expand("cwd", cs.Cwd); err != nil {
		return run, nil, nil, err
	}
	for i, a := range cs.Args {
		ea, err := expand(fmt.Sprintf("args[%d]", i), a)
		if err != nil {
			return run, nil, nil, err
		}
		run.Args = append(run.Args, ea)
	}
	if run.URL, err = expand("url", cs.URL); err != nil {
		return run, nil, nil, err
	}
	w := launch{Command: cs.Command, Args: cs.Args, Dir: cs.Cwd, URL: cs.URL}
	for _, l := range []*launch{&run, &w} {
		if l.Dir != "" && !filepath.IsAbs(l.Dir) {
			l.Dir = filepath.Join(base, l.Dir)
		}
	}
	if !expanded {
		return run, nil, nil, nil
	}
	return run, &writtenLaunch{launch: w}, secrets, nil
}

// shownLaunch is what may be shown of a launch: as written when it was
// expanded.
func shownLaunch(run launch, written *writtenLaunch) launch {
	if written != nil {
		return written.launch
	}
	return run
}
