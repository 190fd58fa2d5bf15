package client_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestDeclaredAppsExtension: the MCP Apps extension is declared under
// capabilities.extensions only when Options.AppsUI says a host renders
// the session's apps, in every stateful version.
func TestDeclaredAppsExtension(t *testing.T) {
	t.Parallel()
	const ui = `"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}`
	for _, tc := range []struct {
		protocol string
		apps     bool
		want     string
	}{
		{"2025-11-25", true, `{` + ui + `,"tasks":{"cancel":{},"list":{}}}`},
		{"2025-11-25", false, `{"tasks":{"cancel":{},"list":{}}}`},
		{"2025-06-18", true, `{` + ui + `}`},
		{"2025-06-18", false, `{}`},
	} {
		t.Run(tc.protocol+map[bool]string{true: "/apps", false: ""}[tc.apps], func(t *testing.T) {
			t.Parallel()
			cc, sc := transport.Pipe(nil)
			defer sc.Close()
			got := make(chan string, 1)
			go func() {
				m, err := readSkippingProbe(sc)
				if err != nil {
					got <- err.Error()
					return
				}
				var p struct {
					Caps json.RawMessage `json:"capabilities"`
				}
				_ = json.Unmarshal(m.Params, &p)
				got <- string(p.Caps)
				_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(`{"protocolVersion":"` + tc.protocol + `","capabilities":{},"serverInfo":{"name":"x","version":"1"}}`)}, nil)
			}()
			s, err := client.Connect(t.Context(), connTransport{cc}, &client.Options{Protocol: tc.protocol, Elicit: client.ElicitOff, AppsUI: tc.apps})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if g := <-got; g != tc.want {
				t.Errorf("initialize offered %s, want %s", g, tc.want)
			}
		})
	}
}
