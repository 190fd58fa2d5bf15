//go:build unix

package serverspec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestConfigNotWaitedOnForEver: a config that is a FIFO nobody writes (a
// repository can ship .mcp.json as one, and elicit finds it by itself) or
// a device that never ends (a link to /dev/zero) fails with a message
// naming it, instead of waiting for a writer for ever or reading without
// end.
func TestConfigNotWaitedOnForEver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, ".mcp.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, "not a regular file"},
		{zero, "larger than"},
	} {
		errc := make(chan error, 1)
		go func() {
			_, err := Load(tc.path)
			errc <- err
		}()
		select {
		case err := <-errc:
			if err == nil || !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load(%s) = %v, want an error naming it, saying %q", tc.path, err, tc.want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("Load(%s) still reading", tc.path)
		}
	}
}

// TestConfigFromAPipe: --config <(…) names a pipe whose writer is there;
// it is read to its end as before.
func TestConfigFromAPipe(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		defer w.Close()
		_, _ = w.WriteString(`{"mcpServers": {"piped": {"command": "x-server"}}}`)
	}()
	cfg, err := Load(fmt.Sprintf("/dev/fd/%d", r.Fd()))
	if err != nil || len(cfg.Servers) != 1 || cfg.Servers[0].Command != "x-server" {
		t.Fatalf("config from a pipe: %+v, %v", cfg, err)
	}
}
