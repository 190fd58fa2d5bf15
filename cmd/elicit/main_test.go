package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"
)

// binPath is the elicit binary built once for the tests that run it as a
// real process (conformance, server-everything, tmux).
var binPath string

func TestMain(m *testing.M) {
	if runTestServer() { // the binary is a test server (hostile_server_test.go)
		os.Exit(0)
	}
	if runStormServer() { // the binary is a go-sdk server that storms (e2e_storm_test.go)
		os.Exit(0)
	}
	if runHubTestServer() || runHubDialer() { // the session tests' server and dialer (session_helpers_test.go)
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "elicit-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "elicit")
	out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := 0
	func() {
		defer os.RemoveAll(dir)
		code = runWithLeakCheck(m)
	}()
	os.Exit(code)
}

func runWithLeakCheck(m *testing.M) int {
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			return 1
		}
	}
	return code
}

// writeFile writes body to dir/name (making its folders) for a test.
func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
