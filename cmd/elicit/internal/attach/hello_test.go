package attach

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// TestHelloCheck: what the hub takes from the client is bounded and
// plain before it reaches the TUI's environment or the renderer.
func TestHelloCheck(t *testing.T) {
	good := hello80x24()
	if err := good.Check(); err != nil {
		t.Fatalf("a good hello: %v", err)
	}
	for name, bad := range map[string]func(*Hello){
		"no session":       func(h *Hello) { h.Session = "" },
		"long session":     func(h *Hello) { h.Session = strings.Repeat("s", 129) },
		"escape in name":   func(h *Hello) { h.Session = "s\x1b[2J" },
		"escape in TERM":   func(h *Hello) { h.Term = "xterm\x1b]0;pwned\x07" },
		"space in TERM":    func(h *Hello) { h.Term = "xterm 256" },
		"long COLORTERM":   func(h *Hello) { h.ColorTerm = strings.Repeat("t", 65) },
		"escape in theme":  func(h *Hello) { h.Theme = "charm\x1b[2J" },
		"unknown profile":  func(h *Hello) { h.Profile = "Sixel" },
		"no profile given": func(h *Hello) { h.Profile = "" },
	} {
		h := hello80x24()
		bad(&h)
		if err := h.Check(); err == nil {
			t.Errorf("%s: accepted %+v", name, h)
		}
	}
	h := hello80x24()
	h.Width, h.Height = 0, 1_000_000
	if err := h.Check(); err != nil || h.Width != 1 || h.Height != maxSize {
		t.Fatalf("size clamped to %dx%d (%v), want 1x%d", h.Width, h.Height, err, maxSize)
	}
	h = hello80x24()
	h.NoColor = true
	if h.profile().String() != "Ascii" || !slices.Contains(h.Environ(), "NO_COLOR=1") || h.Getenv("NO_COLOR") == "" {
		t.Fatalf("NO_COLOR not carried: %v %v", h.profile(), h.Environ())
	}
}

// TestReadFrameRefusesBadFrames: a frame no peer of ours sends, or one
// that would make the reader allocate without bound, is refused before
// its payload is read.
func TestReadFrameRefusesBadFrames(t *testing.T) {
	head := func(kind byte, n uint32) []byte {
		b := []byte{kind, 0, 0, 0, 0}
		binary.BigEndian.PutUint32(b[1:], n)
		return b
	}
	for name, in := range map[string][]byte{
		"unknown type":   head('z', 0),
		"huge data":      head(frameData, maxPayload+1),
		"long resize":    head(frameResize, 5),
		"detach payload": head(frameDetach, 1),
		"cut short":      append(head(frameData, 10), "abc"...),
		"head cut short": {frameData, 0},
	} {
		if _, err := readFrame(bytes.NewReader(in)); err == nil {
			t.Errorf("%s: read as a frame", name)
		}
	}
	var buf bytes.Buffer
	if err := writeFrame(&buf, frameData, make([]byte, maxPayload+1)); err == nil {
		t.Fatal("wrote a frame over the bound")
	}
	if err := writeFrame(&buf, frameResize, resizePayload(120, 40)); err != nil {
		t.Fatal(err)
	}
	f, err := readFrame(&buf)
	if err != nil || f.kind != frameResize {
		t.Fatalf("resize frame: %+v %v", f, err)
	}
	if w, h := sizeOf(f.payload); w != 120 || h != 40 {
		t.Fatalf("size %dx%d", w, h)
	}
	if _, err := readFrame(&buf); !errors.Is(err, io.EOF) {
		t.Fatalf("at the end: %v, want io.EOF", err)
	}
}
