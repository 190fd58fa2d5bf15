package agents

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo/acpagent"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
)

// tapEnv names a unix socket: the test binary started with it is the demo
// ACP agent, and every line it sends the client goes to the socket too, so
// a test waits for what the agent said (a turn begun), not for time.
const tapEnv = "ELICIT_TEST_AGENT_TAP"

// runTappedAgent is TestMain's: it reports whether this process was the
// tapped agent. The crash scene exits 1, as elicit demo --acp does.
func runTappedAgent() bool {
	path := os.Getenv(tapEnv)
	if path == "" {
		return false
	}
	conn, err := net.Dial("unix", path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tapped agent:", err)
		os.Exit(2)
	}
	if err := acpagent.Serve(context.Background(), os.Stdin, io.MultiWriter(os.Stdout, conn), acpagent.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, "tapped agent:", err)
		os.Exit(1)
	}
	return true
}

// agentTap reads what tapped agents said, each start of one in turn.
type agentTap struct {
	path  string
	lines chan string
}

// newAgentTap listens for tapped agents until the test ends.
func newAgentTap(t *testing.T) *agentTap {
	t.Helper()
	ln, err := net.Listen("unix", filepath.Join(t.TempDir(), "tap"))
	if err != nil {
		t.Fatal(err)
	}
	tap := &agentTap{path: ln.Addr().String(), lines: make(chan string, 4096)}
	done := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() {
				sc := bufio.NewScanner(c)
				sc.Buffer(make([]byte, 64<<10), 4<<20)
				for sc.Scan() {
					select {
					case tap.lines <- sc.Text():
					case <-done:
						return
					}
				}
			})
		}
	})
	t.Cleanup(func() {
		close(done)
		_ = ln.Close()
		mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return tap
}

// spec is the demo agent, tapped.
func (tap *agentTap) spec(t *testing.T, name string) serverspec.Agent {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return serverspec.Agent{Name: name, Command: exe, Env: []string{tapEnv + "=" + tap.path}}
}

// wait reads what the agents said until a line holds s.
func (tap *agentTap) wait(t *testing.T, s string) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l := <-tap.lines:
			if strings.Contains(l, s) {
				return
			}
		case <-timeout:
			t.Fatalf("the agent did not say %q within 20s", s)
		}
	}
}
