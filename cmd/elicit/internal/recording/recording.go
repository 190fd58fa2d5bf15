package recording

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport/redact"
)

// FlagUsage is --record's help.
const FlagUsage = "write a recording of the session to FILE (JSONL: every frame, call and answer, and the settings; secrets masked) for elicit replay FILE (docs/record.md)"

// Open creates the recording at path ("" records nothing: a nil
// Recorder), before any server is started, so a path that cannot be
// written is said at once. The file is private (0600: it holds what the
// servers said), and every line of it has the run's secrets (sec)
// masked, those added later too. version is elicit's, for the header.
func Open(path, version string, s record.Settings, sec *redact.Secrets) (*record.Recorder, error) {
	if path == "" {
		return nil, nil
	}
	f, err := redact.CreatePrivate(path)
	if err != nil {
		return nil, exit.Usagef("--record %s: %v", path, err)
	}
	r, err := record.New(f, version, s, record.Redact(sec.Bytes))
	if err != nil {
		_ = f.Close()
		return nil, exit.Usagef("--record %s: %v", path, err)
	}
	return r, nil
}

// Close closes the recording and says so on stderr when it failed: the
// session ran, but the file is not what it should be.
func Close(r *record.Recorder, path string, stderr io.Writer) {
	if err := r.Close(); err != nil {
		exit.Print(stderr, fmt.Errorf("--record %s: %w", path, err))
	}
}

// Settings are the settings line of a session of specs: the command
// that ran it and the flags it was given (protocol, elicit, sample, the
// URL wait and the --answer policy).
func Settings(command, protocol, elicit, sample string, specs []serverspec.Server, urlWait time.Duration, answer string) record.Settings {
	s := record.Settings{Command: command, Protocol: protocol, Elicit: elicit, Sampling: sample,
		Answer: answer, URLWaitMS: urlWait.Milliseconds()}
	if s.Elicit == "" {
		s.Elicit = "both"
	}
	for _, sp := range specs {
		s.Servers = append(s.Servers, Server(sp))
	}
	return s
}

// Server describes spec as the server view does (serverspec.Detail):
// header and environment variable names, never their values; the URL's
// password and query values and secret arguments masked.
func Server(spec serverspec.Server) record.Server {
	out := record.Server{Name: spec.Name, Protocol: spec.Protocol}
	for _, r := range spec.Roots {
		out.Roots = append(out.Roots, r.URI)
	}
	d := spec.Detail()
	switch {
	case spec.Demo:
		out.Kind = "demo"
	case spec.URL != "":
		out.Kind, out.URL, out.HeaderNames = "http", d.URL, d.HeaderNames
		if spec.LegacySSE {
			out.Kind = "sse"
		}
	default:
		out.Kind, out.Command, out.Args, out.Dir = "stdio", d.Command, d.Args, d.Dir
		out.EnvNames = slices.Sorted(slices.Values(d.EnvNames))
	}
	return out
}
