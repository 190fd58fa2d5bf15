package ui

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
)

// Bridge connects the engine's goroutines to the bubbletea event loop. It
// implements client.Prompter (lane 1) and client.Observer (lane 2), and
// takes traffic and stderr (lane 3) through Frame and Stderr. See
// AGENTS.md for the lanes.
type Bridge struct {
	coalesce time.Duration

	attached chan struct{} // closed by Attach
	closed   chan struct{} // closed by Close
	once     sync.Once

	mu      sync.Mutex
	send    func(tea.Msg)
	traffic *ring[TrafficEntry]
	logs    *ring[LogEntry]
	prog    map[int]client.CallProgress // latest progress per UI call id
	seq     uint64                      // the last frame's TrafficEntry.Seq
	timer   *time.Timer                 // armed while a streamsChangedMsg is due
	stopped bool
}

// BridgeOptions tune a Bridge; the zero value is what cmd/elicit uses, and
// tests shrink the sizes.
type BridgeOptions struct {
	// TrafficSize is how many frames the traffic ring keeps (10,000).
	TrafficSize int
	// LogSize is how many stderr and log lines the log ring keeps (5,000).
	LogSize int
	// Coalesce is how long stream writes gather before one redraw (33 ms).
	Coalesce time.Duration
}

// NewBridge returns a Bridge; call Attach before the engine starts.
func NewBridge(opts BridgeOptions) *Bridge {
	if opts.TrafficSize <= 0 {
		opts.TrafficSize = 10000
	}
	if opts.LogSize <= 0 {
		opts.LogSize = 5000
	}
	if opts.Coalesce <= 0 {
		opts.Coalesce = 33 * time.Millisecond
	}
	return &Bridge{
		coalesce: opts.Coalesce,
		attached: make(chan struct{}),
		closed:   make(chan struct{}),
		traffic:  newRing[TrafficEntry](opts.TrafficSize),
		logs:     newRing[LogEntry](opts.LogSize),
	}
}

var (
	_ client.Prompter = (*Bridge)(nil)
	_ client.Observer = (*Bridge)(nil)
)

// Attach sets the function that delivers messages to the program
// (tea.Program.Send, or a test's collector). Messages wait until then.
func (b *Bridge) Attach(send func(tea.Msg)) {
	b.mu.Lock()
	if b.send == nil {
		b.send = send
		close(b.attached)
	}
	b.mu.Unlock()
}

// Close stops the bridge: no more messages are delivered, pending prompts
// see their context (the engine's) end, and the coalescing timer stops.
func (b *Bridge) Close() {
	b.once.Do(func() { close(b.closed) })
	b.mu.Lock()
	b.stopped = true
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	b.mu.Unlock()
}

// deliver sends msg once attached; it gives up if the bridge is closed or
// ctx ends first. It reports whether the message went out.
func (b *Bridge) deliver(ctx context.Context, msg tea.Msg) bool {
	select {
	case <-b.attached:
	case <-b.closed:
		return false
	case <-ctx.Done():
		return false
	}
	select {
	case <-b.closed:
		return false
	default:
	}
	b.send(msg)
	return true
}

// Prompt implements client.Prompter (lane 1: blocking, lossless, keyed). It
// opens a pane and waits for the person's answer or for ctx to end. When
// ctx ends first, whatever is returned is ignored by the engine, which
// records the cause; the pane is told to stop taking input.
func (b *Bridge) Prompt(ctx context.Context, p *client.Prompt) client.Outcome {
	reply := make(chan client.Outcome, 1)
	if !b.deliver(ctx, promptOpenedMsg{p: p, reply: reply}) {
		// Never shown: the engine records the context's cause, not this.
		return client.Outcome{Kind: client.Cancel, Reason: "prompt never shown"}
	}
	select {
	case o := <-reply:
		return o
	case <-ctx.Done():
		b.deliver(context.Background(), promptClosedMsg{key: p.Key, cause: context.Cause(ctx)})
		return client.Outcome{Kind: client.Cancel, Reason: "prompt context ended"}
	case <-b.closed:
		return client.Outcome{Kind: client.Cancel, Reason: "UI closed"}
	}
}

// Event implements client.Observer (lane 2: lossless and ordered; it blocks
// the session's dispatcher, never the wire). High-rate log messages go to
// the log ring instead (lane 3).
func (b *Bridge) Event(e client.Event) {
	switch e := e.(type) {
	case client.PromptOpened, client.CallProgress:
		// Prompt brings the prompt with its reply channel; progress of
		// the UI's calls comes through their onProgress (lane 3).
		return
	case client.LogMessage:
		b.pushLog(LogEntry{Time: e.Time, Server: e.Server, Level: e.Level, Logger: e.Logger,
			Text: logText(e.Data), Dropped: e.Dropped})
		return
	}
	b.deliver(context.Background(), eventMsg{e: e})
}

// logText is a log message's data as a line: a JSON string unquoted,
// anything else as sent.
func logText(data json.RawMessage) string {
	var s string
	if json.Unmarshal(data, &s) == nil {
		return s
	}
	return string(data)
}

// Frame records one wire frame of server for the traffic view (lane 3). It
// never blocks: it copies the frame into the ring and arms the coalescing
// timer. Frames are summarised here, off the UI goroutine.
func (b *Bridge) Frame(server string, f client.Frame) {
	e := TrafficEntry{Time: f.Time, Server: server, In: f.Dir == client.In,
		Raw: append([]byte(nil), f.Raw...), HTTP: copyHTTP(f.HTTP)}
	if f.Err != nil {
		e.Err = f.Err.Error()
	}
	e.summarise()
	b.mu.Lock()
	b.seq++
	e.Seq = b.seq
	b.traffic.push(e)
	b.armLocked()
	b.mu.Unlock()
}

// progress records the latest progress of a UI call (lane 3): only the
// newest value per call is kept until the next redraw.
func (b *Bridge) progress(id int, p client.CallProgress) {
	b.mu.Lock()
	if b.prog == nil {
		b.prog = map[int]client.CallProgress{}
	}
	b.prog[id] = p
	b.armLocked()
	b.mu.Unlock()
}

// takeProgress hands over the progress gathered since the last call.
func (b *Bridge) takeProgress() map[int]client.CallProgress {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.prog
	b.prog = nil
	return p
}

// Stderr records one stderr line of a server's process (lane 3).
func (b *Bridge) Stderr(server, line string) {
	b.pushLog(LogEntry{Time: time.Now(), Server: server, Level: "stderr", Text: line})
}

func (b *Bridge) pushLog(e LogEntry) {
	b.mu.Lock()
	b.logs.push(e)
	b.armLocked()
	b.mu.Unlock()
}

// armLocked arms the coalescing timer after a quiet spell, so a flood of
// writes costs one message per period and an idle bridge runs nothing.
func (b *Bridge) armLocked() {
	if b.timer != nil || b.stopped {
		return
	}
	b.timer = time.AfterFunc(b.coalesce, func() {
		b.mu.Lock()
		b.timer = nil
		stopped := b.stopped
		b.mu.Unlock()
		if !stopped {
			b.deliver(context.Background(), streamsChangedMsg{})
		}
	})
}

// TrafficEntry is one frame as the traffic view keeps it.
type TrafficEntry struct {
	Time   time.Time
	Server string
	In     bool // server to client
	Raw    []byte
	Err    string // set when the frame could not be decoded, or carries none
	// HTTP is the exchange that carried the frame (HTTP transports only);
	// the Bridge's own copy.
	HTTP *client.HTTPInfo
	// Seq numbers frames in arrival order, from 1.
	Seq uint64
	// Summary, filled from Raw.
	Method string
	ID     string // raw id, "" for notifications
	// Kind is "request", "notification", "response", "error", "invalid"
	// (undecodable), "cancel" (an outgoing frame without a message: the
	// 2026-07-28 HTTP cancel, closing a request's stream), "transport" (an
	// incoming one: the exchange failed) or "http" (an exchange without a
	// message or an error).
	Kind string
}

// ServerRequest reports whether the frame is a request from the server
// (elicitation, sampling, roots): these stand out in the view.
func (e *TrafficEntry) ServerRequest() bool { return e.In && e.Kind == "request" }

func (e *TrafficEntry) summarise() {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Error  json.RawMessage `json:"error"`
	}
	switch {
	case len(e.Raw) == 0 && e.Err != "" && !e.In:
		e.Kind = "cancel"
		return
	case len(e.Raw) == 0 && e.Err != "":
		e.Kind = "transport"
		return
	case len(e.Raw) == 0 && e.HTTP != nil:
		e.Kind = "http"
		return
	case e.Err != "" || json.Unmarshal(e.Raw, &m) != nil:
		e.Kind = "invalid"
		return
	}
	e.Method = m.Method
	if len(m.ID) > 0 && string(m.ID) != "null" {
		var s string
		if json.Unmarshal(m.ID, &s) == nil {
			e.ID = s
		} else {
			e.ID = string(m.ID)
		}
	}
	switch {
	case m.Method != "" && e.ID != "":
		e.Kind = "request"
	case m.Method != "":
		e.Kind = "notification"
	case len(m.Error) > 0 && string(m.Error) != "null":
		e.Kind = "error"
	default:
		e.Kind = "response"
	}
}

// LogEntry is one stderr line or notifications/message.
type LogEntry struct {
	Time    time.Time
	Server  string
	Level   string // "stderr" for stderr lines
	Logger  string
	Text    string
	Dropped int
}

// TrafficFilter selects traffic rows; empty fields match everything.
type TrafficFilter struct {
	Server string
	Method string // substring of the method
}

func (f TrafficFilter) match(e *TrafficEntry) bool {
	return (f.Server == "" || e.Server == f.Server) &&
		(f.Method == "" || strings.Contains(strings.ToLower(e.Method), strings.ToLower(f.Method)))
}

// trafficWindow returns up to n entries matching f, skipping the newest
// skip matches, oldest first, and the number of matches. Only the rows
// returned are copied (entries share their Raw bytes, never written).
func (b *Bridge) trafficWindow(f TrafficFilter, skip, n int) (rows []TrafficEntry, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return window(b.traffic, f.match, skip, n)
}

// trafficPeer returns the other half of e's exchange: the response (or
// error) to a request, or the request of a response, going the other way
// with the same id on the same server; nil if the ring has none. It runs
// only when a detail opens, so a scan of the ring is fine.
func (b *Bridge) trafficPeer(e *TrafficEntry) *TrafficEntry {
	reply := e.Kind == "response" || e.Kind == "error"
	if e.ID == "" || !reply && e.Kind != "request" {
		return nil
	}
	peer := func(o *TrafficEntry) bool {
		if o.Server != e.Server || o.In == e.In || o.ID != e.ID {
			return false
		}
		if reply {
			return o.Kind == "request" && o.Seq < e.Seq
		}
		return (o.Kind == "response" || o.Kind == "error") && o.Seq > e.Seq
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.traffic.len()
	for i := range n {
		// A reply looks back for the latest request, a request forward
		// for the first reply.
		j := i
		if reply {
			j = n - 1 - i
		}
		if o := b.traffic.at(j); peer(o) {
			p := *o
			return &p
		}
	}
	return nil
}

// trafficAll returns every entry matching f, oldest first (for export).
func (b *Bridge) trafficAll(f TrafficFilter) []TrafficEntry {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []TrafficEntry
	for i := range b.traffic.len() {
		if e := b.traffic.at(i); f.match(e) {
			out = append(out, *e)
		}
	}
	return out
}

// logWindow is trafficWindow for the log ring; server "" matches all.
func (b *Bridge) logWindow(server string, skip, n int) (rows []LogEntry, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return window(b.logs, func(e *LogEntry) bool { return server == "" || e.Server == server }, skip, n)
}

// window picks the matches of r, newest first, skipping skip and keeping
// n, and returns them oldest first with the number of matches. The caller
// holds the lock guarding r.
func window[T any](r *ring[T], match func(*T) bool, skip, n int) (rows []T, total int) {
	rows = make([]T, 0, n)
	for i := r.len() - 1; i >= 0; i-- {
		e := r.at(i)
		if !match(e) {
			continue
		}
		if total >= skip && len(rows) < n {
			rows = append(rows, *e)
		}
		total++
	}
	slices.Reverse(rows)
	return rows, total
}
