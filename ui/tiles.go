package ui

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client/question"
)

// Tiles: with two or more questions and room on the terminal, the prompts
// view shows up to four panes at once, each a live form sized to its
// tile. Only the focused tile takes keys; F2/F3 move the focus in arrival
// order and the window of tiles follows it, the strip lists the rest.
// ctrl+s switches between tiles and one pane at a time.

const (
	// minTileW keeps a tile's footer (Decline, esc, F2) whole: the
	// footer's short form fits 60 columns.
	minTileW = 60
	// minTileH leaves a form 8 rows inside its tile (the header, a note,
	// a blank line, the footer and the frame take the rest): a message
	// and a select of four.
	minTileH = 14
	// maxTiles is 2×2.
	maxTiles = 4
)

// tile is one pane's place in the body, in cells from the body's top
// left.
type tile struct {
	pn         *pane
	x, y, w, h int
}

// tiling is what the prompts view shows: the panes from start on, in
// arrival order, one per tile. One tile is the single pane view.
type tiling struct {
	start int
	tiles []tile
}

func (t tiling) tiled() bool { return len(t.tiles) > 1 }

// tileGrid is how many columns and rows of tiles a body of w×h holds.
func tileGrid(w, h int) (cols, rows int) {
	cols, rows = 1, 1
	if w >= 2*minTileW {
		cols = 2
	}
	if h >= 2*minTileH {
		rows = 2
	}
	return cols, rows
}

// tiling lays the panes out for the body's size. It does not change the
// view: View calls it, and settle keeps the start it chose, so the window
// moves only as far as the focus makes it (like the strip's).
func (p *promptsView) tiling(c *viewCtx) tiling {
	n, fi := len(p.panes), p.indexOf(p.focus)
	if n == 0 || fi < 0 {
		return tiling{}
	}
	bw, bh := c.width, c.bodyHeight()
	k, cols := 1, 1
	if !p.single && n >= 2 {
		var rows int
		cols, rows = tileGrid(bw, bh)
		k = min(n, cols*rows, maxTiles)
	}
	if k == 1 {
		return tiling{start: fi, tiles: []tile{{pn: p.panes[fi], w: bw, h: bh}}}
	}
	start := min(max(p.start, fi-k+1), fi)
	start = min(max(start, 0), n-k)
	// Row by row; a last row with fewer tiles shares the whole width, so
	// three are two above one (and two side by side take the full height).
	rows := (k + cols - 1) / cols
	t := tiling{start: start, tiles: make([]tile, 0, k)}
	for r := range rows {
		inRow := min(cols, k-r*cols)
		y, h := r*(bh/rows), bh/rows
		if r == rows-1 {
			h = bh - y
		}
		for col := range inRow {
			x, w := col*(bw/inRow), bw/inRow
			if col == inRow-1 {
				w = bw - x
			}
			t.tiles = append(t.tiles, tile{pn: p.panes[start+r*cols+col], x: x, y: y, w: w, h: h})
		}
	}
	return t
}

// tiled reports whether the view shows tiles now.
func (p *promptsView) tiled(c *viewCtx) bool { return p.tiling(c).tiled() }

// paneInnerOf is the space inside a pane's frame of w×h (border and
// padding); viewCtx.paneInner is the whole body's.
func paneInnerOf(w, h int) (iw, ih int) { return max(w-4, 10), max(h-2, 3) }

// sizeShown keeps the window where the focus is and sizes every form on
// screen to its tile. A form is told its size only when it changes
// (forms lay out on WindowSizeMsg), so hidden panes cost nothing on a
// resize and a redraw sends nothing.
func (p *promptsView) sizeShown(c *viewCtx) tea.Cmd {
	t := p.tiling(c)
	p.start = t.start
	if c.width == 0 {
		return nil
	}
	var cmds []tea.Cmd
	for _, tl := range t.tiles {
		pn := tl.pn
		if pn.form == nil {
			continue
		}
		w, h := paneInnerOf(tl.w, tl.h)
		// The form shows the message itself; the header, a note, a blank
		// line and the footer take four more.
		h = max(h-4, 3)
		if pn.sizedW == w && pn.sizedH == h {
			continue
		}
		pn.sizedW, pn.sizedH = w, h
		cmds = append(cmds, tag(pn.id, pn.form.SetSize(w, h)))
	}
	return tea.Batch(cmds...)
}

// settle runs after every Update: it sizes what is on screen and, when
// the person can see it (showing), marks every pane on screen as seen. A
// tile counts as on screen from the moment it appears: its answering
// keys wait Options.ArmDelay from then.
func (p *promptsView) settle(c *viewCtx, showing bool) tea.Cmd {
	cmd := p.sizeShown(c)
	if showing {
		t := p.tiling(c)
		for _, tl := range t.tiles {
			if !tl.pn.seen {
				tl.pn.seen, tl.pn.shownAt = true, c.now()
			}
		}
	}
	return cmd
}

// openShown reports whether an open pane is on screen (its waiting time
// is drawn).
func (p *promptsView) openShown(c *viewCtx) bool {
	for _, tl := range p.tiling(c).tiles {
		if tl.pn.open() {
			return true
		}
	}
	return false
}

// layoutKey takes the view's own keys, before the focused pane: ctrl+s
// (tiles or one pane) and ctrl+l (clear every ended pane).
func (p *promptsView) layoutKey(c *viewCtx, k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(k, c.keys.Tiles):
		// The choice is kept; when the screen does not change, the status
		// bar says what was chosen and why nothing moved.
		was := p.tiled(c)
		p.single = !p.single
		now := p.tiled(c)
		switch {
		case was != now:
			return p.sizeShown(c), true
		case p.single:
			return notice("one question at a time (" + c.keys.Tiles.Help().Key + ": tiles)"), true
		}
		why := "tiles need two questions"
		if len(p.panes) >= 2 {
			why = "tiles need " + strconv.Itoa(2*minTileW) + " cols or " +
				strconv.Itoa(2*minTileH+chrome) + " rows (" +
				strconv.Itoa(c.width) + "×" + strconv.Itoa(c.height) + " here)"
		}
		return notice(why), true
	case key.Matches(k, c.keys.ClearEnded):
		return p.clearEnded(c), true
	}
	return nil, false
}

// clearEnded drops every ended pane (answered and confirmed, declined,
// cancelled, withdrawn, disconnected…); the journal keeps their outcomes.
// Panes still waiting for the server's word stay.
func (p *promptsView) clearEnded(c *viewCtx) tea.Cmd {
	var cmds []tea.Cmd
	for _, pn := range slices.Clone(p.panes) {
		if pn.state == paneEnded {
			cmds = append(cmds, p.removePane(c, pn))
		}
	}
	if len(cmds) == 0 {
		return notice("no ended questions to clear")
	}
	return tea.Batch(append(cmds, p.sizeShown(c))...)
}

// footerHints are the view's keys a pane's footer adds: ctrl+s when tiles
// are on screen or would be, ctrl+l when more than one pane has ended.
func (p *promptsView) footerHints(c *viewCtx, t tiling) (open, ended []footerHint) {
	switch {
	case t.tiled():
		open = append(open, footerHint{c.keys.Tiles.Help().Key, "one at a time"})
	case len(p.panes) >= 2:
		if cols, rows := tileGrid(c.width, c.bodyHeight()); cols*rows > 1 {
			open = append(open, footerHint{c.keys.Tiles.Help().Key, "tiles"})
		}
	}
	n := 0
	for _, pn := range p.panes {
		if pn.state == paneEnded {
			n++
		}
	}
	if n > 1 {
		ended = append(ended, footerHint{c.keys.ClearEnded.Help().Key, "clear all " + strconv.Itoa(n) + " ended"})
	}
	return open, ended
}

// renderTiles draws the panes on screen, each in its frame, at exactly
// the body's size: tiles of a row are joined line by line.
func (p *promptsView) renderTiles(c *viewCtx, t tiling) string {
	open, ended := p.footerHints(c, t)
	if !t.tiled() {
		return p.renderTile(c, t, 0, open, ended)
	}
	lines := make([]string, 0, c.bodyHeight())
	for i := 0; i < len(t.tiles); {
		j := i + 1
		for j < len(t.tiles) && t.tiles[j].y == t.tiles[i].y {
			j++
		}
		row := make([][]string, 0, j-i)
		for q := i; q < j; q++ {
			row = append(row, strings.Split(p.renderTile(c, t, q, open, ended), "\n"))
		}
		var b strings.Builder
		for l := range t.tiles[i].h {
			b.Reset()
			for _, r := range row {
				if l < len(r) {
					b.WriteString(r[l])
				}
			}
			lines = append(lines, b.String())
		}
		i = j
	}
	return strings.Join(lines, "\n")
}

// renderTile draws tile i. The single pane's border is highlighted while
// it is open; among tiles, the focused one's is, and each tile's top
// border carries its number (alt+digit, the strip).
func (p *promptsView) renderTile(c *viewCtx, t tiling, i int, open, ended []footerHint) string {
	tl := t.tiles[i]
	pn := tl.pn
	w, h := paneInnerOf(tl.w, tl.h)
	frame, title := c.st.Pane.Frame, ""
	if !t.tiled() {
		if pn.open() {
			frame = c.st.Pane.Focused
		}
	} else {
		title = strconv.Itoa(t.start + i + 1)
		if pn.id == p.focus {
			frame = c.st.Pane.Focused
		}
	}
	hints := open
	if pn.state == paneEnded {
		hints = ended
	}
	body, footer := pn.render(c.st, c.keys, w, c.now(), c.selfName(pn.p.Server), hints)
	return drawTitledFrame(frame, title, pn.fit(c.st, body, footer, w, h), tl.w, tl.h)
}

// clickPane handles a left click in the body of the prompts view: a
// click on a tile focuses it, and a click on a pane's Decline button
// declines that pane once it is armed.
func (m *Model) clickPane(x, y int) tea.Cmd {
	if m.view != viewPrompts || m.showHelp || m.width == 0 {
		return nil
	}
	t := m.prompts.tiling(&m.viewCtx)
	by := y - (stripRow + 1)
	for i, tl := range t.tiles {
		if x < tl.x || x >= tl.x+tl.w || by < tl.y || by >= tl.y+tl.h {
			continue
		}
		var cmd tea.Cmd
		if tl.pn.id != m.prompts.focus {
			cmd = m.prompts.focusPane(&m.viewCtx, tl.pn.id)
		}
		if m.declineAt(t, i, x-tl.x, by-tl.y) && tl.pn.armed(m.now(), m.opts.ArmDelay) {
			tl.pn.answer(question.Outcome{Kind: question.Decline})
		}
		return cmd
	}
	return nil
}

// declineAt reports whether cell (x, y) of tile i is on its open pane's
// Decline button. It looks for the button in the rendered tile instead of
// recomputing the layout, so it agrees with what is on screen whatever
// wraps. The button counts only on the pane's last line of text, the
// footer, where server text cannot be: a message that says "Decline
// ctrl+x" is not a button.
func (m *Model) declineAt(t tiling, i, x, y int) bool {
	if !t.tiles[i].pn.open() {
		return false
	}
	open, ended := m.prompts.footerHints(&m.viewCtx, t)
	lines := strings.Split(ansi.Strip(m.prompts.renderTile(&m.viewCtx, t, i, open, ended)), "\n")
	last := -1
	for j := len(lines) - 1; j >= 0 && last < 0; j-- {
		if strings.IndexFunc(lines[j], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			last = j
		}
	}
	if last < 0 || y != last {
		return false
	}
	j := strings.Index(lines[y], declineLabel)
	if j < 0 {
		return false
	}
	btn := m.st.Pane.Button
	x0 := ansi.StringWidth(lines[y][:j]) - btn.GetPaddingLeft()
	x1 := x0 + btn.GetPaddingLeft() + ansi.StringWidth(declineLabel) + btn.GetPaddingRight()
	return x >= x0 && x < x1
}
