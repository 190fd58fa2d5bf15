package client_test

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
)

// subprocess is this test binary re-run as a go-sdk stdio server (see
// TestMain), spoken to over its real stdin and stdout.
type subprocess struct {
	cmd *exec.Cmd
	obs transport.Observer
}

func (p *subprocess) Dial(context.Context) (transport.Conn, error) {
	stdin, err := p.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	return transport.NewStream(stdout, stdin, closeBoth{stdin, stdout}, p.obs), nil
}

type closeBoth [2]io.Closer

func (c closeBoth) Close() error { return errors.Join(c[0].Close(), c[1].Close()) }

func startSubprocess(t *testing.T, opts *client.Options, rec *recorder) (*client.Session, *exec.Cmd) {
	t.Helper()
	return startServer(t, "ask", opts, rec)
}

// startServer starts this test binary as the server named kind (see
// serverEnv) and connects to it.
func startServer(t *testing.T, kind string, opts *client.Options, rec *recorder) (*client.Session, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serverEnv+"="+kind)
	cmd.Stderr = io.Discard
	opts.Observer = rec
	s, err := client.Connect(t.Context(), &subprocess{cmd: cmd, obs: rec}, opts)
	if err != nil {
		if cmd.Process != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return s, cmd
}

func TestStdioSubprocess(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, _ := startSubprocess(t, &client.Options{Name: "sub", Prompter: question.PrompterFunc(func(_ context.Context, p *question.Question) question.Outcome {
		return answerFromMessage(p)
	})}, rec)
	if s.ServerInfo().Name != "ask-server" {
		t.Errorf("server %+v", s.ServerInfo())
	}
	r := callAll(s, "x", "y")
	for n, ch := range r {
		if got := <-ch; got != n+": accept answer-"+n {
			t.Errorf("%s: %q", n, got)
		}
	}
}

func TestKilledServerDisconnects(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(answerFromMessage)
	s, cmd := startSubprocess(t, &client.Options{Name: "victim", Prompter: g}, rec)
	r := callAll(s, "a", "b")
	g.waitOpen(t, "question a", "question b")
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	killed := time.Now()
	waitFor(t, "both prompts to end", func() bool { return g.cause("question a") != nil && g.cause("question b") != nil })
	if d := time.Since(killed); d > time.Second {
		t.Errorf("prompts ended %v after the kill; want within 1s", d)
	}
	for _, m := range []string{"question a", "question b"} {
		if !errors.Is(g.ended(m), question.ErrDisconnected) {
			t.Errorf("%s: cause %v", m, g.cause(m))
		}
	}
	for n, ch := range r {
		if got := <-ch; !strings.HasPrefix(got, "error") || !strings.Contains(got, question.ErrDisconnected.Error()) {
			t.Errorf("call %s: %q", n, got)
		}
	}
	<-s.Done()
	if c := s.Journal().Counts(); c[question.Disconnected] != 2 || c.Total() != 2 {
		t.Errorf("journal %v", c)
	}
	for _, e := range s.Journal().Entries() {
		if got := rec.responsesTo(e.Key.RequestID.String()); len(got) != 0 {
			t.Errorf("answered %s after the kill: %+v", e.Key, got)
		}
	}
	if out, in := s.Pending(); out != 0 || in != 0 {
		t.Errorf("Pending = %d, %d", out, in)
	}
	ev := waitEvent(t, rec, func(e client.ServerStateChanged) bool { return e.State == client.StateDisconnected })
	if !errors.Is(ev.Err, question.ErrDisconnected) || !errors.Is(s.Err(), question.ErrDisconnected) {
		t.Errorf("state %+v, Err %v", ev, s.Err())
	}
}

func TestStdioSubprocessStateless(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s, _ := startServer(t, "book", &client.Options{Name: "sub", Prompter: question.PrompterFunc(func(_ context.Context, p *question.Question) question.Outcome {
		return answerField(p)
	})}, rec)
	if s.Era() != "2026-07-28 stateless" || s.ServerInfo().Name != "book-server" {
		t.Fatalf("era %q, server %+v", s.Era(), s.ServerInfo())
	}
	res, err := s.CallTool(t.Context(), "book", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Text(); got != "booked confirm=answer-confirm" {
		t.Errorf("result %q", got)
	}
	if c := waitJournal(t, s, 3); len(c) != 3 {
		t.Errorf("journal %+v", c)
	}
}
