package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/agents"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/attach"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/shown"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// Kept is what a session the hub keeps holds for elicit attach, from
// its start: the Bridge (its questions, as the TUI would be shown them,
// and the rings of its traffic, stderr and logs) and what the TUI's
// engine reads. A TUI attaches to it, quits, and the next attaches to the
// same one.
type Kept struct {
	br *ui.Bridge
	// spec and sec are the session's server and secrets, set (tap's
	// Spec) before it connects, so before any frame, event or question.
	spec serverspec.Server
	sec  *redact.Secrets
	// session, found and rec are set once the session is open; a
	// proxied session has no session but its held set.
	session *client.Session
	held    sessionSet
	name    string
	found   *findings.Recorder
	rec     *record.Recorder

	mu       sync.Mutex
	attached bool
}

// NewKept makes the Bridge of a session about to open: detached, so
// the session's events never wait for a TUI.
func NewKept() *Kept {
	br := ui.NewBridge(ui.BridgeOptions{})
	br.Detach()
	return &Kept{br: br}
}

// NewProxiedKept is what elicit attach shows of a proxied session
// (elicit proxy --session): its questions, the frames its proxy passes
// (Frame), the journal of what it settled. It has no client.Session: the
// proxy process holds the connections.
func NewProxiedKept(server string, journal *question.Journal) *Kept {
	k := NewKept()
	k.spec, k.sec = serverspec.Server{Name: server}, redact.NewSecrets()
	k.held, k.name, k.found = proxiedSet{name: server, journal: journal}, server, findings.NewRecorder(nil)
	return k
}

// Frame shows a frame of the session's traffic.
func (k *Kept) Frame(f transport.Frame) { k.br.Frame(k.name, f) }

// Tap is what the session's wiring gives the TUI (headless.SessionTap).
func (k *Kept) Tap() *headless.SessionTap {
	return &headless.SessionTap{
		Spec:            func(s serverspec.Server, sec *redact.Secrets) { k.spec, k.sec = s, sec },
		OnFrame:         func(fr transport.Frame) { k.br.Frame(k.spec.Name, fr) },
		OnStderr:        func(line string) { k.br.Stderr(k.spec.Name, line) },
		FindingsChanged: k.br.FindingsChanged,
	}
}

// Opened records the session once it is open.
func (k *Kept) Opened(s *client.Session, found *findings.Recorder, rec *record.Recorder) {
	k.session, k.found, k.rec = s, found, rec
	k.held, k.name = heldSession{s}, s.Name()
}

// Prompt is the session's questions as the TUI is shown them, masked
// (the hub's prompter hands each one here too, and ends it when it is
// settled elsewhere).
func (k *Kept) Prompt(ctx context.Context, q *question.Question) question.Outcome {
	return shown.Prompter{Next: k.br, Secrets: k.sec}.Prompt(ctx, q)
}

// Observer gives the TUI the session's events, masked as the TUI's are.
func (k *Kept) Observer() client.Observer {
	return client.ObserverFunc(func(e client.Event) { k.br.Event(shown.Event(k.sec, e)) })
}

// Close ends the Bridge with the session.
func (k *Kept) Close() { k.br.Close() }

// Attach is the session's hub.Attacher: it checks the terminal's Hello,
// answers it, and runs the TUI on it (Serve). One TUI at a time: its
// panes answer the session's questions, and two would race for them.
func (k *Kept) Attach(ctx context.Context, conn net.Conn, r io.Reader, id jsonrpc.ID, params json.RawMessage) error {
	refuse := func(err error) error {
		_ = attach.Reply(conn, id, jsonrpc.NewError(jsonrpc.CodeInvalidParams, err.Error(), hub.ErrorData{Exit: hub.ExitUsage}))
		_ = conn.Close()
		return err
	}
	h, err := attach.ParseHello(params)
	if err != nil {
		return refuse(err)
	}
	k.mu.Lock()
	busy := k.attached
	k.attached = true
	k.mu.Unlock()
	if busy {
		return refuse(fmt.Errorf("session %s has a TUI attached already: quit that one first", h.Session))
	}
	defer func() {
		k.mu.Lock()
		k.attached = false
		k.mu.Unlock()
	}()
	if err := attach.Reply(conn, id, nil); err != nil {
		_ = conn.Close()
		return err
	}
	return k.serve(ctx, conn, r, h)
}

// serve runs the TUI on the terminal at the other end of conn, on the
// session's live engine, until it quits, the terminal goes or ctx ends
// (the session stopped); the session runs on.
func (k *Kept) serve(ctx context.Context, conn io.ReadWriteCloser, r io.Reader, h attach.Hello) error {
	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	eng := &engine{ctx: tctx, m: k.held, specs: map[string]serverspec.Server{k.name: k.spec}, order: []string{k.name},
		pending: map[string]error{}, findings: k.found, rec: k.rec, secrets: k.sec}
	var err error
	if eng.Hub, err = agents.NewHub(k.br, k.held.Journal(), nil, agents.HubOptions{Recorder: k.rec, Secrets: k.sec}); err != nil {
		return err
	}
	m := ui.New(eng, k.br, ui.Options{Theme: h.Theme, Context: tctx, OpenURL: serverspec.BrowserOpener(), Attached: true, Getenv: h.Getenv})
	gov := newFrameGovernor(renderFPS)
	exit := func() string {
		if ctx.Err() != nil {
			return "elicit: session " + h.Session + " stopped"
		}
		return "elicit: detached; session " + h.Session + " keeps running (elicit attach " + h.Session + " comes back)"
	}
	err = attach.Serve(tctx, conn, r, h, gov.wrap(m),
		func(p *tea.Program) { gov.bind(p); k.br.Attach(p.Send) },
		func() { k.br.Detach(); gov.close() },
		attach.ServeOptions{FPS: renderFPS, Output: gov.output, Exit: exit})
	cancel()
	eng.bg.Wait()
	return err
}
