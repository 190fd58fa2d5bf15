package client_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// A 2026-07-28 server that refuses the first server/discover with -32022
// listing the very version offered gets it offered once more, and the
// session is stateless, instead of failing with "does not speak
// 2026-07-28 (it speaks [2026-07-28])". A second refusal ends Connect.
func TestDiscoverRetriesAVersionFromTheSupportedList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		refusals int
		wantErr  bool
	}{
		{"refused once", 1, false},
		{"refused twice", 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cc, sc := transport.Pipe(nil)
			defer sc.Close()
			versions := make(chan string, 4)
			go func() {
				for i := 0; ; i++ {
					m, err := msgOf(sc.Read(context.Background()))
					if err != nil {
						return
					}
					var p struct {
						Meta map[string]json.RawMessage `json:"_meta"`
					}
					_ = json.Unmarshal(m.Params, &p)
					var v string
					_ = json.Unmarshal(p.Meta["io.modelcontextprotocol/protocolVersion"], &v)
					if m.Method == "server/discover" {
						versions <- v
					}
					reply := &jsonrpc.Message{ID: m.ID}
					if m.Method == "server/discover" && i < tc.refusals {
						reply.Error = &jsonrpc.Error{Code: -32022, Message: "Unsupported protocol version",
							Data: json.RawMessage(`{"supported":["2026-07-28"],"requested":"2026-07-28"}`)}
					} else {
						reply.Result = json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern","version":"1"}}}`)
					}
					_ = sc.Write(context.Background(), reply, nil)
				}
			}()
			s, err := client.Connect(t.Context(), connTransport{cc}, nil)
			if tc.wantErr {
				if err == nil {
					s.Close()
					t.Fatal("Connect succeeded after two refusals")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Protocol() != "2026-07-28" || s.Era() != "2026-07-28 stateless" {
				t.Errorf("protocol %q era %q", s.Protocol(), s.Era())
			}
			if a, b := <-versions, <-versions; a != "2026-07-28" || b != "2026-07-28" {
				t.Errorf("offered %q then %q", a, b)
			}
		})
	}
}
