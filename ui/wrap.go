package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// A line of ours that says something to the person (a title with its
// keys, a form's head, a task's details) is wrapped at the width, never
// cut: the body's fitting cuts a line silently, and at 80 columns that
// took "r reconnect" off the tools' title and "suggestions as you type"
// off a template's form (issue 26). Rows of a list are cut with "…"
// instead: the details show them whole.

// wrapLine wraps s (styled or not) at width: between its parts (" · ",
// or the three spaces after a title) where one fits, so a key stays
// beside what it does, else at spaces.
func wrapLine(s string, width int) string {
	if width <= 0 || ansi.StringWidth(s) <= width {
		return s
	}
	var out []string
	for s != "" && ansi.StringWidth(s) > width {
		cut, skip := partBreak(s, width)
		if cut <= 0 {
			out = append(out, ansi.Wrap(s, width, ""))
			s = ""
			break
		}
		out = append(out, s[:cut])
		s = s[cut+skip:]
	}
	if s != "" {
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

// partSeps are where a line of ours may break, best first.
var partSeps = [...]string{" · ", "   "}

// partBreak is the last place in s before width where a part ends, and
// the separator's length there; 0 when none does.
func partBreak(s string, width int) (cut, skip int) {
	for _, sep := range partSeps {
		for i := 0; ; {
			j := strings.Index(s[i:], sep)
			if j < 0 || ansi.StringWidth(s[:i+j]) > width {
				break
			}
			if i+j > cut {
				cut, skip = i+j, len(sep)
			}
			i += j + len(sep)
		}
	}
	return cut, skip
}

// wrapped is text in st, wrapped at width, each line styled.
func wrapped(st lipgloss.Style, text string, width int) string {
	lines := strings.Split(wrapLine(text, width), "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return strings.Join(lines, "\n")
}
