package headless

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// FuzzHeadlessWriters: whatever a server puts in a result, an error
// message or a reason, what the headless commands write (the JSON on
// stdout, the last line on stderr) is valid UTF-8 and holds no ESC, no C1
// control and no bidi control; the JSON stays valid, and says when it was
// repaired.
func FuzzHeadlessWriters(f *testing.F) {
	for _, s := range []string{"ok", "\x1b]0;pwned\a", "\x1b[6n", "\u009b2J", "\u009d52;c;eA==\u009c", "a\u202eb", "\xff\xc3(", "\x1b]52;c;ZWNobyBoaQ==\x1b\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw := rawString(s)
		out := &CallOutput{Server: "srv", Tool: s, Result: raw, Error: s,
			Prompts: []PromptOutput{{Key: "srv#1", Outcome: "accept", Reason: s}}}
		var stdout bytes.Buffer
		if err := WriteJSON(&stdout, out); err != nil {
			t.Fatalf("WriteJSON: %v", err)
		}
		b := stdout.Bytes()
		if !json.Valid(b) {
			t.Fatalf("stdout is not valid JSON: %q", b)
		}
		if repaired := !utf8.ValidString(s); repaired != (out.Repaired != "") {
			t.Fatalf("repaired %q for a string that is valid UTF-8: %v", out.Repaired, utf8.ValidString(s))
		}
		var stderr bytes.Buffer
		exit.Print(&stderr, errors.New("tools/call \"t\" on srv: "+s))
		for name, w := range map[string][]byte{"stdout": b, "stderr": stderr.Bytes()} {
			if !utf8.Valid(w) {
				t.Fatalf("%s is not valid UTF-8: %q", name, w)
			}
			for _, r := range string(w) {
				if r == 0x1b || r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f ||
					r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
					t.Fatalf("%s holds %U: %q", name, r, w)
				}
			}
		}
		if strings.Count(stderr.String(), "\n") != 1+strings.Count(s, "\n") {
			t.Fatalf("stderr %q: the error's own line breaks are all it may add", stderr.String())
		}
	})
}

// rawString is s as a server would send it inside a raw JSON result:
// quoted, with only what JSON itself forbids escaped, other bytes as they
// are (invalid UTF-8 included).
func rawString(s string) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"content":[{"type":"text","text":"`)
	for _, c := range []byte(s) {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString(`"}]}`)
	return b.Bytes()
}
