package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// clipLines keeps the first h lines of s. A lipgloss MaxHeight style would
// also measure and pad every line, doubling the cost of a prompts frame.
func clipLines(s string, h int) string {
	if h <= 0 {
		return ""
	}
	i, n := 0, 0
	for n < h {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		i += j + 1
		n++
	}
	return s[:i-1]
}

// fitBody makes s exactly h lines of at most w columns: longer lines are
// truncated, missing lines are left empty (the renderer clears them).
// Lines are measured only when their byte length could exceed w, since a
// cell never takes less than one byte.
func fitBody(s string, w, h int) string {
	var b strings.Builder
	b.Grow(len(s) + h)
	rest := s
	for n := range h {
		if n > 0 {
			b.WriteByte('\n')
		}
		if rest == "" && n > 0 {
			continue
		}
		line, tail, _ := strings.Cut(rest, "\n")
		rest = tail
		if len(line) > w && ansi.StringWidth(line) > w {
			line = ansi.Truncate(line, w, "")
		}
		b.WriteString(line)
	}
	return b.String()
}

// drawTitledFrame draws inner inside the border and padding of st,
// exactly w×h cells: lines are cut, never wrapped (so nothing below them
// moves), and padded; missing lines are blank. It is
// st.Width(w).Height(h).Render for a frame at a fraction of the cost:
// lipgloss measures every line several times, which made the frame the
// largest part of a redraw. title (plain text of ours, a tile's number)
// is set into the top border after its first cell; a title that does not
// fit is left out.
func drawTitledFrame(st lipgloss.Style, title, inner string, w, h int) string {
	bd := st.GetBorderStyle()
	paint := lipgloss.NewStyle().Foreground(st.GetBorderTopForeground())
	pl, pr := st.GetPaddingLeft(), st.GetPaddingRight()
	cw := max(w-2-pl-pr, 0)
	left := paint.Render(bd.Left) + strings.Repeat(" ", pl)
	right := strings.Repeat(" ", pr) + paint.Render(bd.Right)
	var b strings.Builder
	b.Grow(len(inner) + h*(len(left)+len(right)+cw))
	top := bd.TopLeft + strings.Repeat(bd.Top, max(w-2, 0)) + bd.TopRight
	if tw := ansi.StringWidth(title); title != "" && tw+5 <= w {
		top = bd.TopLeft + bd.Top + " " + title + " " + strings.Repeat(bd.Top, w-5-tw) + bd.TopRight
	}
	b.WriteString(paint.Render(top))
	rest := inner
	for range max(h-2, 0) {
		line := ""
		if rest != "" {
			line, rest, _ = strings.Cut(rest, "\n")
		}
		lw := ansi.StringWidth(line)
		if lw > cw {
			line = ansi.Truncate(line, cw, "")
			lw = ansi.StringWidth(line)
		}
		b.WriteString("\n" + left + line + strings.Repeat(" ", cw-lw) + right)
	}
	b.WriteString("\n" + paint.Render(bd.BottomLeft+strings.Repeat(bd.Bottom, max(w-2, 0))+bd.BottomRight))
	return b.String()
}
