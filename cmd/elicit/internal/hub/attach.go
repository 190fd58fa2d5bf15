package hub

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// MethodAttach (elicit attach) turns its connection into a terminal the
// session's TUI draws on: the request line is the only JSON on it; the
// answer and everything after belong to the session's Attach
// (cmd/elicit/internal/attach's handshake and frames).
const MethodAttach = "session/attach"

// Attacher serves one attached terminal on its session: it answers the
// request id (refusing it or not) and runs the TUI on conn, reading it
// through r, until the TUI quits, the terminal goes or ctx ends (the
// session stopped). cmd/elicit sets it (Opened.Attach).
type Attacher func(ctx context.Context, conn net.Conn, r io.Reader, id jsonrpc.ID, params json.RawMessage) error

// attachLine bounds the first line read to tell an attach from the other
// requests; a longer line is another request, passed on whole.
const attachLine = 64 << 10

// firstRequest reads nc's first line and says whether it asks to attach.
// rest reads nc from its start again (the line, then the rest), for
// serveConn when it does not.
func firstRequest(nc net.Conn) (m *jsonrpc.Message, rest io.Reader) {
	br := bufio.NewReaderSize(nc, attachLine)
	line, err := br.ReadSlice('\n')
	rest = io.MultiReader(bytes.NewReader(bytes.Clone(line)), br)
	if err != nil {
		return nil, rest
	}
	if m, err = jsonrpc.Decode(line); err != nil || m.Kind() != jsonrpc.KindRequest || m.Method != MethodAttach {
		return nil, rest
	}
	return m, br
}

// readerConn is a net.Conn whose reads come from r (what firstRequest
// read ahead, then the connection).
type readerConn struct {
	net.Conn
	r io.Reader
}

func (c readerConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// attach hands the connection to the named session's Attacher; the
// session stopping ends it.
func (h *hub) attach(ctx context.Context, nc net.Conn, r io.Reader, m *jsonrpc.Message) {
	refuse := func(e *jsonrpc.Error) {
		if b, err := jsonrpc.Encode(jsonrpc.NewErrorResponse(m.ID, e)); err == nil {
			_, _ = nc.Write(append(b, '\n'))
		}
		nc.Close()
	}
	var p NameParams
	if err := decode(m.Params, &p); err != nil {
		var e *jsonrpc.Error
		if !errors.As(err, &e) {
			e = hubError(ExitUsage, ErrorData{}, "%s", err.Error())
		}
		refuse(e)
		return
	}
	s, err := h.session(p.Session)
	if err != nil {
		refuse(err.(*jsonrpc.Error))
		return
	}
	if s.opened.Attach == nil {
		refuse(hubError(ExitUsage, ErrorData{}, "session %q has no TUI to attach to", p.Session))
		return
	}
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	if err := s.opened.Attach(actx, nc, r, m.ID, m.Params); err != nil {
		fmt.Fprintf(h.cfg.Log, "hub: attach to %s: %v\n", p.Session, err)
	}
}
