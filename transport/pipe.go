package transport

import (
	"errors"
	"io"
)

// Pipe returns two connected in-memory Conns, for tests: what one writes
// the other reads, framed exactly as on stdio. obs sees the client side's
// frames (Out = client to server); the server side reports nothing.
//
// Closing either end makes the other's Read return an error wrapping
// io.EOF, as a server process going away would.
func Pipe(obs Observer) (client, server Conn) {
	client, serverR, serverW := PipeIO(obs)
	return client, NewStream(serverR, serverW, closers{serverR, serverW}, nil)
}

// PipeIO is Pipe with the server end handed out raw, so that a server
// library can sit there, for example the go-sdk's
// mcp.IOTransport{Reader: serverR, Writer: serverW}. The server must close
// both when it is done (IOTransport does).
func PipeIO(obs Observer) (client Conn, serverR io.ReadCloser, serverW io.WriteCloser) {
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	return NewStream(s2cR, c2sW, closers{s2cR, c2sW}, obs), c2sR, s2cW
}

// closers closes each of its members, reporting every failure.
type closers []io.Closer

func (cs closers) Close() error {
	var errs []error
	for _, c := range cs {
		if err := c.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
