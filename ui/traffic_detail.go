package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/themes"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// The traffic view's detail is a frame in the reader: its HTTP exchange
// and the frame indented, drawn once per frame, styles and width. A frame
// kept in the ring is at most entryKeep bytes, so all of it is drawn.

// frameText draws r's HTTP exchange and r's bytes, indented when JSON.
func frameText(st *themes.Styles, r, peer *TrafficEntry) string {
	var lines []string
	for l := range strings.SplitSeq(strings.TrimSuffix(httpDetail(st, r, peer), "\n"), "\n") {
		if l != "" || r.HTTP != nil {
			lines = append(lines, l)
		}
	}
	switch {
	case len(r.Raw) == 0:
	case r.Cut > 0 || json.Valid(r.Raw):
		// A whole frame, or the first part of one: indented as
		// json.Indent would, as far as it goes.
		for _, l := range indentLines(r.Raw, len(r.Raw)+1, len(r.Raw)+1) {
			lines = append(lines, untrusted.Line(l))
		}
	default:
		// Not JSON: shown as sent.
		for l := range strings.SplitSeq(string(r.Raw), "\n") {
			lines = append(lines, untrusted.Text(strings.TrimSuffix(l, "\r")))
		}
	}
	return strings.Join(lines, "\n")
}

// indentLines indents src as json.Indent(dst, src, "", "  ") does, but
// leniently (a document cut short is indented as far as it goes) and
// lazily: it stops after maxLines lines, and keeps at most lineBytes of
// each (a long string is skipped past, not copied).
func indentLines(src []byte, maxLines, lineBytes int) []string {
	if maxLines <= 0 {
		return nil
	}
	var lines []string
	cur := make([]byte, 0, min(lineBytes, 256))
	emit := func(c ...byte) {
		if len(cur)+len(c) <= lineBytes {
			cur = append(cur, c...)
		}
	}
	depth := 0
	// newline ends the line; it reports false once maxLines are done.
	newline := func() bool {
		lines = append(lines, string(cur))
		cur = cur[:0]
		for range depth {
			emit(' ', ' ')
		}
		return len(lines) < maxLines
	}
	needIndent, inString, escaped := false, false, false
	for _, c := range src {
		if inString {
			emit(c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		if needIndent && c != '}' && c != ']' {
			// Delayed, so that an empty object or array stays {} or [].
			needIndent = false
			depth++
			if !newline() {
				return lines
			}
		}
		switch c {
		case '"':
			inString = true
			emit(c)
		case '{', '[':
			needIndent = true
			emit(c)
		case ',':
			emit(c)
			if !newline() {
				return lines
			}
		case ':':
			emit(':', ' ')
		case '}', ']':
			if needIndent {
				needIndent = false
			} else {
				depth = max(depth-1, 0)
				if !newline() {
					return lines
				}
			}
			emit(c)
		default:
			emit(c)
		}
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

// rowText is what of s a row width columns wide may show: a row is cut
// to its width anyway, and sanitizing and measuring the whole of a long
// text on every frame would freeze the UI.
func rowText(s string, width int) string { return head(s, rowBytes(width)) }

// rowBytes bounds the bytes a line width columns wide is drawn from: four
// a column leave room for wide and combining characters.
func rowBytes(width int) int { return max(width, 16) * 4 }

// moreNote says how much of an entry was not kept: "… (16.7 MB more)".
func moreNote(cut int) string {
	n := float64(cut)
	switch {
	case cut < 1000:
		return fmt.Sprintf("… (%d B more)", cut)
	case cut < 1000_000:
		return fmt.Sprintf("… (%.1f kB more)", n/1e3)
	case cut < 1000_000_000:
		return fmt.Sprintf("… (%.1f MB more)", n/1e6)
	}
	return fmt.Sprintf("… (%.1f GB more)", n/1e9)
}
