package hub

import (
	"io"
	"net"
	"strings"
	"testing"
)

// TestFirstRequest: the hub tells an attach from the other requests by
// the first line alone, and hands any other request on whole, a line
// longer than its look-ahead too, with what follows it.
func TestFirstRequest(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":1,"method":"session/run","params":{"args":["` + strings.Repeat("x", attachLine+10) + `"]}}` + "\n"
	for name, tc := range map[string]struct {
		in     string
		attach bool
	}{
		"attach":     {`{"jsonrpc":"2.0","id":1,"method":"session/attach","params":{"session":"s1"}}` + "\nFRAMES", true},
		"list":       {`{"jsonrpc":"2.0","id":1,"method":"session/list"}` + "\n", false},
		"long":       {long + "more", false},
		"not json":   {"hello\n", false},
		"no newline": {`{"jsonrpc":"2.0","id":1,"method":"session/attach"}`, false},
		"a response": {`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", false},
	} {
		t.Run(name, func(t *testing.T) {
			client, server := net.Pipe()
			go func() {
				_, _ = io.WriteString(client, tc.in)
				client.Close()
			}()
			m, rest := firstRequest(server)
			got, err := io.ReadAll(rest)
			server.Close()
			if err != nil {
				t.Fatal(err)
			}
			if tc.attach {
				if m == nil || m.Method != MethodAttach || string(got) != "FRAMES" {
					t.Fatalf("attach: m = %v, rest %q; want the request and the frames after it", m, got)
				}
				return
			}
			if m != nil || string(got) != tc.in {
				t.Fatalf("m = %v, rest (%d bytes) differs from what was sent (%d bytes)", m, len(got), len(tc.in))
			}
		})
	}
}
