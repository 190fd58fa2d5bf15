package serverspec

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport/oauth"
)

// TestOAuthKeyFilesNeverWaitedOn: a config's privateKeyFile or
// assertionFile that is a FIFO nobody writes (a repository can ship one
// beside its .mcp.json) ends in an error naming it, never a wait for a
// writer that does not come.
func TestOAuthKeyFilesNeverWaitedOn(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "key")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	go func() {
		_, err := OAuth{Grant: "client_credentials", ClientID: "c", PrivateKeyFile: fifo}.grant()
		done <- err
	}()
	go func() {
		g, err := OAuth{Grant: "jwt-bearer", ClientID: "c", AssertionFile: fifo}.grant()
		if err != nil {
			done <- err
			return
		}
		_, err = g.(*oauth.JWTBearer).Assertion()
		done <- err
	}()
	for range 2 {
		select {
		case err := <-done:
			if err == nil {
				t.Error("a FIFO with no writer was read as a key: want an error")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a FIFO with no writer was waited on")
		}
	}
}
