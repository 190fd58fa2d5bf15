package attach

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Frame types. Data carries terminal bytes (keys one way, the screen the
// other), resize a new size (two big-endian uint16: width, height),
// detach the client's wish to leave (its process was told to stop), and
// exit the hub's last word: the program ended, with a line for the
// client to print.
const (
	frameData   byte = 'd'
	frameResize byte = 'r'
	frameDetach byte = 'q'
	frameExit   byte = 'x'
)

// maxPayload bounds one frame, so a broken or hostile peer cannot make
// the other allocate without limit; writers split larger writes.
const maxPayload = 1 << 20

// dataChunk is the most terminal bytes one data frame carries.
const dataChunk = 32 << 10

// frame is one message on the connection after the handshake.
type frame struct {
	kind    byte
	payload []byte
}

// writeFrame writes f as one write, so frames from two goroutines
// under one lock never interleave.
func writeFrame(w io.Writer, kind byte, payload []byte) error {
	if len(payload) > maxPayload {
		return fmt.Errorf("attach: frame of %d bytes (at most %d)", len(payload), maxPayload)
	}
	buf := make([]byte, 5+len(payload))
	buf[0] = kind
	binary.BigEndian.PutUint32(buf[1:5], uint32(len(payload)))
	copy(buf[5:], payload)
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("attach: write frame: %w", err)
	}
	return nil
}

// errBadFrame is a frame no peer of ours sends.
var errBadFrame = errors.New("attach: bad frame")

// readFrame reads one frame; io.EOF only when the connection ended
// between frames.
func readFrame(r io.Reader) (frame, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return frame{}, fmt.Errorf("attach: frame cut short: %w", err)
		}
		return frame{}, err
	}
	n := binary.BigEndian.Uint32(head[1:5])
	switch head[0] {
	case frameData, frameExit:
	case frameResize:
		if n != 4 {
			return frame{}, fmt.Errorf("%w: resize of %d bytes", errBadFrame, n)
		}
	case frameDetach:
		if n != 0 {
			return frame{}, fmt.Errorf("%w: detach of %d bytes", errBadFrame, n)
		}
	default:
		return frame{}, fmt.Errorf("%w: type %#x", errBadFrame, head[0])
	}
	if n > maxPayload {
		return frame{}, fmt.Errorf("%w: %d bytes (at most %d)", errBadFrame, n, maxPayload)
	}
	f := frame{kind: head[0], payload: make([]byte, n)}
	if _, err := io.ReadFull(r, f.payload); err != nil {
		return frame{}, fmt.Errorf("attach: frame cut short: %w", err)
	}
	return f, nil
}

// resizePayload is a resize frame's payload.
func resizePayload(w, h int) []byte {
	var b [4]byte
	binary.BigEndian.PutUint16(b[0:2], uint16(clampSize(w)))
	binary.BigEndian.PutUint16(b[2:4], uint16(clampSize(h)))
	return b[:]
}

// sizeOf reads a resize frame's payload.
func sizeOf(p []byte) (w, h int) {
	return clampSize(int(binary.BigEndian.Uint16(p[0:2]))), clampSize(int(binary.BigEndian.Uint16(p[2:4])))
}

// maxSize bounds a terminal's side: a size is the peer's word, and the
// renderer allocates a cell buffer of width × height.
const maxSize = 1000

// clampSize keeps a side within 1..maxSize.
func clampSize(n int) int { return min(max(n, 1), maxSize) }
