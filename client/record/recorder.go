package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Recorder writes one recording. Its methods are safe for concurrent use
// and do nothing on a nil *Recorder, so callers need not ask whether
// --record was given. A write error stops the recording (the session
// goes on) and is returned by Close.
type Recorder struct {
	mu     sync.Mutex
	c      io.Closer
	w      *bufio.Writer
	enc    *json.Encoder // onto line
	line   bytes.Buffer  // one encoded line, redacted before it goes to w
	redact func([]byte) []byte
	now    func() time.Time
	err    error
	closed bool
	seq    int64
	calls  int64
	// counts for the end line
	frames, answers int64
	// open are the calls not ended yet, to tie a question to the call
	// it came during; asked the questions not ended yet. Both hold only
	// what is open, so memory is bounded by the session's concurrency,
	// not its length.
	open  map[int64]*CallRec
	asked map[question.Key]*pending
	// ended are the keys of the last questions that ended: a Prompter
	// may return after its question was ended (withdrawn), and its
	// answer, which the engine discarded, must not open it again.
	ended     map[question.Key]bool
	endedRing []question.Key
	endedNext int
}

// endedKept is how many ended keys are remembered: far more than can be
// open at once.
const endedKept = 4096

// pending is a question seen and not yet ended.
type pending struct {
	call  int64
	q     *Question
	given *Given
}

// Option is an option of New and Create.
type Option func(*Recorder)

// Redact passes each line through fn before it is written: the process
// masks its secrets (header values, tokens) in all it records, since a
// server may echo them in a result, an error or a question.
func Redact(fn func([]byte) []byte) Option { return func(r *Recorder) { r.redact = fn } }

// Create makes (or truncates) the file at path, mode 0600 (a recording
// holds what servers said), and writes the header and settings lines. It
// fails before any session starts, so a path that cannot be written is
// said at once.
func Create(path, elicitVersion string, s Settings, opts ...Option) (*Recorder, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	if err := f.Chmod(0o600); err != nil { // a file that was there keeps its mode otherwise
		_ = f.Close()
		return nil, fmt.Errorf("record: %w", err)
	}
	r, err := New(f, elicitVersion, s, opts...)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return r, nil
}

// New writes a recording to w (closed by Close when it is an io.Closer).
func New(w io.Writer, elicitVersion string, s Settings, opts ...Option) (*Recorder, error) {
	r := &Recorder{w: bufio.NewWriterSize(w, 64<<10), now: time.Now,
		open: map[int64]*CallRec{}, asked: map[question.Key]*pending{}, ended: map[question.Key]bool{}}
	for _, o := range opts {
		o(r)
	}
	r.enc = json.NewEncoder(&r.line)
	r.enc.SetEscapeHTML(false)
	if c, ok := w.(io.Closer); ok {
		r.c = c
	}
	s.Type = TypeSettings
	if s.Servers == nil {
		s.Servers = []Server{}
	}
	r.mu.Lock()
	r.write(Header{Type: TypeHeader, Format: Format, Version: Version, Elicit: elicitVersion, Time: r.now().UTC()}, false)
	r.write(s, true)
	err := r.err
	r.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return r, nil
}

// write encodes one line; r.mu is held. flush pushes it to the file at
// once: every line but a frame does, so what a frame led to is never
// behind in the file, and frames (the bulk) are buffered.
func (r *Recorder) write(v any, flush bool) {
	if r.err != nil || r.closed {
		return
	}
	// Encode, not Marshal: a frame's "<" and "&" stay as sent, not
	// \u003c. The encoder ends the line.
	r.line.Reset()
	if err := r.enc.Encode(v); err != nil {
		r.err = fmt.Errorf("record: write: %w", err)
		return
	}
	b := r.line.Bytes()
	if r.redact != nil {
		b = r.redact(b) // whole lines: a secret is never cut in two
	}
	if _, err := r.w.Write(b); err != nil {
		r.err = fmt.Errorf("record: write: %w", err)
		return
	}
	if r.line.Cap() > 1<<20 {
		r.line = bytes.Buffer{} // a huge frame's buffer is not kept for the session
	}
	if flush {
		if err := r.w.Flush(); err != nil {
			r.err = fmt.Errorf("record: write: %w", err)
		}
	}
}

func (r *Recorder) next() (int64, time.Time) {
	r.seq++
	return r.seq, r.now().UTC()
}

// Frame records one frame of server's traffic (a transport.Observer's
// OnFrame). Raw is read, not kept.
func (r *Recorder) Frame(server string, f client.Frame) {
	if r == nil {
		return
	}
	line := Frame{Type: TypeFrame, Server: server, Dir: f.Dir.String()}
	if json.Valid(f.Raw) && utf8.Valid(f.Raw) {
		line.Message = f.Raw
	} else {
		line.Text = string(f.Raw) // json.Marshal makes bad bytes U+FFFD
	}
	if f.Err != nil {
		line.Error = f.Err.Error()
	}
	if f.HTTP != nil {
		h := &HTTP{Method: f.HTTP.Method, Status: f.HTTP.Status}
		for k := range f.HTTP.Header {
			h.HeaderNames = append(h.HeaderNames, k)
		}
		slices.Sort(h.HeaderNames)
		line.HTTP = h
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	line.Seq, line.Time = r.next()
	r.frames++
	r.write(line, false)
}

// Event records what of a session's events a replay needs: state
// changes and how questions ended (a client.Observer's Event).
func (r *Recorder) Event(e client.Event) {
	if r == nil {
		return
	}
	switch e := e.(type) {
	case client.ServerStateChanged:
		line := State{Type: TypeState, Server: e.Server, State: e.State.String(), Protocol: e.Protocol, Era: e.Era}
		if e.Err != nil {
			line.Error = e.Err.Error()
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		line.Seq, line.Time = r.next()
		r.write(line, true)
	case client.PromptOpened:
		r.mu.Lock()
		defer r.mu.Unlock()
		if !r.ended[e.Prompt.Key] {
			r.seen(e.Prompt)
		}
	case client.PromptResolved:
		r.resolved(e.Key, e.Entry, e.Sent)
	}
}

// Prompter wraps p so that what it answers is recorded with the
// question; nil r returns p.
func (r *Recorder) Prompter(p question.Prompter) question.Prompter {
	if r == nil {
		return p
	}
	return question.Tap(p, func(q *question.Question, out question.Outcome) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.ended[q.Key] {
			return // it ended before this answer came, which was discarded
		}
		r.seen(q).given = givenOf(out)
	})
}

// seen is the pending entry of q, made at first sight: the call it came
// during is the one open then. r.mu is held.
func (r *Recorder) seen(q *question.Question) *pending {
	p := r.asked[q.Key]
	if p == nil {
		p = &pending{call: r.owner(q.Key.Server, q.Origin.Name)}
		r.asked[q.Key] = p
	}
	if p.q == nil {
		p.q = QuestionOf(q)
	}
	return p
}

// owner is the open call of server a question belongs to: the first one
// open by its origin's name (the tool, prompt or resource), else the one
// open call of that server, else none (0). r.mu is held.
func (r *Recorder) owner(server, name string) int64 {
	var only, named int64
	n := 0
	for id, c := range r.open {
		if c.server != server {
			continue
		}
		n++
		only = id
		if name != "" && c.name == name && (named == 0 || id < named) {
			named = id
		}
	}
	switch {
	case named != 0:
		return named
	case n == 1:
		return only
	}
	return 0
}

// Resolved records how a question ended when no client.Event says so:
// an ACP agent's questions (client/acp's OnResolved).
func (r *Recorder) Resolved(e question.JournalEntry) {
	if r == nil {
		return
	}
	r.resolved(e.Key, e, e.Sent)
}

func (r *Recorder) resolved(key question.Key, e question.JournalEntry, sent string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.asked[key]
	delete(r.asked, key)
	r.markEnded(key)
	if p == nil {
		p = &pending{call: r.owner(key.Server, e.Origin.Name)}
	}
	line := Answer{Type: TypeAnswer, Call: p.call, Server: key.Server, Key: key.String(), Question: p.q,
		Given: p.given, Outcome: e.Kind.String(), Sent: sent, Content: e.Content, Reason: e.Reason,
		LatencyMS: e.Latency.Milliseconds()}
	if line.Sent == "" {
		line.Sent = e.Sent
	}
	if line.Question == nil {
		line.Question = &Question{Kind: e.Asked.String(), Delivery: key.Delivery.String()}
	}
	if e.Sampling != nil && len(e.Sampling.Request) > 0 && json.Valid(e.Sampling.Request) {
		q := *line.Question // p.q is not kept, but copy anyway: it is not ours to change
		q.Sampling = e.Sampling.Request
		line.Question = &q
	}
	line.Seq, line.Time = r.next()
	r.answers++
	r.write(line, true)
}

// markEnded remembers key as ended, forgetting the oldest beyond
// endedKept. r.mu is held.
func (r *Recorder) markEnded(key question.Key) {
	if len(r.endedRing) < endedKept {
		r.endedRing = append(r.endedRing, key)
	} else {
		delete(r.ended, r.endedRing[r.endedNext])
		r.endedRing[r.endedNext] = key
		r.endedNext = (r.endedNext + 1) % endedKept
	}
	r.ended[key] = true
}

// CallRec is one call being recorded; End it once.
type CallRec struct {
	r            *Recorder
	id           int64
	server, name string
	method       string
	start        time.Time
}

// Begin records a call a person or a command makes to server: method,
// and params as given (name is what its questions name as their
// origin: the tool, the prompt, the resource's URI). asTask is the
// person's choice for a tool call (nil: the default).
func (r *Recorder) Begin(server, method, name string, params any, asTask *bool) *CallRec {
	if r == nil {
		return nil
	}
	var raw json.RawMessage
	if params != nil {
		b, err := json.Marshal(params)
		if err == nil && string(b) != "null" {
			raw = b
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	c := &CallRec{r: r, id: r.calls, server: server, name: name, method: method, start: r.now()}
	r.open[c.id] = c
	line := Call{Type: TypeCall, Call: c.id, Server: server, Method: method, Params: raw, AsTask: asTask}
	line.Seq, line.Time = r.next()
	r.write(line, true)
	return c
}

// End records how the call ended: result (a json.RawMessage as sent, or
// a value to encode) or err.
func (c *CallRec) End(result any, err error) {
	if c == nil {
		return
	}
	r := c.r
	line := Result{Type: TypeResult, Call: c.id, Server: c.server, Method: c.method}
	if err != nil {
		line.Error = ErrorOf(err)
	} else if result != nil {
		if raw, ok := result.(json.RawMessage); ok {
			line.Result = raw
		} else if b, merr := json.Marshal(result); merr == nil {
			line.Result = b
		} else {
			line.Error = &Error{Message: "elicit could not encode the result: " + merr.Error()}
		}
	}
	if len(line.Result) > 0 && !(json.Valid(line.Result) && utf8.Valid(line.Result)) {
		line.Result, line.Error = nil, &Error{Message: "the result was not valid JSON in UTF-8"}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.open, c.id)
	line.ElapsedMS = r.now().Sub(c.start).Milliseconds()
	line.Seq, line.Time = r.next()
	r.write(line, true)
}

// ErrorOf is err as a recording's Error: the JSON-RPC error's code and
// message when the server sent one.
func ErrorOf(err error) *Error {
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		return &Error{Code: int64(rpc.Code), Message: rpc.Message}
	}
	return &Error{Message: err.Error(), Closed: errors.Is(err, client.ErrClosed)}
}

// Close writes the questions still open (outcome "open") and the end
// line, flushes and closes the file. It is idempotent; it returns the
// first write error of the whole recording.
func (r *Recorder) Close() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return r.err
	}
	keys := make([]question.Key, 0, len(r.asked))
	for k := range r.asked {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b question.Key) int { return cmpString(a.String(), b.String()) })
	for _, k := range keys {
		p := r.asked[k]
		line := Answer{Type: TypeAnswer, Call: p.call, Server: k.Server, Key: k.String(), Question: p.q, Given: p.given, Outcome: "open"}
		line.Seq, line.Time = r.next()
		r.answers++
		r.write(line, false)
	}
	clear(r.asked)
	line := End{Type: TypeEnd, Frames: r.frames, Calls: r.calls, Answers: r.answers}
	line.Seq, line.Time = r.next()
	r.write(line, true)
	r.closed = true
	if r.c != nil {
		if err := r.c.Close(); err != nil && r.err == nil {
			r.err = fmt.Errorf("record: close: %w", err)
		}
	}
	return r.err
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// QuestionOf is q as a recording keeps it.
func QuestionOf(q *question.Question) *Question {
	out := &Question{Kind: q.Kind.String(), Mode: string(q.Mode), Message: q.Message, URL: q.URL, ElicitationID: q.ElicitationID,
		Delivery: q.Key.Delivery.String(), OriginName: q.Origin.Name, Origin: originName(q.Origin.Kind)}
	if len(q.RawSchema) > 0 && json.Valid(q.RawSchema) {
		out.Schema = q.RawSchema
	}
	if p := q.Permission; p != nil {
		out.Permission = permissionOf(p)
	}
	return out
}

// permissionOf is an ACP permission request as a recording keeps it.
func permissionOf(p *question.Permission) *Permission {
	var tc struct {
		ID    string `json:"toolCallId"`
		Title string `json:"title"`
		Kind  string `json:"kind"`
	}
	_ = json.Unmarshal(p.ToolCall, &tc) // parsed already by the engine; what fails stays empty
	out := &Permission{ToolCallID: tc.ID, Title: tc.Title, ToolKind: tc.Kind, Options: []PermissionOption{}}
	for _, o := range p.Options {
		out.Options = append(out.Options, PermissionOption{ID: o.ID, Kind: o.Kind, Name: o.Name})
	}
	return out
}

func originName(k question.OriginKind) string {
	switch k {
	case question.OriginToolCall:
		return "tool"
	case question.OriginTask:
		return "task"
	case question.OriginPrompt:
		return "prompt"
	case question.OriginResource:
		return "resource"
	case question.OriginTurn:
		return "turn"
	}
	return ""
}

func givenOf(out question.Outcome) *Given {
	g := &Given{Kind: out.Kind.String(), Content: out.Content, Option: out.Option, Reason: out.Reason}
	if s := out.Sample; s != nil {
		g.Sample = &Sample{Text: s.Text, Model: s.Model, StopReason: s.StopReason}
		for _, u := range s.ToolUses {
			g.Sample.ToolUses = append(g.Sample.ToolUses, ToolUse{ID: u.ID, Name: u.Name, Input: u.Input})
		}
	}
	return g
}

// Outcome is g as a Prompter's answer, for a replay to give again.
func (g *Given) Outcome() question.Outcome {
	out := question.Outcome{Content: g.Content, Option: g.Option, Reason: g.Reason}
	switch g.Kind {
	case "accept":
		out.Kind = question.Accept
	case "decline":
		out.Kind = question.Decline
	default:
		out.Kind = question.Cancel
	}
	if s := g.Sample; s != nil {
		out.Sample = &question.SampleReply{Text: s.Text, Model: s.Model, StopReason: s.StopReason}
		for _, u := range s.ToolUses {
			out.Sample.ToolUses = append(out.Sample.ToolUses, question.ToolUse{ID: u.ID, Name: u.Name, Input: u.Input})
		}
	}
	return out
}
