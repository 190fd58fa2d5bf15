package trust

import (
	"strings"
	"testing"
)

// TestLaunchLinesShowEverything: what a file names is shown as a shell
// would take it back, its escapes and bidi overrides visible, not acted
// on; an empty argument and one with a space stay visible as such.
func TestLaunchLinesShowEverything(t *testing.T) {
	l := Launch{What: "server", Name: "no\u202etes\x1b]0;x\x07", Command: "sh",
		Args: []string{"-c", "echo hi\nrm -rf ~", "", "it's", "X=\x1b[2J"}, Dir: "/tmp/a b"}
	got := strings.Join(l.Lines(), "\n")
	want := `server "no\u202etes\x1b]0;x\a" runs: sh -c 'echo hi⏎rm -rf ~' '' 'it'\''s' 'X=␛[2J'` + "\n" + `  in the directory '/tmp/a b'`
	if got != want {
		t.Errorf("lines:\n%s\nwant:\n%s", got, want)
	}
	for _, r := range got {
		if r == 0x1b || r == '\u202e' || r == 0x07 {
			t.Errorf("a control or bidi rune reaches the terminal: %q", got)
		}
	}
}
