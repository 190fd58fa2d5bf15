package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
)

// A server whose request ids are numbers no int64 can hold (or written
// another way) gets the session's answers with its ids byte for byte:
// anything else leaves it waiting for a reply that, to it, never came.
// The peer reads our lines raw (jsonrpc.Decode reads responses by our own
// ids' rules, which these are not).
func TestHostileRequestIDsEchoed(t *testing.T) {
	t.Parallel()
	ids := []string{`9223372036854775808`, `1e300`, `-0`, `1.5`, `3.0`}
	conn, sr, sw := transport.PipeIO(nil)
	got := make(chan string, len(ids))
	go func() {
		defer sw.Close()
		in := bufio.NewScanner(sr)
		in.Buffer(nil, 1<<20)
		for in.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(in.Bytes(), &m) != nil {
				continue
			}
			switch m.Method {
			case "server/discover":
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", m.ID)
			case "initialize":
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"ids","version":"1"}}}`+"\n", m.ID)
			case "notifications/initialized":
				for _, id := range ids {
					fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"method":"ping"}`+"\n", id)
				}
			case "":
				got <- string(m.ID) // one of our answers
			}
		}
	}()
	ctx, cancel := context.WithTimeout(t.Context(), liveness)
	defer cancel()
	s, err := client.Connect(ctx, connTransport{conn}, &client.Options{Name: "ids"})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close(); _, _ = io.Copy(io.Discard, sr) })
	var echoed []string
	for range ids {
		select {
		case id := <-got:
			echoed = append(echoed, id)
		case <-time.After(liveness):
			t.Fatalf("answers so far %q; the rest of %q never came", echoed, ids)
		}
	}
	slices.Sort(echoed)
	want := slices.Clone(ids)
	slices.Sort(want)
	if !slices.Equal(echoed, want) {
		t.Errorf("answers carried ids %q, want %q", echoed, want)
	}
}
