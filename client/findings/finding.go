package findings

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// FrameRef names the frame a finding came from, as the traffic view keeps
// it: its direction, its JSON-RPC id (raw, "" for a notification), its
// method (for requests and notifications) and when it crossed the wire.
// The traffic view finds the frame by these; a finding about a sequence of
// frames (a repeated cursor) names the last one.
type FrameRef struct {
	In     bool      `json:"in"`
	ID     string    `json:"id,omitempty"`
	Method string    `json:"method,omitempty"`
	Time   time.Time `json:"time"`
}

// Finding is one violation a server committed, or, between a host and a
// server (elicit proxy), the host did (Party).
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Server   string   `json:"server"`
	// Party is whose violation it is: "" for the server's (every finding
	// but elicit proxy's host ones), PartyHost for the host's; Server is
	// then the server the host was talking to.
	Party string `json:"party,omitempty"`
	// Version is the protocol version the session spoke ("" before one
	// was settled: then the rule's first).
	Version string `json:"version"`
	Section string `json:"section"`
	Title   string `json:"title"`
	// Detail says what happened. It quotes the server, so it is untrusted
	// text: show it through themes/untrusted.
	Detail string    `json:"detail"`
	Fix    string    `json:"fix"`
	Frame  FrameRef  `json:"frame"`
	Time   time.Time `json:"time"`
	// Count is how often the same thing happened (same server, rule and
	// detail); Frame and Time are the first time's.
	Count int `json:"count"`
}

// maxFindings bounds a Recorder: a server that breaks one rule on every
// frame must not fill the memory. Past it new findings are only counted.
const maxFindings = 2000

// Recorder collects the findings of one run, across sessions. It is safe
// for concurrent use; its methods never block on anything but its lock.
type Recorder struct {
	// CancelGrace is how long a task may keep working after tasks/cancel
	// before it is a finding. Zero means DefaultCancelGrace. Set it before
	// the first session uses the recorder.
	CancelGrace time.Duration

	mu      sync.Mutex
	list    []Finding
	index   map[[4]string]int
	dropped int
	version uint64
	onNew   func()
}

// DefaultCancelGrace is the default Recorder.CancelGrace.
const DefaultCancelGrace = 30 * time.Second

// NewRecorder returns an empty recorder. changed, if not nil, is called
// (outside the lock, from the reporting goroutine, so it must not block)
// after each change: a new finding, or a count that grew.
func NewRecorder(changed func()) *Recorder {
	return &Recorder{index: map[[4]string]int{}, onNew: changed}
}

// Grace is CancelGrace, or its default.
func (r *Recorder) Grace() time.Duration {
	if r == nil || r.CancelGrace <= 0 {
		return DefaultCancelGrace
	}
	return r.CancelGrace
}

// PartyHost marks a finding as the host's (Finding.Party).
const PartyHost = "host"

// Report records a violation of rule by server, at frame, with its detail
// (printf-style). version is the protocol the session speaks. A nil
// Recorder records nothing. It reports whether the finding is new.
func (r *Recorder) Report(server, version, rule string, frame FrameRef, format string, args ...any) bool {
	return r.report("", server, version, rule, frame, fmt.Sprintf(format, args...))
}

// ReportHost is Report for a violation by the host talking to server
// through elicit proxy: the finding's Party is PartyHost.
func (r *Recorder) ReportHost(server, version, rule string, frame FrameRef, format string, args ...any) bool {
	return r.report(PartyHost, server, version, rule, frame, fmt.Sprintf(format, args...))
}

func (r *Recorder) report(party, server, version, rule string, frame FrameRef, detail string) bool {
	if r == nil {
		return false
	}
	ru, ok := Lookup(rule)
	if !ok {
		ru = Rule{ID: rule, Severity: Error, Title: rule}
	}
	if version == "" && len(ru.Versions) > 0 {
		version = ru.Versions[0]
	}
	if frame.Time.IsZero() {
		frame.Time = time.Now()
	}
	if len(detail) > 1024 {
		detail = detail[:1024] + "…"
	}
	f := Finding{Rule: ru.ID, Severity: ru.Severity, Server: server, Party: party, Version: version, Section: ru.Section,
		Title: ru.Title, Detail: detail, Fix: ru.Fix, Frame: frame, Time: time.Now(), Count: 1}
	k := [4]string{party, server, rule, detail}
	r.mu.Lock()
	isNew := false
	if i, ok := r.index[k]; ok {
		r.list[i].Count++
	} else if len(r.list) >= maxFindings {
		r.dropped++
	} else {
		r.index[k] = len(r.list)
		r.list = append(r.list, f)
		isNew = true
	}
	r.version++
	changed := r.onNew
	r.mu.Unlock()
	if changed != nil {
		changed()
	}
	return isNew
}

// All returns a copy of the findings, in the order they were first seen.
func (r *Recorder) All() []Finding {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.list)
}

// Version counts the changes so far: a reader that saw the same Version
// has nothing new to read.
func (r *Recorder) Version() uint64 {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.version
}

// Dropped is how many new findings did not fit (see maxFindings).
func (r *Recorder) Dropped() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// Counts returns how many findings of each severity fs holds.
func Counts(fs []Finding) (errors, warnings int) {
	for _, f := range fs {
		if f.Severity == Error {
			errors++
		} else {
			warnings++
		}
	}
	return errors, warnings
}
