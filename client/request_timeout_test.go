package client_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Timeouts of the engine (the package doc, Timeouts), against
// hand-driven peers over transport.Pipe inside synctest bubbles:
// the clocks are fake, so a minute passes at once and the bounds can be
// checked exactly.

// awaitMethod reads sc until a message of method comes, with no deadline
// of its own (peer.read has one, of real-time length, which fake time
// would reach before the timeouts under test).
func awaitMethod(t *testing.T, sc transport.Conn, method string) *jsonrpc.Message {
	t.Helper()
	for {
		m, err := msgOf(sc.Read(context.Background()))
		if err != nil {
			t.Fatalf("waiting for %s: %v", method, err)
		}
		if m.Method == method {
			return m
		}
	}
}

// errAsync runs f in the background and hands back its error.
func errAsync(f func() error) chan error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	return done
}

// checkTimedOut fails unless err says it timed out, wrapping ErrTimeout
// and naming each of words.
func checkTimedOut(t *testing.T, err error, words ...string) {
	t.Helper()
	if !errors.Is(err, client.ErrTimeout) {
		t.Fatalf("error %v does not wrap ErrTimeout", err)
	}
	for _, w := range append(words, "timed out") {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}

// TestConnectTimeoutInitializeNeverAnswered: a server that refuses the
// probe and never answers initialize fails Connect at the default connect
// timeout, naming initialize.
func TestConnectTimeoutInitializeNeverAnswered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cc, sc := transport.Pipe(nil)
		go func() {
			for { // refuse server/discover, read initialize, answer nothing
				if _, err := readSkippingProbe(sc); err != nil {
					return
				}
			}
		}()
		start := time.Now()
		s, err := client.Connect(context.Background(), connTransport{cc}, &client.Options{Name: "mute"})
		if s != nil {
			t.Fatal("Connect to a server that never answers initialize succeeded")
		}
		if d := time.Since(start); d != client.DefaultConnectTimeout {
			t.Errorf("Connect failed after %v, want the connect timeout %v", d, client.DefaultConnectTimeout)
		}
		checkTimedOut(t, err, "connect to mute", "initialize", "30s")
		_ = sc.Close()
	})
}
