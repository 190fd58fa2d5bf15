package hub

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// testPaths are a hub's files in a fresh folder of the test's.
func testPaths(t *testing.T) Paths {
	d := filepath.Join(t.TempDir(), "hub")
	return Paths{Dir: d, Socket: filepath.Join(d, "hub.sock"), Log: filepath.Join(d, "hub.log"),
		Spawn: filepath.Join(d, "spawn.lock"), Live: filepath.Join(d, "hub.lock")}
}

// TestPathsRefused: the folder is made 0700; one that is wider, a link
// or a file is refused, and Locate does not take an XDG_RUNTIME_DIR that
// others may enter.
func TestPathsRefused(t *testing.T) {
	p := testPaths(t)
	if err := p.Ensure(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p.Dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("made %v (%v), want 0700", fi.Mode(), err)
	}
	if err := os.Chmod(p.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := p.Ensure(); err == nil || !strings.Contains(err.Error(), "0755") {
		t.Errorf("a 0755 folder: %v", err)
	}
	link := testPaths(t)
	if err := os.MkdirAll(filepath.Dir(link.Dir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(p.Dir, link.Dir); err != nil {
		t.Fatal(err)
	}
	if err := link.Ensure(); err == nil {
		t.Errorf("a link was taken for the folder")
	}

	wide := t.TempDir()
	if err := os.Chmod(wide, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_RUNTIME_DIR", wide)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(t.TempDir(), "cache"))
	got, err := Locate()
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(got.Dir, wide) {
		t.Errorf("Locate took %s, which others may enter: %s", wide, got.Dir)
	}
}

// serveTest runs a hub whose sessions never open (open's error), until
// it ends; it returns when the hub listens.
func serveTest(t *testing.T, p Paths, open Opener) <-chan error {
	t.Helper()
	ready := make(chan struct{})
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		done <- Serve(ctx, Config{Paths: p, Open: open, Code: func(error) int { return ExitConnect }, Log: &strings.Builder{},
			Ready: func() { close(ready) }})
	}()
	select {
	case <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("Serve: %v", err)
	}
	// Whatever the test did, the hub ends with it.
	t.Cleanup(func() { cancel() })
	return done
}

// TestServeOneHub: a second hub on the same folder steps aside (ErrBusy)
// while the first serves; a hub whose only session failed to start ends;
// a second hub then gets the folder.
func TestServeOneHub(t *testing.T) {
	p := testPaths(t)
	failing := func(context.Context, StartParams, Hooks) (*Opened, error) { return nil, errors.New("no server here") }
	done := serveTest(t, p, failing)
	if err := Serve(context.Background(), Config{Paths: p, Open: failing, Log: &strings.Builder{}}); !errors.Is(err, ErrBusy) {
		t.Fatalf("a second hub on the folder: %v, want ErrBusy", err)
	}
	fi, err := os.Stat(p.Socket)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("socket %v (%v), want a socket 0600", fi.Mode(), err)
	}
	err = Request(context.Background(), p, MethodStart, StartParams{Session: "x"}, nil)
	if ExitOf(err) != ExitConnect || !strings.Contains(Message(err), "no server here") {
		t.Fatalf("start with a failing server: %v (exit %d)", err, ExitOf(err))
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hub still runs with no session after its only start failed")
	}
	if _, err := os.Stat(p.Socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket outlived its hub: %v", err)
	}
	if err := Request(context.Background(), p, MethodList, nil, nil); !errors.Is(err, ErrNoHub) || ExitOf(err) != ExitConnect {
		t.Errorf("a request with no hub: %v", err)
	}
	serveTest(t, p, failing) // the folder is free again
}

// TestCallerGone: a request whose connection closes before its answer
// has its context ended with ErrCallerGone (the hub cancels what it
// started for it).
func TestCallerGone(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	causes := make(chan error, 1)
	started := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		serveConn(context.Background(), nc, func(ctx context.Context, method string, _ json.RawMessage) (any, error) {
			close(started)
			<-ctx.Done()
			causes <- context.Cause(ctx)
			return nil, nil
		})
	})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- call(ctx, sock, MethodRun, RunParams{}, nil) }()
	<-started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("the caller's call: %v", err)
	}
	if cause := <-causes; !errors.Is(cause, ErrCallerGone) {
		t.Errorf("the request's context ended with %v, want ErrCallerGone", cause)
	}
	wg.Wait()
}
