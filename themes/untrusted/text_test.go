package untrusted

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"plain", "Please enter your name", "Please enter your name"},
		{"newline and tab kept", "line 1\n\tline 2", "line 1\n\tline 2"},
		{"unicode kept", "Grüße, 世界 👋 café 🇺🇸", "Grüße, 世界 👋 café 🇺🇸"},
		{"zwj family broken", "👨\u200d👩\u200d👧\u200d👦 ok", "👨👩👧👦 ok"},
		{"skin tone dropped", "👍\U0001F3FD yes", "👍 yes"},
		{"presentation selectors dropped", "❤\ufe0f ☺\ufe0e", "❤ ☺"},
		{"bell", "ding\a", "ding␇"},
		{"backspace overwrite", "safe\b\b\b\bEVIL", "safe␈␈␈␈EVIL"},
		{"nul", "a\x00b", "a␀b"},
		{"carriage return overwrite", "rm -rf /\rls -la  ", "rm -rf /␍ls -la  "},
		{"crlf folded", "one\r\ntwo\r\n", "one\ntwo\n"},
		{"cr cr lf", "a\r\r\nb", "a␍\nb"},
		{"trailing cr", "a\r", "a␍"},
		{"del", "a\x7fb", "a␡b"},
		{"csi colour", "\x1b[31mred\x1b[0m", "␛[31mred␛[0m"},
		{"clear screen", "\x1b[2J\x1b[H", "␛[2J␛[H"},
		{"cursor up and erase line", "ok\x1b[1A\x1b[2Kfake", "ok␛[1A␛[2Kfake"},
		{"osc 52 clipboard bel", "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\a", "␛]52;c;Y3VybCBldmlsLnNoIHwgc2g=␇"},
		{"osc 52 clipboard st", "\x1b]52;c;ZWNobyBwd25lZA==\x1b\\", "␛]52;c;ZWNobyBwd25lZA==␛\\"},
		{"osc 8 link bel", "\x1b]8;;https://evil.example\aclick me\x1b]8;;\a", "␛]8;;https://evil.example␇click me␛]8;;␇"},
		{"osc 8 link st", "\x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\", "␛]8;;https://evil.example␛\\docs␛]8;;␛\\"},
		{"osc title", "\x1b]0;owned\a", "␛]0;owned␇"},
		{"dcs", "\x1bPq#0;2;0;0;0\x1b\\", "␛Pq#0;2;0;0;0␛\\"},
		{"apc", "\x1b_Gf=100;payload\x1b\\", "␛_Gf=100;payload␛\\"},
		{"pm and sos", "\x1b^pm\x1b\\\x1bXsos\x1b\\", "␛^pm␛\\␛Xsos␛\\"},
		{"c1 csi codepoint", "a\u009b31mb", "a<U+009B>31mb"},
		{"c1 osc and st codepoints", "\u009d0;t\u009c", "<U+009D>0;t<U+009C>"},
		{"c1 nel", "x\u0085y", "x<U+0085>y"},
		{"raw 8-bit csi byte is invalid utf-8", "a\x9b31mb", "a\uFFFD31mb"},
		{"invalid utf-8", "ok\xff\xfe!", "ok\uFFFD\uFFFD!"},
		{"truncated utf-8", "caf\xc3", "caf\uFFFD"},
		{"overlong encoding", "\xc0\xaf", "\uFFFD\uFFFD"},
		{"surrogate half", "\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"bidi override trojan source", "access\u202e\u2066// admin\u2069\u2066", "access<U+202E><U+2066>// admin<U+2069><U+2066>"},
		{"bidi embeddings", "\u202a\u202b\u202c\u202d", "<U+202A><U+202B><U+202C><U+202D>"},
		{"bidi isolates", "\u2067x\u2068", "<U+2067>x<U+2068>"},
		{"lrm rlm are left alone", "a\u200eb\u200f", "a\u200eb\u200f"},
		{"control pictures pass through", "␛[31m", "␛[31m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSanitizeLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Name", "Name"},
		{"newline folded", "first\nsecond", "first⏎second"},
		{"crlf folded once", "first\r\nsecond", "first⏎second"},
		{"tab to space", "a\tb", "a b"},
		{"escape", "\x1b[1mbold", "␛[1mbold"},
		{"bidi", "\u202egnp.exe", "<U+202E>gnp.exe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Line(tt.in); got != tt.want {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestSanitizeCleanNoAlloc checks the fast path: clean text comes back
// without being copied.
func TestSanitizeCleanNoAlloc(t *testing.T) {
	clean := "Please enter your details.\n\tGrüße 世界 — naïve café ✓"
	allocs := testing.AllocsPerRun(100, func() {
		if Text(clean) != clean || Line("one line ✓") != "one line ✓" {
			t.Fatal("clean text changed")
		}
	})
	if allocs != 0 {
		t.Errorf("Text of clean text allocated %v times per run", allocs)
	}
	dirty := "a\x1b[31mb"
	if allocs := testing.AllocsPerRun(100, func() { _ = Text(dirty) }); allocs != 1 {
		t.Errorf("Text of dirty text allocated %v times per run, want 1", allocs)
	}
}

// checkSafe reports the first thing in out a terminal would act on.
func checkSafe(t *testing.T, in, out string, line bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output of %q is not valid UTF-8: %q", in, out)
	}
	for i := 0; i < len(out); i++ {
		b := out[i]
		if b == 0x7f || b < 0x20 && b != '\n' && b != '\t' {
			t.Fatalf("output of %q has control byte %#x at %d: %q", in, b, i, out)
		}
		if line && (b == '\n' || b == '\t') {
			t.Fatalf("line output of %q has %q at %d: %q", in, b, i, out)
		}
	}
	for _, r := range out {
		if unsafeRune(r) {
			t.Fatalf("output of %q has %U: %q", in, r, out)
		}
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\x1b[31mred\x1b[0m", "\x1b]52;c;AAAA\a", "\x1b]8;;u\x1b\\t\x1b]8;;\x1b\\",
		"\u009b2J", "\x9b2J", "\u202e\u2066x\u2069", "\xff\xfe", "a\r\nb\rc", "\x00\x7f\t\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Text(in)
		checkSafe(t, in, out, false)
		if again := Text(out); again != out {
			t.Fatalf("not idempotent: %q → %q → %q", in, out, again)
		}
		line := Line(in)
		checkSafe(t, in, line, true)
		if again := Line(line); again != line {
			t.Fatalf("Line not idempotent: %q → %q → %q", in, line, again)
		}
		// Text that was already safe must come back untouched.
		if utf8.ValidString(in) && !strings.ContainsFunc(in, func(r rune) bool {
			return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || unsafeRune(r)
		}) && out != in {
			t.Fatalf("safe text changed: %q → %q", in, out)
		}
	})
}

func BenchmarkSanitize(b *testing.B) {
	clean := strings.Repeat("A perfectly ordinary description, with ünïcödé. ", 20)
	dirty := strings.Repeat("\x1b[31mred\x1b[0m and \u202e reversed ", 20)
	b.Run("clean", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Text(clean)
		}
	})
	b.Run("dirty", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Text(dirty)
		}
	})
}
