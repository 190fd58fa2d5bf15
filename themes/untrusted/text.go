package untrusted

import (
	"strings"
	"unicode/utf8"
)

// Text makes untrusted server text safe to print on a terminal while
// keeping it readable: line feeds and tabs survive, and everything a
// terminal would act on instead of print is replaced by a visible stand-in,
// so a person debugging a server sees that it sent something odd.
//
// The replacements:
//
//   - C0 controls (U+0000–U+001F except LF and TAB) become their Unicode
//     control picture: BEL → "␇", BS → "␈", CR → "␍", ESC → "␛". With ESC
//     gone no escape sequence can start, so a CSI colour code, an OSC 52
//     clipboard write or an OSC 8 hyperlink is shown as inert text
//     ("␛]52;c;…␇") rather than executed.
//   - CR LF is folded to LF (line endings from Windows servers are not an
//     attack, and "␍" on every line would only be noise); a lone CR is "␍".
//   - DEL (U+007F) becomes "␡".
//   - C1 controls (U+0080–U+009F, including the 8-bit CSI U+009B) and the
//     bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069,
//     the "Trojan Source" characters) become "<U+009B>"-style text.
//   - Invalid UTF-8 becomes U+FFFD "�", one per bad byte.
//   - Emoji sequences whose width terminals disagree on are broken into
//     parts everyone draws alike: a zero-width joiner (U+200D) is dropped,
//     so 👨‍👩‍👧‍👦 is shown as 👨👩👧👦 (8 columns, where one terminal draws
//     2 and another 8), and so are skin-tone modifiers (U+1F3FB–U+1F3FF,
//     drawn 2 or 4 columns wide) and variation selectors (U+FE0E, U+FE0F,
//     which make some terminals draw 1 column where a width table says
//     2). Otherwise the layout's measure and the terminal's drawing part
//     ways, and the end of a message can slide past the pane's edge.
//
// A string that needs none of this is returned as is, without allocating.
// Text is idempotent.
func Text(s string) string {
	i := firstUnsafe(s, false)
	if i < 0 {
		return s
	}
	return sanitizeFrom(s, i, false)
}

// Line is Text for one-line contexts (titles, labels, list
// rows): in addition, a line break becomes "⏎" and a tab a space, so the
// text cannot break a layout that expects a single line.
func Line(s string) string {
	i := firstUnsafe(s, true)
	if i < 0 {
		return s
	}
	return sanitizeFrom(s, i, true)
}

// firstUnsafe returns the index of the first byte Text would change, or
// -1 when the string is clean.
func firstUnsafe(s string, line bool) int {
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != 0x7f || (b == '\n' || b == '\t') && !line {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// unsafeRune reports whether a non-ASCII rune must be made visible or
// dropped.
func unsafeRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || // C1 controls
		r >= 0x202a && r <= 0x202e || // LRE RLE PDF LRO RLO
		r >= 0x2066 && r <= 0x2069 || // LRI RLI FSI PDI
		widthAmbiguous(r)
}

// widthAmbiguous reports the runes that join or restyle emoji, which
// terminals draw at different widths (see Text); they are dropped.
func widthAmbiguous(r rune) bool {
	return r == 0x200d || // zero-width joiner
		r == 0xfe0e || r == 0xfe0f || // text and emoji presentation selectors
		r >= 0x1f3fb && r <= 0x1f3ff // skin-tone modifiers
}

// sanitizeFrom builds the sanitized string; s[:start] is known clean.
func sanitizeFrom(s string, start int, line bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:start])
	for i := start; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '\r' && i < len(s) && s[i] == '\n':
				// CR LF: drop the CR; the LF is handled next round.
			case c == '\n' && line:
				b.WriteRune('⏎')
			case c == '\t' && line:
				b.WriteByte(' ')
			case c == '\n' || c == '\t' || c >= 0x20 && c != 0x7f:
				b.WriteByte(c)
			case c == 0x7f:
				b.WriteRune('␡')
			default:
				b.WriteRune(0x2400 + rune(c)) // the control picture
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case widthAmbiguous(r):
			// dropped: see Text
		case unsafeRune(r):
			writeCodePoint(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// writeCodePoint writes r as "<U+XXXX>".
func writeCodePoint(b *strings.Builder, r rune) {
	const hex = "0123456789ABCDEF"
	b.WriteString("<U+")
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hex[(r>>shift)&0xf])
	}
	b.WriteByte('>')
}
