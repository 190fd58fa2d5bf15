package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// runBinary runs the real elicit binary and returns its exit code and
// output.
func runBinary(t *testing.T, args ...string) (code int, stdout, stderr []byte) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), binPath, args...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run: %v", err)
	}
	return code, out.Bytes(), errs.Bytes()
}

// pingResult is what a test reads of elicit ping's JSON.
type pingResult struct {
	Server, Protocol, NoPing, Error string
	ConnectMS                       float64
	RTTMS                           *float64
	Findings                        []json.RawMessage
	Failure                         *exit.Failure
}

func decodePing(t *testing.T, out, errs []byte) pingResult {
	t.Helper()
	var got pingResult
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s\nstderr: %s", err, out, errs)
	}
	return got
}

// TestPing: elicit ping against the demo served by a real elicit
// subprocess over stdio answers with the round trip in 2025-11-25; in
// 2026-07-28, which has no ping, it says so and exits 0 on the answered
// handshake. A server that refuses ping exits 4, one that cannot start 3,
// each with a failure object.
func TestPing(t *testing.T) {
	t.Parallel()
	demo := []string{"--", binPath, "demo", "--serve", "stdio"}
	t.Run("2025-11-25", func(t *testing.T) {
		t.Parallel()
		code, out, errs := runBinary(t, append([]string{"ping", "--protocol", "2025-11-25"}, demo...)...)
		got := decodePing(t, out, errs)
		if code != exit.OK || got.Protocol != "2025-11-25" || got.RTTMS == nil || *got.RTTMS <= 0 || got.ConnectMS <= 0 ||
			got.NoPing != "" || got.Failure != nil || got.Findings == nil {
			t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
		}
	})
	t.Run("2026-07-28", func(t *testing.T) {
		t.Parallel()
		code, out, errs := runBinary(t, append([]string{"ping", "--protocol", "2026-07-28"}, demo...)...)
		got := decodePing(t, out, errs)
		if code != exit.OK || got.RTTMS != nil || !strings.Contains(got.NoPing, "2026-07-28") || got.ConnectMS <= 0 {
			t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
		}
	})
	t.Run("refused", func(t *testing.T) {
		t.Parallel()
		// The scene answers every method but initialize and the lists
		// with -32601.
		code, out, errs := runHostile(t, "empty-lists", "ping")
		got := decodePing(t, out, errs)
		if code != exit.ToolError || got.Failure == nil || got.Failure.Kind != "tool-error" || !strings.Contains(got.Error, "ping") ||
			got.RTTMS != nil || got.Server == "" {
			t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
		}
		if !strings.Contains(string(errs), "method not found") {
			t.Errorf("stderr does not say why: %q", errs)
		}
	})
	t.Run("no server", func(t *testing.T) {
		t.Parallel()
		code, out, errs := runBinary(t, "ping", "--", "/nonexistent/elicit-server")
		got := decodePing(t, out, errs)
		if code != exit.Connect || got.Failure == nil || got.Failure.Kind != "connect" {
			t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
		}
	})
	t.Run("usage", func(t *testing.T) {
		t.Parallel()
		code, out, errs := runBinary(t, "ping", "extra")
		got := decodePing(t, out, errs)
		if code != exit.Usage || got.Failure == nil || got.Failure.Kind != "usage" {
			t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
		}
	})
}
