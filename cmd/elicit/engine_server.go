package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/shown"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// Server implements ui.Engine: the Manager's details of the server (its
// current or last session, the last failure) and its transport as
// configured, without secrets.
func (e *engine) Server(name string) (ui.ServerDetail, error) {
	spec, ok := e.specs[name]
	if !ok {
		return ui.ServerDetail{}, fmt.Errorf("server %s: %w", name, client.ErrUnknownServer)
	}
	out := ui.ServerDetail{Transport: transportDetail(spec)}
	d, err := e.m.Details(name)
	if err != nil {
		// Its transport could not be built: the Manager never had it.
		// Or it is not handed to the Manager yet: connecting.
		e.mu.Lock()
		perr := e.pending[name]
		e.mu.Unlock()
		if perr == nil && slices.Contains(e.order, name) {
			out.ServerStatus = ui.ServerStatus{Name: name, State: client.StateConnecting, Host: e.host(name)}
			return out, nil
		}
		if perr == nil {
			return ui.ServerDetail{}, err
		}
		perr = e.scrubber(spec)(perr)
		out.ServerStatus = ui.ServerStatus{Name: name, State: client.StateFailed, Err: perr}
		out.LastErr = perr
		return out, nil
	}
	scrub := e.scrubber(spec)
	out.ServerStatus = ui.ServerStatus{Name: name, State: d.State, Protocol: d.Protocol, Era: d.Era, Err: scrub(d.Err), Host: e.host(name)}
	// What the server said of itself is shown with the secrets masked.
	sec := e.secretsNow()
	d.Session.ServerInfo, d.Session.Instructions = shown.Value(sec, d.Session.ServerInfo), sec.String(d.Session.Instructions)
	if d.State == client.StateReady {
		out.Caps, out.Info = d.Session.Caps, d.Session.ServerInfo
	}
	out.Session, out.LastErr, out.LastErrAt = d.Session, scrub(d.LastErr), d.LastErrAt
	out.Session.Err = scrub(d.Session.Err)
	return out, nil
}

// scrubber returns a function that takes the run's secrets, with the
// spec's (header and secret environment values, the URL's user info and
// query values, secret arguments), out of an error's text: an HTTP
// client's errors quote the request's URL, query and all, and a server
// may echo what it was sent.
func (e *engine) scrubber(spec serverspec.Server) func(error) error {
	sec := e.secretsNow()
	sec.Add(spec.SecretValues()...)
	return sec.Error
}

// transportDetail describes spec for the server view. Nothing secret goes
// out: header and environment values stay behind (their names go), and
// so do the URL's password and query values; an argument that is, or
// follows, a flag naming a secret is masked.
func transportDetail(spec serverspec.Server) ui.TransportDetail {
	spec = spec.Shown() // as its config wrote it
	switch {
	case spec.Demo:
		return ui.TransportDetail{Kind: "in-process"}
	case spec.URL != "":
		kind := "Streamable HTTP"
		if spec.LegacySSE {
			kind = "HTTP+SSE"
		}
		names := make([]string, 0, len(spec.Header))
		for k := range spec.Header {
			names = append(names, k)
		}
		slices.Sort(names)
		return ui.TransportDetail{Kind: kind, URL: redact.URL(spec.URL), HeaderNames: names}
	}
	env := make([]string, 0, len(spec.Env))
	for _, kv := range spec.Env {
		k, _, _ := strings.Cut(kv, "=")
		env = append(env, k)
	}
	return ui.TransportDetail{Kind: "stdio", Command: spec.Command, Args: serverspec.MaskArgs(spec.Args), Dir: spec.Dir, EnvNames: env}
}
