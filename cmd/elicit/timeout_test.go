package main

import (
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// silentServer is a real stdio server that reads everything and answers
// nothing.
var silentServer = []string{"--", "sh", "-c", "while read -r line; do :; done"}

// TestConnectTimeoutFlag: against a server that never answers, elicit
// tools gives up at --connect-timeout with the connect exit code, naming
// what went unanswered: the era probe, or initialize when the version is
// pinned.
func TestConnectTimeoutFlag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		args  []string
		names string
	}{
		{"probe", nil, "server/discover"},
		{"pinned", []string{"--protocol", "2025-11-25"}, "initialize"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"tools", "--connect-timeout", "1s"}, tc.args...), silentServer...)
			type ran struct {
				code   int
				stderr string
			}
			done := make(chan ran, 1)
			go func() { code, _, errs := runCLI(t, args...); done <- ran{code, errs} }()
			var r ran
			select {
			case r = <-done:
			case <-time.After(30 * time.Second): // liveness only: it used to hang for ever
				t.Fatal("elicit tools did not give up on a silent server")
			}
			if r.code != exit.Connect {
				t.Errorf("exit %d, want %d (connect); stderr %q", r.code, exit.Connect, r.stderr)
			}
			for _, w := range []string{"connect to sh", tc.names, "timed out", "1s", "connect timeout"} {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q does not say %q", r.stderr, w)
				}
			}
		})
	}
}

// TestTimeoutFlagsMustBePositive: a bound always exists, so zero and
// negative timeouts are usage errors, for the TUI and headless alike.
func TestTimeoutFlagsMustBePositive(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"tools", "--connect-timeout", "0"}, "--connect-timeout must be positive"},
		{[]string{"call", "deploy", "--connect-timeout", "-1s"}, "--connect-timeout must be positive"},
		{[]string{"tools", "--request-timeout", "0s"}, "--request-timeout must be positive"},
		{[]string{"--request-timeout", "-5m", "--demo"}, "--request-timeout must be positive"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != exit.Usage || !strings.Contains(errs, tc.msg) {
			t.Errorf("%q: exit %d (want %d), stderr %q (want %q)", tc.args, code, exit.Usage, errs, tc.msg)
		}
	}
}
