package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// exportedMsg reports a traffic export.
type exportedMsg struct {
	path string
	n    int
	err  error
}

func (exportedMsg) screenMsg() {}

// trafficView shows frames both ways. It holds only the window on screen;
// the frames live in the Bridge's ring.
type trafficView struct {
	filter  TrafficFilter
	editing bool // typing the method filter
	rows    []TrafficEntry
	total   int
	skip    int // matches hidden below the window (0 = the newest)
	follow  bool
	cursor  int // index into rows
	// refused marks our error answers to server requests refused for a
	// capability we did not declare (client.RequestRefused): server and
	// id → capability. Bounded by refusedKeep.
	refused map[string]string
	// marks are the frames findings name, by id (frameMarks): each
	// finding marks the one frame it names, not every frame of its id.
	marks frameMarks
}

// refusedKeep bounds trafficView.refused; past it the oldest marks go
// (all at once: a mark is a convenience, the frame says the same).
const refusedKeep = 512

func refusedKey(server, id string) string { return server + "\x00" + id }

// The parts of a screen the traffic view has.
var _ interface {
	screen
	updater
} = (*trafficView)(nil)

func newTrafficView() *trafficView { return &trafficView{follow: true} }

func (t *trafficView) enter(c *viewCtx) tea.Cmd {
	t.refresh(c)
	return nil
}

// rowsOnScreen is the rows under the title (wrapped at the width) and a
// blank line.
func (t *trafficView) rowsOnScreen(c *viewCtx) int {
	return max(c.bodyHeight()-1-strings.Count(t.title(c), "\n")-1, 1)
}

func (t *trafficView) refresh(c *viewCtx) {
	if t.follow {
		t.skip = 0
	}
	n := t.rowsOnScreen(c)
	t.rows, t.total = c.streams.trafficWindow(t.filter, t.skip, n)
	t.marks.resolve(c.streams, t.rows)
	if t.follow || t.cursor >= len(t.rows) {
		t.cursor = max(len(t.rows)-1, 0)
	}
}

func (t *trafficView) key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd {
	km := c.keys
	if t.editing {
		switch k.String() {
		case "enter", "esc":
			t.editing = false
		case "backspace":
			if r := []rune(t.filter.Method); len(r) > 0 {
				t.filter.Method = string(r[:len(r)-1])
			}
		default:
			if k.Text != "" {
				t.filter.Method += k.Text
			}
		}
		t.refresh(c)
		return nil
	}
	switch {
	case key.Matches(k, km.Up):
		t.scroll(c, -1)
	case key.Matches(k, km.Down):
		t.scroll(c, +1)
	case key.Matches(k, km.PageUp):
		t.scroll(c, -t.rowsOnScreen(c))
	case key.Matches(k, km.PageDown):
		t.scroll(c, t.rowsOnScreen(c))
	case key.Matches(k, km.Bottom, km.Follow):
		t.follow = true
		t.refresh(c)
	case key.Matches(k, km.Select):
		if t.cursor < len(t.rows) {
			return t.read(c, t.rows[t.cursor])
		}
	case key.Matches(k, km.Filter):
		t.editing = true
	case key.Matches(k, km.NextServer):
		t.filter.Server = nextServerName(c.servers, t.filter.Server)
		t.refresh(c)
	case key.Matches(k, km.Export):
		return t.export(c)
	}
	return nil
}

// scroll moves the cursor, paging the window through the ring when it
// leaves the screen; leaving the bottom stops following.
func (t *trafficView) scroll(c *viewCtx, d int) {
	t.cursor += d
	switch {
	case t.cursor < 0:
		t.follow = false
		t.skip = min(t.skip-t.cursor, max(t.total-t.rowsOnScreen(c), 0))
		t.cursor = 0
	case t.cursor >= len(t.rows):
		t.skip = max(t.skip-(t.cursor-len(t.rows)+1), 0)
		t.follow = t.skip == 0
		t.cursor = len(t.rows) - 1
	default:
		t.follow = false
		t.refresh(c)
		return
	}
	t.refresh(c)
}

// nextServerName cycles "" (all) → each server → "".
func nextServerName(servers []ServerStatus, cur string) string {
	if cur == "" {
		if len(servers) == 0 {
			return ""
		}
		return servers[0].Name
	}
	for i, s := range servers {
		if s.Name == cur && i+1 < len(servers) {
			return servers[i+1].Name
		}
	}
	return ""
}

// export writes the filtered traffic as JSONL (one object per frame, the
// frame itself under "frame") in a Cmd, and says where.
func (t *trafficView) export(c *viewCtx) tea.Cmd {
	streams, f, dir, now := c.streams, t.filter, c.opts.ExportDir, c.now()
	return func() tea.Msg {
		rows := streams.trafficAll(f)
		base := filepath.Join(dir, "elicit-traffic-"+now.Format("20060102-150405"))
		if abs, err := filepath.Abs(base); err == nil {
			base = abs
		}
		f, path, err := createExport(base)
		if err != nil {
			return exportedMsg{err: err}
		}
		n, err := writeJSONL(f, path, rows)
		return exportedMsg{path: path, n: n, err: err}
	}
}

// createExport creates base.jsonl, or base-2.jsonl… when an export of the
// same second exists: an export never overwrites a file.
func createExport(base string) (*os.File, string, error) {
	for i := 1; i <= 100; i++ {
		path := base + ".jsonl"
		if i > 1 {
			path = fmt.Sprintf("%s-%d.jsonl", base, i)
		}
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			return f, path, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, "", fmt.Errorf("export traffic: %w", err)
		}
	}
	return nil, "", fmt.Errorf("export traffic: %s.jsonl and 99 more exist", base)
}

// writeJSONL writes rows to f, one JSON object per line, and closes f.
func writeJSONL(f *os.File, path string, rows []TrafficEntry) (int, error) {
	enc := json.NewEncoder(f)
	for _, r := range rows {
		line := struct {
			Time   time.Time       `json:"time"`
			Server string          `json:"server"`
			Dir    string          `json:"dir"`
			Frame  json.RawMessage `json:"frame,omitempty"`
			Raw    string          `json:"raw,omitempty"`
			// Cut is how many bytes of the frame the traffic log did not
			// keep: Raw is then its first part.
			Cut  int         `json:"cut,omitempty"`
			Err  string      `json:"error,omitempty"`
			HTTP *exportHTTP `json:"http,omitempty"`
		}{Time: r.Time, Server: r.Server, Dir: dirName(r.In), Cut: r.Cut, Err: r.Err, HTTP: toExportHTTP(r.HTTP)}
		switch {
		case len(r.Raw) == 0:
		case json.Valid(r.Raw):
			line.Frame = r.Raw
		default:
			line.Raw = string(r.Raw)
		}
		if err := enc.Encode(line); err != nil {
			f.Close()
			return 0, fmt.Errorf("export traffic to %s: %w", path, err)
		}
	}
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("export traffic to %s: %w", path, err)
	}
	return len(rows), nil
}

func dirName(in bool) string {
	if in {
		return "in"
	}
	return "out"
}

// update refreshes the window when the ring grew, and says how an export
// went.
func (t *trafficView) update(c *viewCtx, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case streamsChangedMsg:
		if c.onScreen(t) {
			t.refresh(c)
		}
	case eventMsg:
		if e, ok := msg.e.(client.RequestRefused); ok {
			if len(t.refused) >= refusedKeep || t.refused == nil {
				t.refused = map[string]string{}
			}
			t.refused[refusedKey(e.Server, e.ID.Raw())] = e.Capability
		}
	case findingsMsg:
		if msg.list != nil {
			t.marks = newFrameMarks(msg.list)
			t.marks.resolve(c.streams, t.rows)
		}
	case exportedMsg:
		if msg.err != nil {
			return notice(msg.err.Error())
		}
		return notice(fmt.Sprintf("exported %d frames to %s", msg.n, msg.path))
	}
	return nil
}

// title is the view's first line: how many frames, the filter, whether
// it follows, and the keys, wrapped at the width (wrap.go).
func (t *trafficView) title(c *viewCtx) string {
	st := c.st
	filter := "all servers"
	if t.filter.Server != "" {
		filter = untrusted.Line(t.filter.Server)
		if era := serverEra(c, t.filter.Server); era != "" {
			filter += " · " + era
		}
	}
	method := t.filter.Method
	if t.editing {
		method += "▏"
	}
	if method != "" {
		filter += ", method ~ " + untrusted.Line(method)
	}
	state := "paused"
	if t.follow {
		state = "following"
	}
	return wrapLine(st.Title.Render(fmt.Sprintf("Traffic: %d frames", t.total))+
		st.Muted.Render(" ("+filter+", "+state+")  / filter · s server · enter show · e export · f follow"), c.width)
}

func (t *trafficView) render(c *viewCtx) string {
	st := c.st
	var b strings.Builder
	b.WriteString(t.title(c) + "\n")
	if len(t.rows) == 0 {
		b.WriteString(st.Muted.Render("no frames yet"))
	}
	for i := range t.rows {
		b.WriteString(t.line(c, &t.rows[i], i == t.cursor) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// read opens frame r in the reader: the row, the era, what went wrong,
// the HTTP exchange, and the frame indented.
func (t *trafficView) read(c *viewCtx, r TrafficEntry) tea.Cmd {
	peer := c.streams.trafficPeer(&r)
	title := strings.TrimSpace(ansi.Strip(t.line(c, &r, false)))
	era := serverEra(c, r.Server)
	return openReader(title, func(st *themes.Styles, width int) string {
		var b strings.Builder
		if era != "" {
			b.WriteString(st.Muted.Render("server "+untrusted.Line(r.Server)+" speaks "+era) + "\n")
		}
		errText := untrusted.Line(r.Err)
		switch {
		case r.Err == "":
		case r.Kind == "cancel":
			b.WriteString(st.Warning.Render("cancelled: "+errText) + "\n")
		case r.Kind == "transport":
			b.WriteString(st.Traffic.Error.Render("transport: "+errText) + "\n")
		default:
			b.WriteString(st.Traffic.Error.Render("undecodable: "+errText) + "\n")
		}
		if r.Cut > 0 {
			b.WriteString(st.Warning.Render(fmt.Sprintf("the traffic log keeps the first %d KiB of a frame %s",
				entryKeep>>10, moreNote(r.Cut))) + "\n")
		}
		b.WriteString(frameText(st, &r, peer))
		return b.String()
	})
}

func (t *trafficView) line(c *viewCtx, r *TrafficEntry, selected bool) string {
	st := c.st.Traffic
	arrow := st.Out.Render("→")
	if r.In {
		arrow = st.In.Render("←")
	}
	w := c.width
	what := r.Method
	if what == "" {
		what = r.Kind
	}
	what = untrusted.Line(rowText(what, w))
	switch {
	case r.ServerRequest():
		what = st.ServerRequest.Render("⚑ " + what)
	case r.Kind == "cancel":
		what = c.st.Warning.Render("⊘ cancel")
	case r.Kind == "error" || r.Kind == "invalid" || r.Kind == "transport":
		what = st.Error.Render(what)
	default:
		what = st.Method.Render(what)
	}
	id := ""
	if r.ID != "" {
		id = st.ID.Render(" #" + untrusted.Line(rowText(r.ID, w)))
	}
	s := st.Time.Render(r.Time.Format("15:04:05.000")) + " " + arrow + " " +
		c.st.Muted.Render(untrusted.Line(r.Server)) + " " + what + id
	if r.HTTP != nil {
		s += "  " + httpBadge(c.st, r.HTTP)
	}
	if r.Kind == "cancel" || r.Kind == "transport" {
		s += "  " + c.st.Muted.Render(untrusted.Line(rowText(r.Err, w)))
	}
	if what, ok := t.refused[refusedKey(r.Server, r.ID)]; ok && !r.In && r.Kind == "error" {
		s += "  " + c.st.Warning.Render("refused: "+untrusted.Line(what)+" not declared")
	}
	if rule, ok := t.marks.bySeq[r.Seq]; ok {
		s += "  " + c.st.Warning.Render("⚠ "+rule)
	}
	if r.Probe {
		note := "  era probe"
		if r.In && r.Kind == "error" {
			note = "  era probe: not a 2026-07-28 server, initialize follows"
		}
		s += c.st.Muted.Render(note)
	}
	if r.Cut > 0 {
		more := " " + moreNote(r.Cut)
		s = ansi.Truncate(s, max(w-2-ansi.StringWidth(more), 0), "") + c.st.Warning.Render(more)
	}
	s = ansi.Truncate(s, w-2, "…")
	if selected {
		return c.st.List.Selected.Render("› " + ansi.Strip(s))
	}
	return "  " + s
}
