package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPrintsOnly: only the commands that print a text and start nothing
// go without signal handlers; everything that runs a server, a session or
// the TUI keeps them (TestTUIHangupStopsServer, TestRecordEndsOnEveryExit
// check what the handlers do).
func TestPrintsOnly(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"version"}, true},
		{[]string{"--version"}, true},
		{[]string{"help"}, true},
		{[]string{"-h"}, true},
		{[]string{"--help"}, true},
		{[]string{"-help"}, true},
		{nil, false}, // the TUI
		{[]string{"demo"}, false},
		{[]string{"call", "echo"}, false},
		{[]string{"tools", "--url", "http://x"}, false},
		{[]string{"--theme", "dracula", "version"}, false},
		{[]string{"--", "version"}, false}, // a server named version
		{[]string{"call", "version"}, false},
	} {
		if got := printsOnly(tc.args); got != tc.want {
			t.Errorf("printsOnly(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// TestVersionAndHelpBinary: the real binary still prints both and exits 0
// without the handlers.
func TestVersionAndHelpBinary(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"version", "elicit dev\n"},
		{"--version", "elicit dev\n"},
		{"help", "Usage:"},
		{"-h", "Usage:"},
	} {
		out, err := exec.Command(binPath, tc.arg).CombinedOutput()
		if err != nil {
			t.Fatalf("elicit %s: %v\n%s", tc.arg, err, out)
		}
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("elicit %s printed %q, want %q in it", tc.arg, out, tc.want)
		}
	}
}
