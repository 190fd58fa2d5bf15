package attach

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// ErrDisconnected: the connection to the hub ended without its exit
// frame (the hub died or was killed); elicit attach exits 3 with it.
var ErrDisconnected = errors.New("disconnected: the hub went away")

// Terminal is the attaching side's terminal. In and Out are the keys
// and the screen; Raw, when set, puts the terminal in raw mode and
// returns what restores it; Size reads its size and Resized says when it
// changed (SIGWINCH).
type Terminal struct {
	In      io.Reader
	Out     io.Writer
	Raw     func() (restore func(), err error)
	Size    func() (w, h int, err error)
	Resized <-chan struct{}
}

// detachWait bounds how long a client told to stop (SIGTERM, SIGHUP)
// waits for the hub's exit frame before it lets go anyway.
const detachWait = 2 * time.Second

// resetModes is what a TUI turns on that a terminal must not be left
// in, written when the hub could not say goodbye (it died): leave the
// alternate screen, show the cursor, stop mouse, focus and paste
// reports, pop the keyboard enhancements, reset modifyOtherKeys and the
// colours.
const resetModes = "\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l\x1b[<u\x1b[>4;0m\x1b[0m\r\n"

// Run forwards t to the TUI at the other end of conn until the TUI ends
// (the person quit it: Run returns the hub's exit line), ctx ends (the
// command was told to stop: it detaches, leaving the session running),
// or the connection ends without an exit frame (ErrDisconnected). r
// reads conn past the handshake (ReadReply's reader). The terminal is
// restored on every way out. Run closes conn.
//
// A read of t.In in progress when Run returns is left to the process's
// exit: a terminal's read cannot be interrupted portably.
func Run(ctx context.Context, conn io.ReadWriteCloser, r io.Reader, t Terminal) (exitLine string, err error) {
	if t.Raw != nil {
		restore, err := t.Raw()
		if err != nil {
			_ = conn.Close()
			return "", fmt.Errorf("attach: raw mode: %w", err)
		}
		defer restore()
	}
	w := &frameConn{w: conn}
	screen := make(chan screenEnd, 1)
	go func() { screen <- copyScreen(r, t.Out) }()
	go copyKeys(t.In, w)
	var end screenEnd
	detached := false
	var giveUp <-chan time.Time
loop:
	for {
		select {
		case end = <-screen:
			break loop
		case <-t.Resized:
			if t.Size == nil {
				continue
			}
			if width, height, err := t.Size(); err == nil {
				_ = w.frame(frameResize, resizePayload(width, height))
			}
		case <-ctx.Done():
			if !detached {
				detached = true
				_ = w.frame(frameDetach, nil)
				giveUp = time.After(detachWait)
			}
		case <-giveUp:
			_ = conn.Close()
			end = <-screen
			break loop
		}
	}
	_ = conn.Close()
	if end.exit {
		return end.line, nil
	}
	// The hub did not restore the terminal's modes: do it here.
	_, _ = io.WriteString(t.Out, resetModes)
	if detached {
		return "", nil
	}
	if end.err != nil && !errors.Is(end.err, io.EOF) {
		return "", fmt.Errorf("%w (%v)", ErrDisconnected, end.err)
	}
	return "", ErrDisconnected
}

// screenEnd is how the hub's side of the stream ended: its exit frame
// (with its line), or an error.
type screenEnd struct {
	exit bool
	line string
	err  error
}

// copyScreen writes the hub's data frames to out until its exit frame
// or the connection's end.
func copyScreen(r io.Reader, out io.Writer) screenEnd {
	for {
		f, err := readFrame(r)
		if err != nil {
			return screenEnd{err: err}
		}
		switch f.kind {
		case frameData:
			if _, err := out.Write(f.payload); err != nil {
				return screenEnd{err: fmt.Errorf("attach: write the screen: %w", err)}
			}
		case frameExit:
			return screenEnd{exit: true, line: plain(string(f.payload))}
		default:
			return screenEnd{err: fmt.Errorf("%w: type %q from the hub", errBadFrame, f.kind)}
		}
	}
}

// copyKeys sends what is typed as data frames until the input or the
// connection ends; at the input's end it detaches.
func copyKeys(in io.Reader, w *frameConn) {
	buf := make([]byte, 4096)
	for {
		n, err := in.Read(buf)
		if n > 0 {
			if w.frame(frameData, buf[:n]) != nil {
				return
			}
		}
		if err != nil {
			_ = w.frame(frameDetach, nil)
			return
		}
	}
}

// plain drops control characters from a line the hub sends for the
// terminal (its own words, but they reach a terminal).
func plain(s string) string {
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return -1
		}
		return r
	}, s)
}

// frameConn serialises frame writes from the key copier and Run.
type frameConn struct {
	mu sync.Mutex
	w  io.Writer
}

func (c *frameConn) frame(kind byte, payload []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return writeFrame(c.w, kind, payload)
}
