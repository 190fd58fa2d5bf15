package untrusted

import (
	"unicode/utf8"
)

// JSON makes encoded JSON safe to print: whatever a peer put in its
// strings, the output is valid UTF-8 and holds no byte a terminal acts on.
// encoding/json already escapes C0 controls in the strings it encodes,
// but copies a json.RawMessage (a result as the server sent it) byte for
// byte and leaves C1 controls and bidi overrides as they are. So:
//
//   - C1 controls (U+0080–U+009F: 8-bit CSI and OSC), bidi overrides and
//     isolates, and DEL become \u escapes;
//   - invalid UTF-8 becomes \ufffd, one per bad byte, and repaired says so.
//
// It is meant for valid JSON, where non-ASCII appears only inside strings
// (so an escape is always legal); JSON whitespace is left alone. The
// result is the input itself when nothing needs changing.
func JSON(b []byte) (out []byte, repaired bool) {
	i := firstUnsafeJSON(b)
	if i < 0 {
		return b, false
	}
	out = make([]byte, 0, len(b)+32)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				out = appendEscape(out, rune(c))
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\ufffd`...)
			repaired = true
		case unsafeJSONRune(r):
			out = appendEscape(out, r)
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out, repaired
}

// firstUnsafeJSON is the index of the first byte JSON would change, or -1.
func firstUnsafeJSON(b []byte) int {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || unsafeJSONRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// unsafeJSONRune: C1 controls and bidi controls (the width-only emoji
// runes of Text stay: JSON output is not laid out).
func unsafeJSONRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

func appendEscape(out []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
