package tui

import (
	"fmt"
	"slices"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/shown"
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

// transportDetail describes spec for the server view: what
// serverspec.Server.Detail says, nothing secret.
func transportDetail(spec serverspec.Server) ui.TransportDetail {
	d := spec.Detail()
	return ui.TransportDetail{Kind: d.Kind, URL: d.URL, HeaderNames: d.HeaderNames,
		Command: d.Command, Args: d.Args, Dir: d.Dir, EnvNames: d.EnvNames}
}
