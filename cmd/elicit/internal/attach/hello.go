package attach

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/colorprofile"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Method is the hub's JSON-RPC method that turns its connection into an
// attached terminal: the request's params are a Hello; after a result
// (an empty object), the connection carries frames.
const Method = "session/attach"

// Hello is what the attaching terminal tells the hub: which session, and
// what the TUI must know of the terminal it draws on, since it runs in
// another process with another environment.
type Hello struct {
	Session   string `json:"session"`
	Term      string `json:"term,omitempty"`
	ColorTerm string `json:"colorterm,omitempty"`
	// Profile is the terminal's colour profile as the client detected it
	// (colorprofile's names: TrueColor, ANSI256, ANSI, Ascii, NoTTY).
	Profile string `json:"profile"`
	// NoColor: NO_COLOR is set where the client runs.
	NoColor bool `json:"noColor,omitempty"`
	Width   int  `json:"width"`
	Height  int  `json:"height"`
	// Theme is elicit attach --theme ("" = the TUI's default).
	Theme string `json:"theme,omitempty"`
}

// maxHelloLine bounds the handshake's lines.
const maxHelloLine = 64 << 10

// profileNamed is the colour profile a Hello may name.
func profileNamed(name string) (colorprofile.Profile, bool) {
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII, colorprofile.NoTTY} {
		if p.String() == name {
			return p, true
		}
	}
	return colorprofile.Unknown, false
}

// Check validates h as the hub receives it: the strings are the
// client's, and they reach the TUI's environment and the renderer, so
// each is bounded and plain. It clamps the size.
func (h *Hello) Check() error {
	if h.Session == "" || len(h.Session) > 128 || strings.ContainsFunc(h.Session, isControl) {
		return errors.New("attach: the session's name is missing, longer than 128 bytes or has control characters")
	}
	for _, v := range []struct{ name, value string }{{"TERM", h.Term}, {"COLORTERM", h.ColorTerm}, {"--theme", h.Theme}} {
		if len(v.value) > 64 || strings.ContainsFunc(v.value, notTermName) {
			return fmt.Errorf("attach: %s %q is not a name of letters, digits and . _ + -", v.name, v.value)
		}
	}
	if _, ok := profileNamed(h.Profile); !ok {
		return fmt.Errorf("attach: unknown colour profile %q", h.Profile)
	}
	h.Width, h.Height = clampSize(h.Width), clampSize(h.Height)
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// notTermName: TERM values are letters, digits and . _ + -.
func notTermName(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._+-", r))
}

// profile is the checked Hello's colour profile, NO_COLOR applied.
func (h *Hello) profile() colorprofile.Profile {
	p, _ := profileNamed(h.Profile)
	if h.NoColor && p > colorprofile.ASCII {
		p = colorprofile.ASCII
	}
	return p
}

// Environ is the environment the TUI is given: what it reads of the
// terminal (TERM, COLORTERM) and NO_COLOR, from the client.
func (h *Hello) Environ() []string {
	env := []string{"TERM=" + h.Term}
	if h.ColorTerm != "" {
		env = append(env, "COLORTERM="+h.ColorTerm)
	}
	if h.NoColor {
		env = append(env, "NO_COLOR=1")
	}
	return env
}

// Getenv reads Environ, for what takes a getenv (the theme's NO_COLOR).
func (h *Hello) Getenv(name string) string {
	for _, kv := range h.Environ() {
		if k, v, _ := strings.Cut(kv, "="); k == name {
			return v
		}
	}
	return ""
}

// NewHello is the Hello for session from the attaching process: its
// terminal t (the size) and out (the colour profile, detected as the TUI
// would on its own terminal) and its environment.
func NewHello(session string, t Terminal, out io.Writer, environ []string) Hello {
	getenv := func(name string) string {
		for _, kv := range environ {
			if k, v, _ := strings.Cut(kv, "="); k == name {
				return v
			}
		}
		return ""
	}
	h := Hello{Session: session, Term: getenv("TERM"), ColorTerm: getenv("COLORTERM"),
		Profile: colorprofile.Detect(out, environ).String(), NoColor: getenv("NO_COLOR") != "", Width: 80, Height: 24}
	if t.Size != nil {
		if w, ht, err := t.Size(); err == nil {
			h.Width, h.Height = w, ht
		}
	}
	return h
}

// Request writes the handshake's request line for h.
func Request(w io.Writer, h Hello) error {
	msg, err := jsonrpc.NewRequest(jsonrpc.IntID(1), Method, h)
	if err != nil {
		return fmt.Errorf("attach: hello: %w", err)
	}
	b, err := jsonrpc.Encode(msg)
	if err != nil {
		return fmt.Errorf("attach: hello: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("attach: send hello: %w", err)
	}
	return nil
}

// RefusedError is the hub's refusal of a Hello (no such session, one
// attached already): its JSON-RPC error (errors.As finds it, with the
// exit code its data names), printed plain.
type RefusedError struct{ Err *jsonrpc.Error }

func (e *RefusedError) Error() string { return plain(e.Err.Message) }
func (e *RefusedError) Unwrap() error { return e.Err }

// ReadReply reads the hub's reply line. The reader it returns holds
// what was read past the line (nothing, from a hub of ours: it sends no
// frame before its reply is read), so frames are read from it.
func ReadReply(r io.Reader) (*bufio.Reader, error) {
	br := bufio.NewReaderSize(r, 4096)
	line, err := readLine(br)
	if err != nil {
		return nil, fmt.Errorf("attach: read the hub's reply: %w", err)
	}
	msg, err := jsonrpc.Decode(line)
	if err != nil {
		return nil, fmt.Errorf("attach: the hub's reply: %w", err)
	}
	if msg.Error != nil {
		return nil, &RefusedError{Err: msg.Error}
	}
	return br, nil
}

// ReadHello reads a handshake's request line as the hub does, for a hub
// that has not read it itself; the params go to Check.
func ReadHello(r *bufio.Reader) (jsonrpc.ID, Hello, error) {
	line, err := readLine(r)
	if err != nil {
		return jsonrpc.ID{}, Hello{}, fmt.Errorf("attach: read hello: %w", err)
	}
	msg, err := jsonrpc.Decode(line)
	if err != nil {
		return jsonrpc.ID{}, Hello{}, fmt.Errorf("attach: hello: %w", err)
	}
	if msg.Method != Method {
		return msg.ID, Hello{}, fmt.Errorf("attach: hello: method %q, want %q", msg.Method, Method)
	}
	h, err := ParseHello(msg.Params)
	return msg.ID, h, err
}

// ParseHello decodes and checks a Hello from the request's params.
func ParseHello(params json.RawMessage) (Hello, error) {
	var h Hello
	if err := json.Unmarshal(params, &h); err != nil {
		return Hello{}, fmt.Errorf("attach: hello: %w", err)
	}
	if err := h.Check(); err != nil {
		return Hello{}, err
	}
	return h, nil
}

// Reply writes the hub's reply to the request id: a result when refused
// is nil, else the error, whose message the client prints.
func Reply(w io.Writer, id jsonrpc.ID, refused *jsonrpc.Error) error {
	var msg *jsonrpc.Message
	if refused != nil {
		msg = jsonrpc.NewErrorResponse(id, refused)
	} else {
		var err error
		if msg, err = jsonrpc.NewResponse(id, struct{}{}); err != nil {
			return fmt.Errorf("attach: reply: %w", err)
		}
	}
	b, err := jsonrpc.Encode(msg)
	if err != nil {
		return fmt.Errorf("attach: reply: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("attach: reply: %w", err)
	}
	return nil
}

// readLine reads one line of at most maxHelloLine bytes.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxHelloLine {
			return nil, fmt.Errorf("a line over %d bytes", maxHelloLine)
		}
		if err == nil {
			return line, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
	}
}
