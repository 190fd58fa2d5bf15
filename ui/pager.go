package ui

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/dustin/go-humanize"

	"github.com/elicit-dev/elicit/themes"
)

// pager is the one reader of everything long: tool and task results,
// frames, resource contents, prompt results, logs. It scrolls (arrows,
// PgUp/PgDn, space, g/G, the wheel), wraps or scrolls sideways (w),
// searches (/, n, N), copies what is shown or the whole (y, Y: OSC 52),
// and always says when there is more.
//
// The text is rendered once per content, styles and width, and wrapped
// once per width and wrap setting, never per frame: a result can be
// large. A redraw touches only the visible lines.
type pager struct {
	render func() string
	st     *themes.Styles
	width  int

	src    []string // the rendered text, a line each
	lines  []string // what is displayed: src wrapped to width, or src
	starts []int    // the display line each src line starts at, wrapped
	nowrap bool     // the zero pager wraps
	plain  []string // lines without styles, made for a search

	offset int // the first line shown
	xoff   int // the first column shown, when not wrapping
	rows   int // how many lines the last view showed, for the wheel

	// Search: typing while the query is typed at the bottom line; query
	// is the one in force, hits its matches in display order, hit the
	// one n/N moved to.
	typing bool
	input  string
	query  string
	hits   []pagerHit
	hit    int
}

// pagerHit is one match: its display line and byte range in plain.
type pagerHit struct{ line, from, to int }

// copyCap bounds what one OSC 52 copy sends: terminals drop or truncate
// larger sequences, and a base64 of megabytes in the output would stall
// the screen.
const copyCap = 1 << 20

// set renders the text with render unless it was rendered already with
// these styles at this width. New content starts from a zero pager.
func (p *pager) set(st *themes.Styles, width int, render func() string) {
	width = max(width, 10)
	if p.src != nil && p.st == st && p.width == width {
		return
	}
	p.st, p.width, p.render = st, width, render
	p.src = strings.Split(strings.TrimRight(render(), "\n"), "\n")
	p.layout()
}

// layout wraps the text to the width (or not) and finds the query again.
func (p *pager) layout() {
	if p.nowrap {
		p.lines, p.starts = p.src, nil
	} else {
		p.lines = make([]string, 0, len(p.src))
		p.starts = make([]int, len(p.src))
		for i, l := range p.src {
			p.starts[i] = len(p.lines)
			if ansi.StringWidth(l) <= p.width {
				p.lines = append(p.lines, l)
				continue
			}
			p.lines = append(p.lines, hangingWrap(l, p.width)...)
		}
	}
	p.plain = nil
	if p.query != "" {
		p.find(p.query)
	}
}

// typingQuery reports whether the search query has the keys.
func (p *pager) typingQuery() bool { return p.typing }

// key handles a pager key; rows is how many lines are visible. It reports
// whether k was one, and a command to run (a copy).
func (p *pager) key(km keyMap, k tea.KeyPressMsg, rows int) (tea.Cmd, bool) {
	if p.typing {
		return nil, p.typeKey(k, rows)
	}
	rows = max(rows, 1)
	switch {
	case key.Matches(k, km.Up):
		p.scroll(-1, rows)
	case key.Matches(k, km.Down):
		p.scroll(+1, rows)
	case key.Matches(k, km.PageUp, km.PageBack):
		p.scroll(-rows, rows)
	case key.Matches(k, km.PageDown, km.PageFwd):
		p.scroll(+rows, rows)
	case key.Matches(k, km.Top):
		p.offset = 0
	case key.Matches(k, km.Bottom):
		p.offset = p.maxOffset(rows)
	case key.Matches(k, km.Left) && p.nowrap:
		p.xoff = max(p.xoff-p.width/2, 0)
	case key.Matches(k, km.Right) && p.nowrap:
		p.xoff = min(p.xoff+p.width/2, max(p.widest()-p.width, 0))
	case key.Matches(k, km.Wrap):
		top := p.topSrcLine() // in the layout on show
		p.nowrap, p.xoff = !p.nowrap, 0
		p.layout()
		p.offset = min(p.displayLineOf(top), p.maxOffset(rows))
	case key.Matches(k, km.Search):
		p.typing, p.input = true, ""
	case key.Matches(k, km.MatchNext):
		p.next(+1, rows)
	case key.Matches(k, km.MatchPrev):
		p.next(-1, rows)
	case key.Matches(k, km.CopyShown):
		return p.copy(p.visible(rows), "what is shown"), true
	case key.Matches(k, km.CopyAll):
		return p.copy(p.src, "the whole text"), true
	default:
		return nil, false
	}
	return nil, true
}

// typeKey edits the query: enter searches, esc gives up.
func (p *pager) typeKey(k tea.KeyPressMsg, rows int) bool {
	switch k.String() {
	case "enter":
		p.typing = false
		if p.input == "" {
			p.query, p.hits = "", nil
			return true
		}
		p.find(p.input)
		p.hit = p.firstHitFrom(p.offset)
		p.show(rows)
	case "esc":
		p.typing = false
	case "backspace":
		if _, n := utf8.DecodeLastRuneInString(p.input); n > 0 {
			p.input = p.input[:len(p.input)-n]
		}
	default:
		if k.Text != "" {
			p.input += k.Text
		}
	}
	return true
}

// paste adds pasted text to the query being typed.
func (p *pager) paste(text string) bool {
	if !p.typing {
		return false
	}
	p.input += strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, text)
	return true
}

// wheel scrolls by the mouse wheel.
func (p *pager) wheel(m tea.MouseWheelMsg) {
	rows := max(p.rows, 1)
	switch m.Button {
	case tea.MouseWheelUp:
		p.scroll(-3, rows)
	case tea.MouseWheelDown:
		p.scroll(+3, rows)
	case tea.MouseWheelLeft:
		if p.nowrap {
			p.xoff = max(p.xoff-8, 0)
		}
	case tea.MouseWheelRight:
		if p.nowrap {
			p.xoff = min(p.xoff+8, max(p.widest()-p.width, 0))
		}
	}
}

func (p *pager) scroll(d, rows int) {
	p.offset = clamp(p.offset+d, 0, p.maxOffset(rows))
}

func (p *pager) maxOffset(rows int) int { return max(len(p.lines)-max(rows, 1), 0) }

// find looks for q in every line, case-insensitively unless q has a
// capital (as less and vim's smartcase do).
func (p *pager) find(q string) {
	p.query, p.hits, p.hit = q, p.hits[:0], 0
	if p.plain == nil {
		p.plain = make([]string, len(p.lines))
		for i, l := range p.lines {
			p.plain[i] = ansi.Strip(l)
		}
	}
	fold := strings.ToLower(q) == q
	if fold {
		q = strings.ToLower(q)
	}
	for i, l := range p.plain {
		if fold {
			// ToLower may change byte lengths (İ), so hits are only
			// kept where the lowered line is the same length.
			if ll := strings.ToLower(l); len(ll) == len(l) {
				l = ll
			}
		}
		for from := 0; ; {
			j := strings.Index(l[from:], q)
			if j < 0 {
				break
			}
			p.hits = append(p.hits, pagerHit{line: i, from: from + j, to: from + j + len(q)})
			from += j + max(len(q), 1)
		}
	}
}

// firstHitFrom is the first match at or after display line top.
func (p *pager) firstHitFrom(top int) int {
	for i, h := range p.hits {
		if h.line >= top {
			return i
		}
	}
	return 0
}

// next moves to the next (d=+1) or previous match, wrapping.
func (p *pager) next(d, rows int) {
	if len(p.hits) == 0 {
		return
	}
	p.hit = (p.hit + d + len(p.hits)) % len(p.hits)
	p.show(rows)
}

// show scrolls so that the current match is on screen, a third down.
func (p *pager) show(rows int) {
	if len(p.hits) == 0 {
		return
	}
	h := p.hits[p.hit]
	if h.line < p.offset || h.line >= p.offset+rows {
		p.offset = clamp(h.line-rows/3, 0, p.maxOffset(rows))
	}
	if p.nowrap {
		col := ansi.StringWidth(p.plain[h.line][:h.from])
		if col < p.xoff || col >= p.xoff+p.width {
			p.xoff = max(col-p.width/3, 0)
		}
	}
}

// topSrcLine is the text line the first shown line belongs to, so a
// wrap toggle keeps the place.
func (p *pager) topSrcLine() int {
	if p.nowrap {
		return p.offset
	}
	i, found := slices.BinarySearch(p.starts, p.offset)
	if !found {
		i--
	}
	return clamp(i, 0, max(len(p.src)-1, 0))
}

// displayLineOf is the first display line of text line i.
func (p *pager) displayLineOf(i int) int {
	if p.nowrap {
		return i
	}
	if i < len(p.starts) {
		return p.starts[i]
	}
	return len(p.lines)
}

// keyValueRow is the head of an indented "key   value" row (a key of one
// word, then two spaces or more), up to where the value starts.
var keyValueRow = regexp.MustCompile(`^ +[^ ]+ {2,}`)

// hangingWrap wraps a line to width, its continuation lines indented as
// far as its text starts (its leading spaces; in an indented list item,
// after the bullet; in an indented "key   value" row, where the value
// starts), up to half the width, so a wrapped description or value stays
// in its column.
func hangingWrap(l string, width int) []string {
	plain := ansi.Strip(l)
	indent := len(plain) - len(strings.TrimLeft(plain, " "))
	switch rest := plain[indent:]; {
	case indent == 0:
	case strings.HasPrefix(rest, "- "), strings.HasPrefix(rest, "* "), strings.HasPrefix(rest, "• "):
		indent += 2 // a list item hangs at its text
	default:
		if m := keyValueRow.FindStringIndex(plain); m != nil {
			indent = ansi.StringWidth(plain[:m[1]])
		}
	}
	if indent == 0 || indent > width/2 {
		return strings.Split(ansi.Wrap(l, width, ""), "\n")
	}
	out := strings.Split(ansi.Wrap(l, width-indent, ""), "\n")
	pad := strings.Repeat(" ", indent)
	for i := 1; i < len(out); i++ {
		out[i] = pad + out[i]
	}
	return out
}

func (p *pager) widest() int {
	w := 0
	for _, l := range p.src {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

// visible is the display lines on screen.
func (p *pager) visible(rows int) []string {
	off := clamp(p.offset, 0, p.maxOffset(rows))
	return p.lines[off:min(off+max(rows, 1), len(p.lines))]
}

// view returns the visible lines, matches marked, cut sideways when not
// wrapping.
func (p *pager) view(rows int) string {
	p.rows = rows
	off := clamp(p.offset, 0, p.maxOffset(rows))
	vis := p.visible(rows)
	out := make([]string, len(vis))
	h := 0
	for h < len(p.hits) && p.hits[h].line < off {
		h++
	}
	for i, l := range vis {
		line := off + i
		if h < len(p.hits) && p.hits[h].line == line {
			l, h = p.marked(line, h), p.skipLine(h, line)
		}
		if p.nowrap && p.xoff > 0 {
			l = ansi.Cut(l, p.xoff, p.xoff+p.width)
		}
		out[i] = l
	}
	return strings.Join(out, "\n")
}

func (p *pager) skipLine(h, line int) int {
	for h < len(p.hits) && p.hits[h].line == line {
		h++
	}
	return h
}

// marked draws line plainly with its matches in the match styles (the
// line's own styles give way: a match must be seen).
func (p *pager) marked(line, h int) string {
	pl := p.plain[line]
	var b strings.Builder
	at := 0
	for ; h < len(p.hits) && p.hits[h].line == line; h++ {
		m := p.hits[h]
		b.WriteString(pl[at:m.from])
		style := p.st.Reader.Match
		if h == p.hit {
			style = p.st.Reader.Current
		}
		b.WriteString(style.Render(pl[m.from:m.to]))
		at = m.to
	}
	b.WriteString(pl[at:])
	return b.String()
}

// copy puts lines, without styles, on the clipboard through OSC 52.
func (p *pager) copy(lines []string, what string) tea.Cmd {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(ansi.Strip(l))
		if b.Len() > copyCap {
			break
		}
	}
	text, note := b.String(), ""
	if len(text) > copyCap {
		text = head(text, copyCap)
		note = ", cut to the first " + humanize.IBytes(copyCap)
	}
	return tea.Batch(tea.SetClipboard(text),
		notice(fmt.Sprintf("copied %s (%s%s) to the clipboard through OSC 52", what, humanize.IBytes(uint64(len(text))), note)))
}

// scrollHint says where in the text the view is and what the keys do;
// while a query is typed, it is the query line.
func (p *pager) scrollHint(st *themes.Styles, rows int) string {
	if p.typing {
		return " " + st.Title.Render("/") + p.input + "▏" + st.Muted.Render("  enter search · esc back")
	}
	var parts []string
	fits := len(p.lines) <= rows
	if !fits {
		off := clamp(p.offset, 0, p.maxOffset(rows))
		end := min(off+rows, len(p.lines))
		s := "lines " + strconv.Itoa(off+1) + "–" + strconv.Itoa(end) + " of " + strconv.Itoa(len(p.lines))
		switch {
		case end < len(p.lines) && off > 0:
			s += " ↑↓ more"
		case end < len(p.lines):
			s += " ↓ more"
		default:
			s += " ↑ (end)"
		}
		parts = append(parts, s)
	}
	if p.nowrap && p.widest() > p.width {
		parts = append(parts, "→ wider (←→)")
	}
	if p.query != "" {
		if len(p.hits) == 0 {
			parts = append(parts, "no match for "+strconv.Quote(p.query))
		} else {
			parts = append(parts, fmt.Sprintf("match %d/%d n N", p.hit+1, len(p.hits)))
		}
	}
	wrap := "w unwrap"
	if p.nowrap {
		wrap = "w wrap"
	}
	if fits && p.query == "" && !(p.nowrap && p.widest() > p.width) {
		return st.Muted.Render("  / search · y copy")
	}
	return st.Muted.Render("  " + strings.Join(append(parts, "/ search", wrap, "y Y copy"), " · "))
}

// headed lays out a reader: its title line, the scroll hint beside it
// when both fit width, else on a line of its own (the text one row
// shorter), so the title is never cut for the hint nor the hint for the
// title.
func (p *pager) headed(st *themes.Styles, head string, width, rows int) string {
	if hint := p.scrollHint(st, rows); ansi.StringWidth(head)+ansi.StringWidth(hint) <= width {
		return head + hint + "\n" + p.view(rows)
	}
	rows = max(rows-1, 1)
	return head + "\n" + p.scrollHint(st, rows) + "\n" + p.view(rows)
}
