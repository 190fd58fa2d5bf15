package ui

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
)

// streamStore holds lane 3: the traffic and log rings and the latest
// progress of each call. Writers are the engine's goroutines (through the
// Bridge) and the calls' commands; readers are the views, which copy only
// the window they show. changed is called after every write, outside the
// lock: the Bridge arms its coalescing timer there.
type streamStore struct {
	changed func()

	mu      sync.Mutex
	traffic *ring[TrafficEntry]
	logs    *ring[LogEntry]
	prog    map[int]client.CallProgress // latest progress per UI call id
	seq     uint64                      // the last frame's TrafficEntry.Seq
	// probes are our server/discover requests not yet answered, by
	// server and id: their answer is the era probe's (TrafficEntry.Probe).
	probes map[[2]string]bool
}

// What the rings keep, beside their count bounds: a server's few huge
// messages must not hold the memory its many small ones cannot.
const (
	trafficBytes = 64 << 20 // the traffic ring's bytes
	logBytes     = 64 << 20 // the log ring's
	// entryKeep is how much of a frame's bytes or a log line's text is
	// kept: far more than a screen shows, and what the export writes.
	entryKeep = 64 << 10
	// fieldKeep bounds the other strings of an entry (a method, an id,
	// an error, a header value): names, not payloads.
	fieldKeep = 1 << 10
	// entryOverhead is what an entry weighs beside its strings.
	entryOverhead = 256
)

func newStreamStore(trafficSize, logSize int, changed func()) *streamStore {
	return &streamStore{changed: changed,
		traffic: newRing(trafficSize, trafficBytes, (*TrafficEntry).weight),
		logs:    newRing(logSize, logBytes, (*LogEntry).weight)}
}

// markProbe notes our server/discover requests and marks their answers:
// the first frames of every session that detects its era are the probe,
// and on a pre-2026 server its answer is an error that is no failure.
func (s *streamStore) markProbe(e *TrafficEntry) {
	if e.ID == "" {
		return
	}
	k := [2]string{e.Server, e.ID}
	switch {
	case !e.In && e.Method == "server/discover":
		if s.probes == nil {
			s.probes = map[[2]string]bool{}
		}
		if len(s.probes) < 64 { // one or two per session; a bound all the same
			s.probes[k] = true
		}
		e.Probe = true
	case e.In && s.probes[k] && (e.Kind == "response" || e.Kind == "error"):
		delete(s.probes, k)
		e.Probe = true
	}
}

// pushFrame numbers a summarised frame and keeps it, cut to what the
// traffic view may show.
func (s *streamStore) pushFrame(e TrafficEntry) {
	e.clip()
	s.mu.Lock()
	s.markProbe(&e)
	s.seq++
	e.Seq = s.seq
	s.traffic.push(e)
	s.mu.Unlock()
	s.changed()
}

func (s *streamStore) pushLog(e LogEntry) {
	e.clip()
	s.mu.Lock()
	s.logs.push(e)
	s.mu.Unlock()
	s.changed()
}

// progress records the latest progress of a UI call: only the newest
// value per call is kept until the next redraw.
func (s *streamStore) progress(id int, p client.CallProgress) {
	s.mu.Lock()
	if s.prog == nil {
		s.prog = map[int]client.CallProgress{}
	}
	s.prog[id] = p
	s.mu.Unlock()
	s.changed()
}

// takeProgress hands over the progress gathered since the last call.
func (s *streamStore) takeProgress() map[int]client.CallProgress {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.prog
	s.prog = nil
	return p
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
	// Cut is how many bytes of the frame were not kept (Raw holds the
	// first entryKeep).
	Cut int
	// Seq numbers frames in arrival order, from 1.
	Seq uint64
	// Summary, filled from Raw.
	Method string
	ID     string // raw id, "" for notifications
	// Probe marks the era probe: our server/discover and its answer (an
	// error from a server of an older era, which then gets initialize).
	Probe bool
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

// clip cuts the frame to entryKeep bytes and its other strings to
// fieldKeep, copying what it keeps so the rest is released.
func (e *TrafficEntry) clip() {
	if len(e.Raw) > entryKeep {
		keep := entryKeep
		for keep > 0 && !utf8.RuneStart(e.Raw[keep]) {
			keep--
		}
		e.Cut += len(e.Raw) - keep
		e.Raw = bytes.Clone(e.Raw[:keep])
	}
	e.Method, e.ID, e.Err = clipField(e.Method), clipField(e.ID), clipField(e.Err)
	if h := e.HTTP; h != nil {
		h.Method, h.URL, h.EventID = clipField(h.Method), clipField(h.URL), clipField(h.EventID)
		for _, vs := range h.Header {
			for i, v := range vs {
				vs[i] = clipField(v)
			}
		}
	}
}

// weight is what the entry costs the traffic ring.
func (e *TrafficEntry) weight() int {
	n := entryOverhead + len(e.Raw) + len(e.Server) + len(e.Method) + len(e.ID) + len(e.Err) + len(e.Kind)
	if h := e.HTTP; h != nil {
		n += entryOverhead + len(h.Method) + len(h.URL) + len(h.EventID)
		for k, vs := range h.Header {
			n += len(k)
			for _, v := range vs {
				n += len(v)
			}
		}
	}
	return n
}

func (e *TrafficEntry) summarise() {
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
	}
	// The members as encoding/json (and so jsonrpc.Decode) reads them:
	// names folded, the last one winning. One pass over the frame, which
	// Bridge.Frame makes on the transport's read loop.
	var id, method []byte
	isErr := false
	ok := e.Err == "" && wire.EachMember(e.Raw, func(name, v []byte) bool {
		switch {
		case bytes.EqualFold(name, []byte("id")):
			id = v
		case bytes.EqualFold(name, []byte("method")):
			method = v
		case bytes.EqualFold(name, []byte("error")):
			isErr = string(v) != "null"
		}
		return true
	})
	var m string
	if !ok || method != nil && json.Unmarshal(method, &m) != nil {
		e.Kind = "invalid"
		return
	}
	e.Method = m
	if len(id) > 0 && string(id) != "null" {
		var s string
		if json.Unmarshal(id, &s) == nil {
			e.ID = s
		} else {
			e.ID = string(id)
		}
	}
	switch {
	case m != "" && e.ID != "":
		e.Kind = "request"
	case m != "":
		e.Kind = "notification"
	case isErr:
		e.Kind = "error"
	default:
		e.Kind = "response"
	}
}

// LogEntry is one stderr line or notifications/message.
type LogEntry struct {
	Time   time.Time
	Server string
	Level  string // "stderr" for stderr lines
	Logger string
	Text   string
	// Ours marks elicit's own note about Server (a client.Notice), which
	// the view shows as elicit's, never as the server's.
	Ours    bool
	Dropped int
	// Cut is how many bytes of Text were not kept (Text holds the first
	// entryKeep).
	Cut int
}

// clip cuts the line to entryKeep bytes and its other strings to
// fieldKeep, copying what it keeps so the rest is released.
func (e *LogEntry) clip() {
	if len(e.Text) > entryKeep {
		keep := head(e.Text, entryKeep)
		e.Cut += len(e.Text) - len(keep)
		e.Text = strings.Clone(keep)
	}
	e.Server, e.Level, e.Logger = clipField(e.Server), clipField(e.Level), clipField(e.Logger)
}

// weight is what the line costs the log ring.
func (e *LogEntry) weight() int {
	return entryOverhead + len(e.Text) + len(e.Server) + len(e.Level) + len(e.Logger)
}

// clipField cuts a name-like string to fieldKeep bytes, marked as cut.
func clipField(s string) string {
	if len(s) <= fieldKeep {
		return s
	}
	return strings.Clone(head(s, fieldKeep-len("…"))) + "…"
}

// head is s cut to at most n bytes, at a rune boundary.
func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
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
func (s *streamStore) trafficWindow(f TrafficFilter, skip, n int) (rows []TrafficEntry, total int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return window(s.traffic, f.match, skip, n)
}

// trafficPeer returns the other half of e's exchange: the response (or
// error) to a request, or the request of a response, going the other way
// with the same id on the same server; nil if the ring has none. It runs
// only when a detail opens, so a scan of the ring is fine.
func (s *streamStore) trafficPeer(e *TrafficEntry) *TrafficEntry {
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
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.traffic.len()
	for i := range n {
		// A reply looks back for the latest request, a request forward
		// for the first reply.
		j := i
		if reply {
			j = n - 1 - i
		}
		if o := s.traffic.at(j); peer(o) {
			p := *o
			return &p
		}
	}
	return nil
}

// trafficAll returns every entry matching f, oldest first (for export).
func (s *streamStore) trafficAll(f TrafficFilter) []TrafficEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []TrafficEntry
	for i := range s.traffic.len() {
		if e := s.traffic.at(i); f.match(e) {
			out = append(out, *e)
		}
	}
	return out
}

// logWindow is trafficWindow for the log ring; server "" matches all.
func (s *streamStore) logWindow(server string, skip, n int) (rows []LogEntry, total int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return window(s.logs, func(e *LogEntry) bool { return server == "" || e.Server == server }, skip, n)
}

// stderrTail is the last n stderr lines of server, oldest first.
func (s *streamStore) stderrTail(server string, n int) ([]LogEntry, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return window(s.logs, func(e *LogEntry) bool { return e.Server == server && e.Level == "stderr" }, 0, n)
}

// window picks the matches of r, newest first, skipping skip and keeping
// n, and returns them oldest first with the number of matches. The caller
// holds the store's lock.
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
