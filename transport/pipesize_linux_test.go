package transport_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestStdioWritesDoNotWaitForTheServer: a burst of messages larger than a
// default pipe (64 KiB) is written while the server reads nothing, because
// the pipe was enlarged (growPipe). With 64 KiB, Write would block from
// about the 60th message until the server read.
func TestStdioWritesDoNotWaitForTheServer(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	c, err := (&transport.Stdio{Command: exe, Env: serverEnvFor("sleeper"), ShutdownGrace: 100 * time.Millisecond}).Dial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pad, _ := json.Marshal(strings.Repeat("x", 1000))
	const n = 512 // 512 × ~1 kB: eight default pipes' worth, half of the enlarged one
	// A Write blocked in the pipe does not return until the bytes are
	// taken, so the burst runs apart and a timer decides; Close (deferred)
	// kills the server, which frees a blocked Write.
	wrote := make(chan error, 1)
	go func() {
		for i := range n {
			if err := c.Write(ctx, &jsonrpc.Message{Method: "notifications/message", Params: json.RawMessage(`{"data":` + string(pad) + `}`)}, nil); err != nil {
				wrote <- fmt.Errorf("write %d of %d: %w", i+1, n, err)
				return
			}
		}
		wrote <- nil
	}()
	select {
	case err := <-wrote:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%d writes of 1 kB did not go out within 5 s while the server read nothing: the pipe was not enlarged", n)
	}
}
