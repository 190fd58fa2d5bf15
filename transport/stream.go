package transport

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// DefaultLineLimit is the largest incoming line (one JSON-RPC message) a
// stream accepts. MCP servers return whole files and images inline, so it is
// generous; it exists only so a server that never writes a newline cannot
// make us buffer without end.
const DefaultLineLimit = 64 << 20

// messageLimit is limit, or DefaultLineLimit if it is not positive.
func messageLimit(limit int) int {
	if limit <= 0 {
		return DefaultLineLimit
	}
	return limit
}

// errLineTooLong is reported (wrapped) on the Frame of an oversized line.
var errLineTooLong = errors.New("transport: line too long")

// rawPrefix is how much of an oversized line is shown in its Frame.
const rawPrefix = 4 << 10

// NewStream returns a Conn that speaks newline-delimited JSON-RPC over r and
// w, as the stdio transport does: one message per line, CRLF tolerated,
// blank lines skipped. Lines up to DefaultLineLimit are accepted; a longer
// one is reported to obs as a Frame with Err set and skipped (an answer
// whose id shows in its start still ends its call, see Conn).
//
// Close closes c, which must make a pending Read of r return (closing the
// read end of a pipe does), and a pending Write of w too (closing the write
// end does): a line whose Write gave up with its ctx is still being
// written, and ends only so if the peer never reads it. c may be nil, in
// which case Close cannot interrupt a Read of r or a Write of w that is
// already under way and does not wait for it.
// obs may be nil.
//
// When r reaches EOF, Read returns an error wrapping io.EOF: the peer went
// away. After Close, Read returns an error wrapping ErrClosed.
func NewStream(r io.Reader, w io.Writer, c io.Closer, obs Observer) Conn {
	return newStream(r, w, c, obs, streamOptions{})
}

// NewStreamLimit is NewStream with a different line limit; limit <= 0
// means DefaultLineLimit.
func NewStreamLimit(r io.Reader, w io.Writer, c io.Closer, obs Observer, limit int) Conn {
	return newStream(r, w, c, obs, streamOptions{lineLimit: limit})
}

// streamOptions carries what other transports built on a stream (Stdio)
// need to change.
type streamOptions struct {
	lineLimit int // 0 means DefaultLineLimit
	// onEOF builds the error Read returns once r is exhausted; done is
	// closed when the stream is closed meanwhile. nil means a plain
	// "server closed the connection" error wrapping io.EOF.
	onEOF func(done <-chan struct{}) error
}

// stream is the Conn returned by NewStream.
type stream struct {
	w     io.Writer
	c     io.Closer
	obs   Observer
	onEOF func(done <-chan struct{}) error

	// wsem is a one-slot semaphore serialising writes; a channel rather
	// than a mutex so that waiting for it honours ctx and Close.
	wsem chan struct{}

	msgs       chan Inbound  // unbuffered: every message sent is received before readerDone
	readerDone chan struct{} // closed when the reader goroutine ends
	termErr    error         // why the reader ended; written before readerDone is closed

	done      chan struct{} // closed by Close
	closeOnce sync.Once
	closeErr  error
}

func newStream(r io.Reader, w io.Writer, c io.Closer, obs Observer, opts streamOptions) *stream {
	if obs == nil {
		obs = ObserverFuncs{}
	}
	limit := opts.lineLimit
	if limit <= 0 {
		limit = DefaultLineLimit
	}
	s := &stream{
		w:          w,
		c:          c,
		obs:        obs,
		onEOF:      opts.onEOF,
		wsem:       make(chan struct{}, 1),
		msgs:       make(chan Inbound),
		readerDone: make(chan struct{}),
		done:       make(chan struct{}),
	}
	go s.readLoop(bufio.NewReaderSize(r, 64<<10), limit)
	return s
}

// errClosed is what Read and Write return after Close.
func errClosed(op string) error { return fmt.Errorf("transport: %s: %w", op, ErrClosed) }

// Read returns the next message from the peer. See Conn.
func (s *stream) Read(ctx context.Context) (Inbound, error) {
	// Checked first so that Read after Close never hands out a message that
	// happened to be ready.
	select {
	case <-s.done:
		return Inbound{}, errClosed("read")
	default:
	}
	select {
	case in := <-s.msgs:
		return in, nil
	case <-s.readerDone:
		return Inbound{}, s.termErr
	case <-s.done:
		return Inbound{}, errClosed("read")
	case <-ctx.Done():
		return Inbound{}, fmt.Errorf("transport: read: %w", ctx.Err())
	}
}

// Write sends m as one line. Concurrent Writes are serialised; waiting for
// the turn honours ctx, and so does the write itself: once the bytes start
// going out they are written whole (a half-written line would corrupt the
// stream), but if ctx ends first, Write returns and the rest of the line
// goes out in the background, keeping the turn, until the server reads it
// or Close ends it. A server that stops reading its stdin must not hold
// the writer for ever. A stream has no headers: opts.Headers are ignored.
func (s *stream) Write(ctx context.Context, m *jsonrpc.Message, _ *WriteOptions) error {
	b, err := jsonrpc.Encode(m)
	if err != nil {
		return fmt.Errorf("transport: write: %w", err)
	}
	select {
	case s.wsem <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("transport: write: %w", ctx.Err())
	case <-s.done:
		return errClosed("write")
	}
	select {
	case <-s.done:
		<-s.wsem
		return errClosed("write")
	default:
	}
	if err := ctx.Err(); err != nil {
		<-s.wsem
		return fmt.Errorf("transport: write: %w", err)
	}
	// Reported under the write lock so the log order is the wire order. The
	// three-index slice keeps the newline appended below out of the
	// observer's view even if append reuses b's array.
	s.obs.Frame(Frame{Time: time.Now(), Dir: Out, Raw: b[:len(b):len(b)]})
	line := append(b, '\n')
	if ctx.Done() == nil { // nothing to return early for
		err := s.writeLine(line)
		<-s.wsem
		return err
	}
	done := make(chan error, 1)
	go func() {
		err := s.writeLine(line)
		<-s.wsem // the turn passes once the whole line is out
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("transport: write: %w (the server is not reading; the line goes on in the background)", ctx.Err())
	}
}

// writeLine writes one whole line; called holding the turn.
func (s *stream) writeLine(line []byte) error {
	if _, err := s.w.Write(line); err != nil {
		select {
		case <-s.done:
			return errClosed("write")
		default:
		}
		return fmt.Errorf("transport: write: %w", err)
	}
	return nil
}

// Close closes the stream and its closer, and waits for the reader to end.
// It is safe to call more than once and from many goroutines; later calls
// wait for the first and return its result.
func (s *stream) Close() error {
	s.closeOnce.Do(func() {
		close(s.done)
		if s.c == nil {
			return
		}
		if err := s.c.Close(); err != nil {
			s.closeErr = fmt.Errorf("transport: close: %w", err)
		}
		<-s.readerDone
	})
	return s.closeErr
}

// readLoop reads lines until r fails, reporting each to the observer and
// handing decoded messages to Read.
func (s *stream) readLoop(br *bufio.Reader, limit int) {
	defer close(s.readerDone)
	for {
		line, size, err := readLine(br, limit)
		// A last line cut short by EOF is still a frame (the peer may just
		// omit the final newline); one cut short by a failed read is not.
		if (len(line) > 0 || size > 0) && (err == nil || errors.Is(err, io.EOF)) {
			if !s.deliver(line, size, limit) {
				s.termErr = errClosed("read")
				return
			}
		}
		if err != nil {
			s.termErr = s.endError(err)
			return
		}
	}
}

// deliver reports one line and hands each message in it (one, or a
// batch's) to Read; an undecodable response, or one too large, as the end
// of its request (see Conn). It returns false if the stream was closed
// while waiting for Read.
func (s *stream) deliver(line []byte, size, limit int) bool {
	now := time.Now()
	if size > limit {
		s.obs.Frame(Frame{Time: now, Dir: In, Raw: line,
			Err: fmt.Errorf("%w: %d bytes exceed the limit of %d; skipped (first %d bytes shown)",
				errLineTooLong, size, limit, len(line))})
		for _, in := range tooLargeReplies(line, size, limit, now) {
			if !s.send(in) {
				return false
			}
		}
		return true
	}
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if len(bytes.TrimSpace(line)) == 0 {
		return true // blank lines are not frames
	}
	for _, p := range jsonrpc.DecodeFrame(line) {
		s.obs.Frame(Frame{Time: now, Dir: In, Raw: p.Raw, Err: p.Err})
		in := Inbound{Msg: p.Msg, Received: now}
		if p.Err != nil {
			var ok bool
			if in, ok = undecodableReply(p.Err, now); !ok {
				continue
			}
		}
		if !s.send(in) {
			return false
		}
	}
	return true
}

// send hands in to Read; false if the stream was closed meanwhile.
func (s *stream) send(in Inbound) bool {
	select {
	case s.msgs <- in:
		return true
	case <-s.done:
		return false
	}
}

// endError turns the error that ended reading into the one Read returns.
func (s *stream) endError(err error) error {
	select {
	case <-s.done:
		return errClosed("read")
	default:
	}
	if errors.Is(err, io.EOF) {
		if s.onEOF != nil {
			return s.onEOF(s.done)
		}
		return fmt.Errorf("transport: server closed the connection: %w", io.EOF)
	}
	return fmt.Errorf("transport: read: %w", err)
}

// readLine returns the next line without its '\n', as a fresh slice the
// caller may keep. size is the line's full length; when it exceeds limit
// the rest of the line has been discarded and line holds only a prefix of
// rawPrefix bytes. A final line without a newline is returned together
// with io.EOF.
func readLine(br *bufio.Reader, limit int) (line []byte, size int, err error) {
	// A line longer than the reader's buffer is kept as copies of its
	// chunks and joined once, into an array of exactly its length: grown by
	// append, a 16 MiB line was copied some twenty times (append grows large
	// slices by a quarter) and kept up to a quarter unused, in the frame
	// that a decoded result's Raw is a slice of.
	var parts [][]byte
	for {
		var chunk []byte
		chunk, err = br.ReadSlice('\n')
		if err == nil {
			chunk = chunk[:len(chunk)-1]
		}
		if parts == nil && line == nil && err == nil && len(chunk) <= limit {
			// Fast path: the whole line was in the buffer.
			return bytes.Clone(chunk), len(chunk), nil
		}
		size += len(chunk)
		switch {
		case size <= limit:
			parts = append(parts, bytes.Clone(chunk))
		default:
			if parts != nil {
				line, parts = joinChunks(parts, rawPrefix), nil // its start, in an array of its own
			}
			if len(line) < rawPrefix {
				line = append(line, chunk[:min(len(chunk), rawPrefix-len(line))]...)
			}
		}
		if err != bufio.ErrBufferFull {
			if parts != nil {
				line = joinChunks(parts, size)
			}
			return line, size, err
		}
	}
}

// joinChunks joins the first n bytes of chunks into one array of that
// length.
func joinChunks(chunks [][]byte, n int) []byte {
	total := 0
	for _, c := range chunks {
		total += len(c)
	}
	out := make([]byte, 0, min(n, total))
	for _, c := range chunks {
		out = append(out, c[:min(len(c), cap(out)-len(out))]...)
	}
	return out
}
