package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// hostilePeer is a hand-written server at the far end of transport.PipeIO
// that writes raw bytes: whatever a broken or malicious server could put
// on its stdout. A reader goroutine answers the handshake (server/discover
// refused, initialize with 2025-11-25) and ping, and queues everything
// else for the test.
type hostilePeer struct {
	t testing.TB
	w io.WriteCloser
	r io.ReadCloser

	mu   sync.Mutex // one write at a time, whole lines
	msgs chan *jsonrpc.Message
	done chan struct{}

	// silent makes the peer answer nothing at all, handshake included.
	silent bool
	// pings counts pings answered.
	pings atomic.Int64
}

// newHostilePeer starts the peer and returns the client's end of the pipe.
func newHostilePeer(t testing.TB, obs transport.Observer, silent bool) (*hostilePeer, transport.Conn) {
	conn, sr, sw := transport.PipeIO(obs)
	p := &hostilePeer{t: t, w: sw, r: sr, msgs: make(chan *jsonrpc.Message, 1024), done: make(chan struct{}), silent: silent}
	go p.readLoop()
	t.Cleanup(func() {
		p.close()
		<-p.done
	})
	return p, conn
}

// connectHostile connects a session to a fresh hostile peer.
func connectHostile(t *testing.T, opts *client.Options, rec *recorder) (*client.Session, *hostilePeer) {
	t.Helper()
	var obs transport.Observer
	if rec != nil {
		obs = rec
		if opts.Observer == nil {
			opts.Observer = rec
		}
	}
	if opts.Name == "" {
		opts.Name = "hostile"
	}
	p, conn := newHostilePeer(t, obs, false)
	ctx, cancel := context.WithTimeout(t.Context(), liveness)
	defer cancel()
	s, err := client.Connect(ctx, connTransport{conn}, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, p
}

func (p *hostilePeer) close() {
	_ = p.w.Close()
	_ = p.r.Close()
}

func (p *hostilePeer) readLoop() {
	defer close(p.done)
	defer close(p.msgs)
	br := bufio.NewReaderSize(p.r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return
		}
		m, err := jsonrpc.Decode(line)
		if err != nil {
			p.t.Errorf("the client wrote a bad frame %q: %v", line, err)
			continue
		}
		if p.silent {
			continue
		}
		switch m.Method {
		case "server/discover":
			p.writeMsg(jsonrpc.NewErrorResponse(m.ID, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found", nil)))
			continue
		case "initialize":
			p.writeMsg(&jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"hostile","version":"6.6.6"}}`)})
			continue
		case "notifications/initialized":
			continue
		case "ping":
			p.pings.Add(1)
			p.writeMsg(&jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{}`)})
			continue
		}
		select {
		case p.msgs <- m:
		default:
			p.t.Errorf("hostile peer: queue full, dropped %s", m.Method)
		}
	}
}

// writeRaw writes b and a newline as one line. A write failing because
// the session went away is not the test's failure.
func (p *hostilePeer) writeRaw(b []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.w.Write(append(b, '\n')); err != nil {
		return err
	}
	return nil
}

func (p *hostilePeer) writeMsg(m *jsonrpc.Message) {
	b, err := jsonrpc.Encode(m)
	if err != nil {
		p.t.Errorf("encode: %v", err)
		return
	}
	_ = p.writeRaw(b)
}

// next returns the client's next message other than the handshake and ping.
func (p *hostilePeer) next(method string) *jsonrpc.Message {
	p.t.Helper()
	return p.nextWithin(method, liveness)
}

// nextWithin is next with its own patience.
func (p *hostilePeer) nextWithin(method string, d time.Duration) *jsonrpc.Message {
	p.t.Helper()
	deadline := time.After(d)
	for {
		select {
		case m, ok := <-p.msgs:
			if !ok {
				p.t.Fatalf("the client hung up while the peer waited for %s", method)
			}
			if method == "" || m.Method == method {
				return m
			}
		case <-deadline:
			p.t.Fatalf("no %q from the client within %v", method, d)
			return nil
		}
	}
}

// nextResponse returns the client's next response (to a request of ours)
// within d, skipping its requests and notifications.
func (p *hostilePeer) nextResponse(d time.Duration) *jsonrpc.Message {
	p.t.Helper()
	for {
		if m := p.nextWithin("", d); m.Kind() == jsonrpc.KindResponse {
			return m
		}
	}
}

// respond answers one of our requests with raw result bytes.
func (p *hostilePeer) respond(id jsonrpc.ID, result string) {
	p.writeMsg(&jsonrpc.Message{ID: id, Result: json.RawMessage(result)})
}

// alive checks the session still round-trips a request within d.
func alive(t *testing.T, s *client.Session, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("the session no longer answers: ping: %v", err)
	}
}
