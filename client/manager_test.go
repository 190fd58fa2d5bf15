package client_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverTransport dials a fresh in-memory connection to srv each time, so
// it can be reconnected; failFirst makes the first n dials fail.
type serverTransport struct {
	srv       *mcp.Server
	obs       transport.Observer
	failFirst int32
	dials     atomic.Int32
	wg        sync.WaitGroup
}

func (st *serverTransport) Dial(ctx context.Context) (transport.Conn, error) {
	if st.dials.Add(1) <= st.failFirst {
		return nil, errors.New("server not up yet")
	}
	conn, sr, sw := transport.PipeIO(st.obs)
	st.wg.Go(func() {
		ss, err := st.srv.Connect(context.Background(), &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
		if err == nil {
			_ = ss.Wait()
		}
	})
	return conn, nil
}

func TestManager(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	m := client.NewManager(&client.ManagerOptions{Observer: rec})
	good := &serverTransport{srv: newAskServer(nil)}
	flaky := &serverTransport{srv: newFormServer(), failFirst: 1}
	defer good.wg.Wait()
	defer flaky.wg.Wait()
	defer m.Close()

	if err := m.Add(t.Context(), "good", good, &client.Options{Prompter: question.DeclineAll}); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(t.Context(), "flaky", flaky, &client.Options{Prompter: question.AcceptDefaults}); err == nil {
		t.Fatal("first dial of flaky succeeded")
	}
	if err := m.Add(t.Context(), "good", good, nil); err == nil {
		t.Error("duplicate name accepted")
	}
	st := m.Status()
	if len(st) != 2 || st[0].Name != "good" || st[0].State != client.StateReady || st[1].State != client.StateFailed || st[1].Err == nil {
		t.Fatalf("status %+v", st)
	}
	if m.Session("flaky") != nil {
		t.Error("failed server has a session")
	}
	if err := m.Reconnect(t.Context(), "flaky"); err != nil {
		t.Fatalf("Reconnect: %v", err)
	}
	if _, err := m.Session("flaky").CallTool(t.Context(), "form", nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := <-callAll(m.Session("good"), "g")["g"]; got != "g: decline <nil>" {
		t.Errorf("good: %q", got)
	}
	waitFor(t, "two journal entries", func() bool { return m.Journal().Counts().Total() == 2 })
	bs := m.Journal().CountsByServer()
	if bs["good"][question.Decline] != 1 || bs["flaky"][question.Accept] != 1 {
		t.Errorf("journal by server %v", bs)
	}
	// Reconnect a live server: a new session replaces the old.
	old := m.Session("good")
	if err := m.Reconnect(t.Context(), "good"); err != nil {
		t.Fatal(err)
	}
	if s := m.Session("good"); s == nil || s == old {
		t.Errorf("session after reconnect %p (old %p)", s, old)
	}
	if !errors.Is(old.Err(), client.ErrClosed) {
		t.Errorf("old session Err %v", old.Err())
	}
	if err := m.Remove("good"); err != nil {
		t.Fatal(err)
	}
	if err := m.Reconnect(t.Context(), "good"); !errors.Is(err, client.ErrUnknownServer) {
		t.Errorf("reconnect removed server: %v", err)
	}
	s := m.Session("flaky")
	_ = m.Close()
	<-s.Done()
	if st := m.Status(); len(st) != 1 || st[0].State != client.StateClosed {
		t.Errorf("status after Close %+v", st)
	}
}

func TestManagerRemembersTheEra(t *testing.T) {
	t.Parallel()
	oldRec, newRec := &recorder{}, &recorder{}
	m := client.NewManager(nil)
	old := &serverTransport{srv: newBookServer(legacyOpts(nil)), obs: oldRec}
	modern := &serverTransport{srv: newBookServer(nil), obs: newRec}
	defer old.wg.Wait()
	defer modern.wg.Wait()
	defer m.Close()
	if err := m.Add(t.Context(), "old", old, nil); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(t.Context(), "new", modern, nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"old", "new"} {
		if err := m.Reconnect(t.Context(), name); err != nil {
			t.Fatal(err)
		}
	}
	st := m.Status()
	if st[0].Era != "2025-11-25 stateful" || st[1].Era != "2026-07-28 stateless" || st[1].Protocol != "2026-07-28" {
		t.Errorf("status %+v", st)
	}
	count := func(r *recorder, method string) int {
		n := 0
		for _, x := range r.methods() {
			if x == method {
				n++
			}
		}
		return n
	}
	// The stateful server was probed once; the reconnect went straight to
	// initialize. The stateless one needs server/discover every time.
	if d, i := count(oldRec, "server/discover"), count(oldRec, "initialize"); d != 1 || i != 2 {
		t.Errorf("old server: %d discover, %d initialize; want 1, 2", d, i)
	}
	if d, i := count(newRec, "server/discover"), count(newRec, "initialize"); d != 2 || i != 0 {
		t.Errorf("new server: %d discover, %d initialize; want 2, 0", d, i)
	}
}

// TestManagerSessionAtReady: an observer that asks for the session as
// soon as it hears "ready" (as the UI does, to fetch the lists) finds it:
// ready is not announced before the Manager holds the session, on the
// first connection and on a reconnect.
func TestManagerSessionAtReady(t *testing.T) {
	t.Parallel()
	var m *client.Manager
	heard := make(chan bool, 1) // per ready event: did the Manager hold the session
	m = client.NewManager(&client.ManagerOptions{Observer: client.ObserverFunc(func(e client.Event) {
		if sc, ok := e.(client.ServerStateChanged); ok && sc.State == client.StateReady {
			heard <- m.Session(sc.Server) != nil
		}
	})})
	srv := &serverTransport{srv: newAskServer(nil)}
	defer srv.wg.Wait()
	defer m.Close()
	if err := m.Add(t.Context(), "s", srv, &client.Options{Prompter: question.DeclineAll}); err != nil {
		t.Fatal(err)
	}
	// The race is narrow (the dispatcher against Connect's return), so
	// it is run many times: before the fix most runs lost it at least once.
	early := 0
	for i := range 200 {
		if i > 0 {
			if err := m.Reconnect(t.Context(), "s"); err != nil {
				t.Fatal(err)
			}
		}
		select {
		case held := <-heard:
			if !held {
				early++
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("connection %d: no ready event", i)
		}
	}
	if early > 0 {
		t.Errorf("%d of 200 connections announced ready before the Manager held the session", early)
	}
}
