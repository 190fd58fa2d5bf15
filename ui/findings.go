package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// findingsMsg carries a snapshot of the engine's findings.
type findingsMsg struct {
	list    []findings.Finding
	version uint64
}

func (findingsMsg) screenMsg() {}

// showFrameMsg asks the Model to show the traffic view on the frame a
// finding came from (the person pressed Enter on it).
type showFrameMsg struct {
	server string
	ref    findings.FrameRef
}

// findingsView lists every spec violation the servers committed, in the
// order they were first seen, with the selected one's fix and spec
// section; Enter shows its frame in the traffic view. The list lives in
// the engine's Recorder; the view holds a snapshot, taken at start and
// again when the Recorder says it moved (Bridge.FindingsChanged, lane 3).
type findingsView struct {
	list    []findings.Finding
	version uint64
	cursor  int
	loading bool // a snapshot is on its way
}

// The parts of a screen the findings view has.
var _ interface {
	screen
	updater
	loader
	badger
} = (*findingsView)(nil)

func newFindingsView() *findingsView { return &findingsView{} }

// load snapshots the recorder in a Cmd, when it moved since the last one.
func (v *findingsView) load(c *viewCtx) tea.Cmd {
	if v.loading {
		return nil
	}
	v.loading = true
	eng, seen := c.engine, v.version
	return func() tea.Msg {
		list, ver := eng.Findings(seen)
		return findingsMsg{version: ver, list: list}
	}
}

func (v *findingsView) enter(c *viewCtx) tea.Cmd { return v.load(c) }

func (v *findingsView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case findingsMsg:
		v.loading = false
		if msg.version != v.version {
			v.list, v.version = msg.list, msg.version
			v.cursor = min(v.cursor, max(len(v.list)-1, 0))
		}
	case streamsChangedMsg:
		if msg.findings {
			return v.load(c)
		}
	}
	return nil
}

// badge counts the findings, errors and warnings alike.
func (v *findingsView) badge() int { return len(v.list) }

func (v *findingsView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	km := c.keys
	switch {
	case key.Matches(k, km.Down):
		v.cursor = min(v.cursor+1, max(len(v.list)-1, 0))
	case key.Matches(k, km.Up):
		v.cursor = max(v.cursor-1, 0)
	case key.Matches(k, km.Top):
		v.cursor = 0
	case key.Matches(k, km.Bottom):
		v.cursor = max(len(v.list)-1, 0)
	case key.Matches(k, km.PageDown):
		v.cursor = min(v.cursor+v.rows(c), max(len(v.list)-1, 0))
	case key.Matches(k, km.PageUp):
		v.cursor = max(v.cursor-v.rows(c), 0)
	case key.Matches(k, km.ShowFrame):
		if v.cursor < len(v.list) {
			f := v.list[v.cursor]
			return func() tea.Msg { return showFrameMsg{server: f.Server, ref: f.Frame} }
		}
	}
	return nil
}

// detailLines is how many lines the selected finding's detail takes.
const detailLines = 5

// rows is how many findings fit above the detail.
func (v *findingsView) rows(c *viewCtx) int {
	return max(c.bodyHeight()-1-strings.Count(v.title(c), "\n")-1-detailLines, 1)
}

// title is the view's first line, wrapped at the width (wrap.go).
func (v *findingsView) title(c *viewCtx) string {
	errs, warns := findings.Counts(v.list)
	return wrapLine(c.st.Title.Render(fmt.Sprintf("Findings: %d errors, %d warnings", errs, warns))+
		c.st.Muted.Render("  what the servers did against the spec · enter: its frame in traffic"), c.width)
}

func (v *findingsView) render(c *viewCtx) string {
	st := c.st
	var b strings.Builder
	b.WriteString(v.title(c) + "\n")
	if len(v.list) == 0 {
		b.WriteString(st.Muted.Render("no findings: no server has broken a rule elicit checks (docs/findings.md)"))
		return b.String()
	}
	n := v.rows(c)
	start := max(0, min(v.cursor-n/2, len(v.list)-n))
	for i := start; i < len(v.list) && i < start+n; i++ {
		b.WriteString(v.line(c, &v.list[i], i == v.cursor) + "\n")
	}
	b.WriteString("\n" + v.detail(c, &v.list[v.cursor]))
	return strings.TrimRight(b.String(), "\n")
}

// severityText is a finding's severity, styled.
func (v *findingsView) severityText(c *viewCtx, s findings.Severity) string {
	if s == findings.Error {
		return c.st.Error.Render("error  ")
	}
	return c.st.Warning.Render("warning")
}

// line is one finding's row: when, severity, server, rule, what.
func (v *findingsView) line(c *viewCtx, f *findings.Finding, selected bool) string {
	what := untrusted.Line(f.Detail)
	if f.Count > 1 {
		what += fmt.Sprintf(" (×%d)", f.Count)
	}
	s := c.st.Muted.Render(f.Time.Format("15:04:05")) + " " + v.severityText(c, f.Severity) + " " +
		c.st.Muted.Render(untrusted.Line(f.Server)) + " " + f.Rule + "  " + what
	s = ansi.Truncate(s, c.width-2, "…")
	if selected {
		return c.st.List.Selected.Render("› " + ansi.Strip(s))
	}
	return "  " + s
}

// detail is the selected finding in full: title, fix, spec, frame.
func (v *findingsView) detail(c *viewCtx, f *findings.Finding) string {
	st := c.st
	cut := func(s string) string { return ansi.Truncate(s, c.width, "…") }
	lines := []string{
		cut(st.Title.Render(f.Rule) + st.Muted.Render("  "+f.Title)),
		cut(untrusted.Line(f.Detail)),
		cut(st.Muted.Render("fix: ") + f.Fix),
		cut(st.Muted.Render("spec: ") + f.Version + " " + f.Section),
		cut(st.Muted.Render("frame: ") + untrusted.Line(findingFrameText(f.Frame)) + st.Muted.Render("  (enter shows it)")),
	}
	return strings.Join(lines, "\n")
}

// findingFrameText names a finding's frame as the traffic view shows frames.
func findingFrameText(r findings.FrameRef) string {
	dir := "←"
	if !r.In {
		dir = "→"
	}
	s := r.Time.Format("15:04:05.000") + " " + dir
	if r.Method != "" {
		s += " " + r.Method
	}
	if r.ID != "" {
		s += " #" + r.ID
	}
	return s
}

// handleShowFrame shows the traffic view on a finding's frame, or says
// why it cannot (the traffic log let it go).
func (m *Model) handleShowFrame(msg showFrameMsg) tea.Cmd {
	seq, ok := m.streams.findFrame(msg.server, msg.ref)
	if !ok {
		return notice("that frame is no longer in the traffic log")
	}
	for i, t := range m.tabs {
		if tv, ok := t.screen.(*trafficView); ok {
			cmd := m.showView(viewID(i))
			tv.jumpTo(&m.viewCtx, seq)
			return cmd
		}
	}
	return nil
}

// findFrame returns the Seq of the frame ref names on server: the newest
// entry of that direction, id and method not after the finding's time
// (the engine notices a violation after the frame arrived); failing that,
// the oldest such entry at all. A scan of the ring, run on a key press.
func (s *streamStore) findFrame(server string, ref findings.FrameRef) (uint64, bool) {
	match := func(e *TrafficEntry) bool {
		return e.Server == server && e.In == ref.In && (ref.ID == "" || e.ID == ref.ID) &&
			(ref.Method == "" || e.Method == ref.Method) && e.Kind != "http"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var later uint64
	for i := s.traffic.len() - 1; i >= 0; i-- {
		e := s.traffic.at(i)
		if !match(e) {
			continue
		}
		if !e.Time.After(ref.Time) {
			return e.Seq, true
		}
		later = e.Seq
	}
	return later, later != 0
}

// trafficNewer counts the entries matching f that came after frame seq,
// and reports whether seq itself matches f (and is still kept).
func (s *streamStore) trafficNewer(f TrafficFilter, seq uint64) (newer int, found bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := s.traffic.len() - 1; i >= 0; i-- {
		e := s.traffic.at(i)
		if e.Seq == seq {
			return newer, f.match(e)
		}
		if f.match(e) {
			newer++
		}
	}
	return newer, false
}

// jumpTo puts the cursor on frame seq, paused there, clearing a filter
// that hides it.
func (t *trafficView) jumpTo(c *viewCtx, seq uint64) {
	newer, ok := c.streams.trafficNewer(t.filter, seq)
	if !ok {
		t.filter, t.editing = TrafficFilter{}, false
		newer, _ = c.streams.trafficNewer(t.filter, seq)
	}
	// The frame in the middle of the window, what came after it below.
	t.follow, t.skip = false, max(newer-t.rowsOnScreen(c)/2, 0)
	t.refresh(c)
	for i := range t.rows {
		if t.rows[i].Seq == seq {
			t.cursor = i
		}
	}
}

// markKey keys a frame by what a finding names it by.
func markKey(server string, in bool, id string) string {
	return fmt.Sprintf("%s\x00%v\x00%s", server, in, id)
}

// frameMarks are the frames findings name, by id, or by method for a
// notification. Frames share an id (a duplicate response has the first
// one's) and a method, so each finding is resolved, as Enter on it is
// (findFrame), to the one frame it names; that is done for the keys of
// the rows on screen, once per key and findings snapshot.
type frameMarks struct {
	byKey map[string][]markRef // findings naming an id, in the Recorder's order
	bySeq map[uint64]string    // resolved: frame → the first finding's rule
}

type markRef struct {
	rule, server string
	ref          findings.FrameRef
}

// newFrameMarks indexes a findings snapshot; bounded by the Recorder's
// own bound.
func newFrameMarks(list []findings.Finding) frameMarks {
	m := frameMarks{byKey: map[string][]markRef{}, bySeq: map[uint64]string{}}
	for _, f := range list {
		if f.Frame.ID == "" && f.Frame.Method == "" {
			continue
		}
		k := frameKey(f.Server, f.Frame.In, f.Frame.ID, f.Frame.Method)
		m.byKey[k] = append(m.byKey[k], markRef{f.Rule, f.Server, f.Frame})
	}
	return m
}

// frameKey keys a frame by its id, or by its method when it has none.
func frameKey(server string, in bool, id, method string) string {
	if id == "" {
		return markKey(server, in, "\x00"+method)
	}
	return markKey(server, in, id)
}

// resolve finds the frames of the rows' ids that findings name (one scan
// of the traffic ring per id not resolved yet).
func (m *frameMarks) resolve(s *streamStore, rows []TrafficEntry) {
	for i := range rows {
		k := frameKey(rows[i].Server, rows[i].In, rows[i].ID, rows[i].Method)
		refs, ok := m.byKey[k]
		if !ok {
			continue
		}
		delete(m.byKey, k)
		for _, r := range refs {
			if seq, ok := s.findFrame(r.server, r.ref); ok {
				if _, taken := m.bySeq[seq]; !taken {
					m.bySeq[seq] = r.rule
				}
			}
		}
	}
}
