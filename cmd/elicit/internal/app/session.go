package app

import (
	"context"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
)

// Wiring is what varies between the ways elicit opens an MCP session.
// The zero value of a field is the client's default, or no hook.
type Wiring struct {
	Name    string // the server's name: keys the recording and the findings
	Version string // elicit's version, sent as clientInfo
	// Protocol pins the version ("" detects the era); the findings of
	// undecodable frames name it.
	Protocol string
	Elicit   client.ElicitModes
	Sampling client.SamplingMode
	Roots    []client.Root // nil declares no roots
	// AppsUI declares the MCP Apps extension: only for a session whose
	// apps a host renders (elicit app).
	AppsUI bool

	URLWait, PromptTimeout, ConnectTimeout, RequestTimeout time.Duration

	// Prompter answers the questions, and Observer hears the events;
	// the recording sees both first.
	Prompter question.Prompter
	Observer client.Observer
	// Recorder records the frames, events and answers (nil: none).
	Recorder *record.Recorder
	// Findings records the server's spec violations: those the engine
	// notices and the frames that are not JSON-RPC (nil: none).
	Findings *findings.Recorder
	// OnFrame and OnStderr see the transport's frames (after the
	// recording and the findings) and the server's stderr lines.
	OnFrame  func(transport.Frame)
	OnStderr func(line string)
}

// Options are the session's options with every hook wired.
func (w *Wiring) Options() *client.Options {
	obs := w.Observer
	if w.Recorder != nil {
		obs = recordObserver{rec: w.Recorder, next: obs}
	}
	return &client.Options{
		Name:           w.Name,
		ClientInfo:     wire.Implementation{Name: "elicit", Version: w.Version},
		Protocol:       w.Protocol,
		Elicit:         w.Elicit,
		Roots:          w.Roots,
		Sampling:       w.Sampling,
		AppsUI:         w.AppsUI,
		Prompter:       w.Recorder.Prompter(w.Prompter),
		Observer:       obs,
		URLWait:        w.URLWait,
		PromptTimeout:  w.PromptTimeout,
		ConnectTimeout: w.ConnectTimeout,
		RequestTimeout: w.RequestTimeout,
		Findings:       w.Findings,
	}
}

// TransportObserver is the observer to give the session's transport:
// its frames go to the recording, the findings and OnFrame, its stderr
// to OnStderr.
func (w *Wiring) TransportObserver() transport.Observer {
	return transport.ObserverFuncs{
		OnFrame: func(f transport.Frame) {
			w.Recorder.Frame(w.Name, f)
			w.Findings.Frame(w.Name, w.Protocol, f.Dir == transport.In, f.Err, f.Time)
			if w.OnFrame != nil {
				w.OnFrame(f)
			}
		},
		OnStderr: w.OnStderr,
	}
}

// Connect connects over t, which was made with TransportObserver, with
// Options: the session with every hook wired.
func (w *Wiring) Connect(ctx context.Context, t transport.Transport) (*client.Session, error) {
	return client.Connect(ctx, t, w.Options())
}

// recordObserver sends a session's events to the recording, then on.
type recordObserver struct {
	rec  *record.Recorder
	next client.Observer
}

func (o recordObserver) Event(e client.Event) {
	o.rec.Event(e)
	if o.next != nil {
		o.next.Event(e)
	}
}
