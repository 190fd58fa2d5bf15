package transport_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// exoticIDs are request ids a server may send that are no int64: JSON-RPC
// allows any number (discouraging fractions), and the reply must carry
// "the same value". Echoed byte for byte, no peer can read them otherwise.
func exoticIDs() []string {
	return []string{
		`9223372036854775808`, `-9223372036854775809`, `1e300`, `1e400`,
		`-0`, `1.5`, `3.0`, `1E2`, `0.1e1`, `7`, `"s"`,
	}
}

// serveIDs sends a ping with each of exoticIDs, reads as many replies, and
// sends a "verdict" notification listing the raw id bytes of each reply,
// in order.
func serveIDs() {
	ids := exoticIDs()
	for _, id := range ids {
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"method":"ping"}`+"\n", id)
	}
	in := bufio.NewScanner(os.Stdin)
	var got []string
	for len(got) < len(ids) && in.Scan() {
		var reply struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(in.Bytes(), &reply); err != nil {
			got = append(got, "undecodable: "+in.Text())
			continue
		}
		got = append(got, string(reply.ID))
	}
	params, _ := json.Marshal(map[string]any{"ids": got})
	fmt.Printf(`{"jsonrpc":"2.0","method":"verdict","params":%s}`+"\n", params)
	echo()
}

// A server's request id that is no int64 is read, and the reply echoes it
// byte for byte, so the server's wait ends.
func TestStdioRequestIDsEchoedExactly(t *testing.T) {
	t.Parallel()
	c := dial(t, "ids", nil, time.Second)
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for range exoticIDs() {
		m, err := msgOf(c.Read(ctx))
		if err != nil {
			t.Fatalf("Read (a request was dropped?): %v", err)
		}
		if m.Method == "verdict" {
			t.Fatalf("verdict before every request came: %s", m.Params)
		}
		reply, err := jsonrpc.NewResponse(m.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Write(ctx, reply, nil); err != nil {
			t.Fatalf("Write reply to %s: %v", m.ID, err)
		}
	}
	m, err := msgOf(c.Read(ctx))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		IDs []string `json:"ids"`
	}
	if err := json.Unmarshal(m.Params, &v); err != nil || m.Method != "verdict" {
		t.Fatalf("got %s %s, want the verdict", m.Method, m.Params)
	}
	if !slices.Equal(v.IDs, exoticIDs()) {
		t.Errorf("reply ids = %q\nwant        %q", v.IDs, exoticIDs())
	}
}
