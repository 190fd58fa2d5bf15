package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes"
)

// cycleServer returns the server after cur in the status bar's order,
// wrapping; the first server when cur is unknown.
func cycleServer(servers []ServerStatus, cur string) string {
	if len(servers) == 0 {
		return ""
	}
	for i, s := range servers {
		if s.Name == cur {
			return servers[(i+1)%len(servers)].Name
		}
	}
	return servers[0].Name
}

// serverCaps is what server declared, as the status bar last heard.
func serverCaps(servers []ServerStatus, name string) client.ServerCapabilities {
	for _, s := range servers {
		if s.Name == name {
			return s.Caps
		}
	}
	return client.ServerCapabilities{}
}

// firstServer is the server a browsing view starts on.
func firstServer(servers []ServerStatus, cur string) string {
	if cur != "" || len(servers) == 0 {
		return cur
	}
	return servers[0].Name
}

// listTop is the first row of a list of n rows shown in rows lines with
// the cursor kept near the middle.
func listTop(cursor, rows, n int) int {
	return clamp(cursor-rows/2, 0, max(n-rows, 0))
}

// moveCursor applies a list key to cursor over n rows of which page are
// visible; it reports whether k was a list key.
func moveCursor(km keyMap, k tea.KeyPressMsg, cursor *int, n, page int) bool {
	switch {
	case key.Matches(k, km.Up):
		*cursor--
	case key.Matches(k, km.Down):
		*cursor++
	case key.Matches(k, km.PageUp):
		*cursor -= page
	case key.Matches(k, km.PageDown):
		*cursor += page
	case key.Matches(k, km.Top):
		*cursor = 0
	case key.Matches(k, km.Bottom):
		*cursor = n - 1
	default:
		return false
	}
	*cursor = clamp(*cursor, 0, max(n-1, 0))
	return true
}

// pager shows a long rendered text a screen at a time. The text is
// rendered and wrapped once per content, styles and width, not per frame:
// a resource can be large.
type pager struct {
	lines  []string
	st     *themes.Styles
	width  int
	offset int
}

// set renders the text with render unless it was rendered already with
// these styles at this width. New content starts from a zero pager.
func (p *pager) set(st *themes.Styles, width int, render func() string) {
	if p.lines != nil && p.st == st && p.width == width {
		return
	}
	p.st, p.width = st, width
	p.lines = strings.Split(ansi.Wrap(render(), max(width, 10), ""), "\n")
}

// key scrolls by a list key; rows is how many lines are visible.
func (p *pager) key(km keyMap, k tea.KeyPressMsg, rows int) bool {
	return moveCursor(km, k, &p.offset, max(len(p.lines)-rows, 0)+1, rows)
}

// view returns the visible lines.
func (p *pager) view(rows int) string {
	off := clamp(p.offset, 0, max(len(p.lines)-rows, 0))
	return strings.Join(p.lines[off:min(off+rows, len(p.lines))], "\n")
}

// scrollHint says where in the text the view is, when it does not fit.
func (p *pager) scrollHint(st *themes.Styles, rows int) string {
	if len(p.lines) <= rows {
		return ""
	}
	off := clamp(p.offset, 0, max(len(p.lines)-rows, 0))
	return st.Muted.Render(" lines " + strconv.Itoa(off+1) + "–" + strconv.Itoa(min(off+rows, len(p.lines))) +
		" of " + strconv.Itoa(len(p.lines)) + " (↑↓ pgup pgdn)")
}
