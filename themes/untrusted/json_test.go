package untrusted

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
		repaired       bool
	}{
		{"clean", `{"a":"héllo 👋","b":[1,2]}` + "\n", `{"a":"héllo 👋","b":[1,2]}` + "\n", false},
		{"8-bit csi", "{\"a\":\"x\u009b31my\"}", `{"a":"x\u009b31my"}`, false},
		{"osc c1", "{\"a\":\"\u009d0;title\u009c\"}", `{"a":"\u009d0;title\u009c"}`, false},
		{"bidi override", "{\"a\":\"abc\u202edef\u2066\"}", `{"a":"abc\u202edef\u2066"}`, false},
		{"del", "{\"a\":\"x\x7fy\"}", `{"a":"x\u007fy"}`, false},
		{"invalid utf-8", "{\"a\":\"x\xffy\xc3\"}", `{"a":"x\ufffdy\ufffd"}`, true},
		{"whitespace kept", "{\n\t\"a\": 1\r\n}", "{\n\t\"a\": 1\r\n}", false},
	} {
		got, repaired := JSON([]byte(tc.in))
		if string(got) != tc.want || repaired != tc.repaired {
			t.Errorf("%s: JSON(%q) = %q, %v; want %q, %v", tc.name, tc.in, got, repaired, tc.want, tc.repaired)
		}
		if json.Valid([]byte(tc.in)) && !json.Valid(got) {
			t.Errorf("%s: valid input became invalid JSON: %q", tc.name, got)
		}
	}
}

// FuzzJSON: whatever a server puts in a string of a result, the output of
// encoding it (also as a raw message, copied byte for byte) through JSON
// is valid UTF-8, valid JSON, and holds no ESC, C1 or bidi control.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]52;c;eA==\a", "\u009b6n", "a\u202eb", "\xff\xfe", "\u0085", "👨\u200d👩"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		enc, err := json.Marshal(map[string]any{"text": s})
		if err != nil {
			t.Skip()
		}
		// A raw message as a server sends it: the string's bytes inside
		// quotes, with only what JSON itself forbids escaped.
		var raw bytes.Buffer
		raw.WriteString(`{"text":"`)
		for _, c := range []byte(s) {
			switch {
			case c == '"' || c == '\\':
				raw.WriteByte('\\')
				raw.WriteByte(c)
			case c < 0x20:
				raw.WriteString(`\u00`)
				raw.WriteByte("0123456789abcdef"[c>>4])
				raw.WriteByte("0123456789abcdef"[c&0xf])
			default:
				raw.WriteByte(c)
			}
		}
		raw.WriteString(`"}`)
		for _, in := range [][]byte{enc, raw.Bytes()} {
			out, _ := JSON(in)
			if !utf8.Valid(out) || !json.Valid(out) {
				t.Fatalf("JSON(%q) = %q: not valid UTF-8 JSON", in, out)
			}
			for _, r := range string(out) {
				if r == 0x1b || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r < 0x20 && r != '\n' {
					t.Fatalf("JSON(%q) = %q holds %U", in, out, r)
				}
			}
		}
	})
}
