package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport/redact"
)

// --record FILE: the TUI and every headless command write a recording of
// the session (client/record, docs/record.md) for `elicit replay`.

const recordFlagUsage = "write a recording of the session to FILE (JSONL: every frame, call and answer, and the settings; secrets masked) for elicit replay FILE (docs/record.md)"

// openRecord creates the recording at path ("" records nothing: a nil
// Recorder), before any server is started, so a path that cannot be
// written is said at once. The file is private (0600: it holds what the
// servers said), and every line of it has the run's secrets (sec)
// masked, those added later too.
func openRecord(path string, s record.Settings, sec *redact.Secrets) (*record.Recorder, error) {
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

// closeRecord closes the recording and says so when it failed: the
// session ran, but the file is not what it should be.
func closeRecord(r *record.Recorder, path string, stderr io.Writer) {
	if err := r.Close(); err != nil {
		printError(stderr, fmt.Errorf("--record %s: %w", path, err))
	}
}

// recordSettings are the settings line of a session of specs, with the
// flags c gave.
func recordSettings(command string, c *common, specs []serverspec.Server, urlWait time.Duration, answer string) record.Settings {
	s := record.Settings{Command: command, Protocol: c.protocol, Elicit: c.elicit, Sampling: c.sample,
		Answer: answer, URLWaitMS: urlWait.Milliseconds()}
	if s.Elicit == "" {
		s.Elicit = "both"
	}
	for _, sp := range specs {
		s.Servers = append(s.Servers, recordServer(sp))
	}
	return s
}

// recordServer describes spec as the server view does (transportDetail):
// header and environment variable names, never their values; the URL's
// password and query values and secret arguments masked.
func recordServer(spec serverspec.Server) record.Server {
	out := record.Server{Name: spec.Name, Protocol: spec.Protocol}
	for _, r := range spec.Roots {
		out.Roots = append(out.Roots, r.URI)
	}
	d := transportDetail(spec)
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

// The params of the calls a recording keeps, in the shape of the
// method's MCP params, for a replay to make them again (replay.go).

type toolCallParams struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

type promptGetParams struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
}

type uriParams struct {
	URI string `json:"uri"`
}

type setLevelParams struct {
	Level string `json:"level"`
}

type taskParams struct {
	TaskID string `json:"taskId"`
}

func completeParams(ref wire.CompleteRef, arg, value string, others map[string]string) wire.CompleteParams {
	p := wire.CompleteParams{Ref: ref}
	p.Argument.Name, p.Argument.Value = arg, value
	if len(others) > 0 {
		p.Context = &wire.CompleteContext{Arguments: others}
	}
	return p
}

// callResult is what a recording keeps of a tool call's result: the
// result as sent.
func callResult(res *wire.CallToolResult) any {
	if res == nil {
		return nil
	}
	if len(res.Raw) > 0 {
		return res.Raw
	}
	return res
}

// completeName is what a completion's questions would name as origin.
func completeName(ref wire.CompleteRef) string {
	return strings.TrimSpace(ref.Name + ref.URI)
}
