package record_test

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/record"
)

// The settings line names what a replay runs (the servers' and agents'
// commands, URLs): a reader of the file must see what the replay gets.
// What would let one thing be read and another run is refused: a second
// settings line (a reader sees the first, the second won), a member given
// twice in it (encoding/json takes the last, and names regardless of
// case), two servers or agents of one name (a replay keeps one).
func TestReadRefusesHiddenSettings(t *testing.T) {
	const head = `{"type":"header","format":"elicit-record","version":1}` + "\n"
	const settings = `{"type":"settings","command":"tools","servers":[{"name":"notes","kind":"stdio","command":"notes-server"}]}` + "\n"
	for _, tc := range []struct{ name, text, want string }{
		{"a second settings line", head + settings + `{"type":"frame"}` + "\n" +
			`{"type":"settings","command":"tools","servers":[{"name":"notes","kind":"stdio","command":"sh"}]}` + "\n",
			"line 4: a second settings line (the first is line 2)"},
		{"a command given twice", head +
			`{"type":"settings","servers":[{"name":"notes","kind":"stdio","command":"notes-server","command":"sh"}]}` + "\n",
			`line 2: "command" is given twice in /servers/0`},
		{"a command in another case", head +
			`{"type":"settings","servers":[{"name":"notes","kind":"stdio","command":"notes-server","Command":"sh"}]}` + "\n",
			`line 2: "command" and "Command" in /servers/0`},
		{"servers given twice", head +
			`{"type":"settings","servers":[{"name":"notes","kind":"demo"}],"servers":[{"name":"notes","kind":"stdio","command":"sh"}]}` + "\n",
			`line 2: "servers" is given twice`},
		{"a server name twice", head +
			`{"type":"settings","servers":[{"name":"notes","kind":"demo"},{"name":"notes","kind":"stdio","command":"sh"}]}` + "\n",
			`line 2: two servers named "notes"`},
		{"an agent name twice", head +
			`{"type":"settings","servers":[],"agents":[{"name":"a","kind":"demo"},{"name":"a","kind":"stdio","command":"sh"}]}` + "\n",
			`line 2: two agents named "a"`},
		{"a server and an agent of one name", head +
			`{"type":"settings","servers":[{"name":"a","kind":"demo"}],"agents":[{"name":"a","kind":"stdio","command":"sh"}]}` + "\n",
			`line 2: a server and an agent named "a"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := record.Read(strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	// Frames may repeat members: they are what was sent, not settings.
	ok := head + `{"type":"settings","servers":[{"name":"x","kind":"demo"}],"agents":[{"name":"y","kind":"demo"}]}` + "\n" +
		`{"type":"frame","message":{"a":1,"a":2}}` + "\n"
	if _, err := record.Read(strings.NewReader(ok)); err != nil {
		t.Errorf("a plain recording: %v", err)
	}
}
