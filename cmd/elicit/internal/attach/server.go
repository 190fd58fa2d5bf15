package attach

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
)

// ServeOptions tune Serve; the zero value is what the hub uses.
type ServeOptions struct {
	// WriteTimeout bounds one write of the screen to the client (10 s): a
	// client that stops reading (its process stopped, its terminal
	// wedged) is let go rather than holding the TUI, and with it the
	// session's events, for ever.
	WriteTimeout time.Duration
	// FPS is the renderer's most frames a second (20, as the TUI's
	// default --fps).
	FPS int
	// Exit is the line the client prints once its terminal is restored
	// (nil or "" says nothing), asked once the program has ended: the
	// program's end says which (the person quit, the session stopped).
	Exit func() string
	// Output, when set, wraps what the program writes to (cmd/elicit's
	// frame governor watches it).
	Output func(io.Writer) io.Writer
}

// deadliner is what a net.Conn has to bound a write.
type deadliner interface{ SetWriteDeadline(time.Time) error }

// Serve runs m as a tea.Program on the terminal at the other end of conn,
// whose Hello h has been checked and answered, until the program quits,
// the client detaches or goes, or ctx ends. bind is called with the
// program before it runs (the hub attaches the session's Bridge with
// it: p.Send) and unbind after it has ended. Serve closes conn.
func Serve(ctx context.Context, conn io.ReadWriteCloser, r io.Reader, h Hello, m tea.Model, bind func(*tea.Program), unbind func(), opts ServeOptions) error {
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = 10 * time.Second
	}
	if opts.FPS <= 0 {
		opts.FPS = 20
	}
	if r == nil {
		r = conn
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &screenWriter{conn: conn, timeout: opts.WriteTimeout, broken: cancel}
	keys, keysIn := io.Pipe()
	var screen io.Writer = out
	if opts.Output != nil {
		screen = opts.Output(out)
	}
	p := tea.NewProgram(m,
		tea.WithContext(ctx),
		tea.WithInput(keys),
		tea.WithOutput(screen),
		tea.WithEnvironment(h.Environ()),
		tea.WithColorProfile(h.profile()),
		tea.WithWindowSize(h.Width, h.Height),
		tea.WithFPS(opts.FPS),
		// The hub's signals are the hub's: a SIGTERM to it ends its
		// sessions, not a TUI's frame.
		tea.WithoutSignalHandler(),
	)
	bind(p)
	read := make(chan error, 1)
	go func() { read <- forward(r, keysIn, p, cancel) }()
	_, runErr := p.Run()
	unbind()
	// The program has restored the terminal's modes through out; the
	// exit frame tells the client it may restore the rest.
	line := ""
	if opts.Exit != nil {
		line = opts.Exit()
	}
	exitErr := out.frame(frameExit, []byte(line))
	_ = keys.CloseWithError(io.EOF)
	drainInput(p)
	// Closing conn ends forward's read if the program quit by itself;
	// that read's error is ours, not the client's.
	_ = conn.Close()
	readErr := <-read
	if errors.Is(readErr, net.ErrClosed) || errors.Is(readErr, io.ErrClosedPipe) {
		readErr = nil
	}
	switch {
	case errors.Is(readErr, errGone):
		return nil // a client that goes takes its terminal with it
	case runErr != nil && !errors.Is(runErr, tea.ErrProgramKilled):
		return fmt.Errorf("attach: the TUI: %w", runErr)
	case readErr != nil:
		return readErr
	case out.err() != nil:
		return out.err()
	}
	return exitErr
}

// errGone: the client's connection ended between frames (its process
// died or closed it): not an error, the end of this attach.
var errGone = errors.New("attach: the client went")

// peerWent: the read ended because the client's end closed. A client
// that closes with our frames unread in its socket makes the kernel reset
// the connection instead of ending it: that is the client going too.
func peerWent(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// forward reads the client's frames into the program until the client
// detaches or the connection ends, then quits the program (leave).
func forward(r io.Reader, keys *io.PipeWriter, p *tea.Program, leave func()) error {
	defer leave()
	for {
		f, err := readFrame(r)
		if err != nil {
			if peerWent(err) {
				return errGone
			}
			return err
		}
		switch f.kind {
		case frameData:
			if _, err := keys.Write(f.payload); err != nil {
				return nil // the program has ended
			}
		case frameResize:
			w, h := sizeOf(f.payload)
			p.Send(tea.WindowSizeMsg{Width: w, Height: h})
		case frameDetach:
			p.Quit()
			return nil
		case frameExit:
			return fmt.Errorf("%w: exit from the client", errBadFrame)
		}
	}
}

// screenWriter frames the program's output. The renderer writes lines
// ending "\n" for a terminal that maps it to "\r\n" (bubbletea sets this
// when its input is not a tty, as here), while the client's terminal is
// raw: the writer maps them, as the tty would.
type screenWriter struct {
	conn    io.Writer
	timeout time.Duration
	broken  func()

	mu     sync.Mutex
	failed error
}

func (w *screenWriter) Write(p []byte) (int, error) {
	data := bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))
	for len(data) > 0 {
		n := min(len(data), dataChunk)
		if err := w.frame(frameData, data[:n]); err != nil {
			return 0, err
		}
		data = data[n:]
	}
	return len(p), nil
}

// frame writes one frame, bounded by the timeout; a failed write ends
// the program (broken) and every later write fails at once.
func (w *screenWriter) frame(kind byte, payload []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failed != nil {
		return w.failed
	}
	if d, ok := w.conn.(deadliner); ok {
		_ = d.SetWriteDeadline(time.Now().Add(w.timeout))
	}
	if err := writeFrame(w.conn, kind, payload); err != nil {
		w.failed = err
		w.broken()
		return err
	}
	return nil
}

func (w *screenWriter) err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.failed
}
