package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
)

// serveDeaf is a raw stdio server that answers initialize, asks one
// question once initialized, and from then on reads its stdin no more, as
// a hung server would, until it is stopped.
func serveDeaf() {
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(line, &m)
		switch m.Method {
		case "initialize":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"deaf","version":"1"}}}`+"\n", m.ID)
		case "notifications/initialized":
			fmt.Println(`{"jsonrpc":"2.0","id":"q1","method":"elicitation/create","params":{"message":"question deaf","requestedSchema":{"type":"object","properties":{"answer":{"type":"string"}}}}}`)
			time.Sleep(time.Hour) // a deliberately deaf peer: SIGTERM ends it
			return
		}
	}
}

// TestDeafServerWritesEnd: a stdio server (a real subprocess, over the
// real transport) stops reading its stdin after the handshake. A call
// whose request is longer than the pipe holds sticks mid-line; it ends
// with its ctx all the same (cancelled once the line started going out).
// The person's answer to the server's question, written after it, waits
// for the turn only Options.WriteTimeout: it is journalled Undelivered,
// saying it timed out. Close then stops the server and every goroutine
// (goleak).
func TestDeafServerWritesEnd(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	g := newGate(answerFromMessage)
	opts := &client.Options{
		Name:           "deaf",
		Protocol:       "2025-11-25",
		Prompter:       g,
		RequestTimeout: time.Hour,
		WriteTimeout:   200 * time.Millisecond,
		Observer:       rec,
	}
	writing := make(chan struct{}, 1) // the long line started going out
	bigOut := transport.ObserverFuncs{OnFrame: func(f transport.Frame) {
		if f.Dir == transport.Out && len(f.Raw) > 1<<20 {
			writing <- struct{}{}
		}
	}}
	tr := &transport.Stdio{
		Command:       os.Args[0],
		Args:          []string{"-test.run=^$"},
		Env:           []string{serverEnv + "=deaf", "GORACE=atexit_sleep_ms=0"},
		Observer:      bigOut,
		ShutdownGrace: 100 * time.Millisecond,
	}
	s, err := client.Connect(t.Context(), tr, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	g.waitOpen(t, "question deaf")

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := s.CallTool(ctx, "any", map[string]string{"data": strings.Repeat("x", 4<<20)}, nil) // the pipe holds 1 MiB
		errc <- err
	}()
	<-writing
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("call ended with %v, want context.Canceled", err)
		}
	case <-time.After(4 * liveness):
		t.Fatal("the call still waits on a server that does not read")
	}

	g.release("question deaf")
	e := waitJournal(t, s, 1)[0]
	if e.Kind != question.Undelivered || !strings.Contains(e.Reason, "timed out") {
		t.Fatalf("journal %+v, want Undelivered saying it timed out", e)
	}
}
