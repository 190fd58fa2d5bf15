package transport_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// BenchmarkRoundTrip writes a message and reads the peer's echo of it:
// over Pipe (framing and JSON cost only) and over a stdio subprocess (plus
// OS pipes and a process switch).
func BenchmarkRoundTrip(b *testing.B) {
	sizes := []struct {
		name string
		size int
	}{{"small", 64}, {"1MiB", 1 << 20}}
	for _, sz := range sizes {
		m := mustRequest(b, 1, "tools/call", map[string]string{"data": strings.Repeat("x", sz.size)})
		b.Run("pipe/"+sz.name, func(b *testing.B) {
			client, server := transport.Pipe(nil)
			defer client.Close()
			defer server.Close()
			go func() { // the peer echoes until closed
				for {
					m, err := msgOf(server.Read(b.Context()))
					if err != nil {
						return
					}
					if server.Write(b.Context(), m, nil) != nil {
						return
					}
				}
			}()
			benchRoundTrip(b, client, m)
		})
		b.Run("stdio/"+sz.name, func(b *testing.B) {
			exe, err := os.Executable()
			if err != nil {
				b.Fatal(err)
			}
			c, err := (&transport.Stdio{Command: exe, Env: serverEnvFor("echo"), ShutdownGrace: time.Second}).Dial(b.Context())
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			benchRoundTrip(b, c, m)
		})
	}
}

func benchRoundTrip(b *testing.B, c transport.Conn, m *jsonrpc.Message) {
	b.Helper()
	raw, _ := jsonrpc.Encode(m)
	b.SetBytes(int64(2 * (len(raw) + 1)))
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Write(b.Context(), m, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Read(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
}
