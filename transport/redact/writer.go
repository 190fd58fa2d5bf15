package redact

import (
	"bytes"
	"io"
	"sync"
)

// Writer redacts everything written through it with a Secrets before it
// reaches w: the one place stdout and stderr of a command pass, so
// nothing printed (a failure's message, a server's stderr line, the JSON
// of a result) shows a secret the process holds.
//
// A secret may be cut across two writes (a buffered writer flushes where
// its buffer is full): the end of a write that could begin a secret is
// held back until the next write tells, and Flush lets it go. Nothing
// else is held, so a line that ends a write is out at once.
type Writer struct {
	s  *Secrets
	mu sync.Mutex
	w  io.Writer
	// held is the end of the last write that is the beginning of a
	// secret.
	held []byte
}

// Writer returns a Writer onto w that redacts with s.
func (s *Secrets) Writer(w io.Writer) *Writer { return &Writer{s: s, w: w} }

// Unwrap is the writer w writes on: a caller asking whether it writes to
// a terminal looks through the redaction.
func (w *Writer) Unwrap() io.Writer { return w.w }

// Secrets is the set the Writer redacts with.
func (w *Writer) Secrets() *Secrets { return w.s }

// Write redacts p (with what was held) and writes it on, but for an end
// that may begin a secret. It reports len(p) once written.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	buf := p
	if len(w.held) > 0 {
		buf = append(w.held, p...)
		w.held = nil
	}
	out := w.s.Bytes(buf)
	keep := partial(out, w.s.snapshot())
	if keep > 0 {
		w.held = bytes.Clone(out[len(out)-keep:])
		out = out[:len(out)-keep]
	}
	if len(out) == 0 {
		return len(p), nil
	}
	if _, err := w.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what was held back.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.held) == 0 {
		return nil
	}
	held := w.held
	w.held = nil
	_, err := w.w.Write(held)
	return err
}

// partial is the length of the longest end of b that is the beginning
// (not the whole) of one of forms.
func partial(b []byte, forms []string) int {
	longest := 0
	for _, f := range forms {
		for i := max(len(b)-len(f)+1, 0); i < len(b)-longest; i++ {
			if b[i] == f[0] && len(b)-i < len(f) && f[:len(b)-i] == string(b[i:]) {
				longest = max(longest, len(b)-i)
				break
			}
		}
	}
	return longest
}
