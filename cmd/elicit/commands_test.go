package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// helpForm is a line of the top help that shows a command: "  elicit
// WORD", WORD not a flag.
var helpForm = regexp.MustCompile(`(?m)^  elicit ([a-z][a-z-]*)\b`)

// TestCommandsHelpAndDispatchAgree: every command dispatch runs is shown
// by elicit help and every command help shows is dispatched; each one's
// -h prints the usage the table names (so dispatch reached its run, not
// the TUI's) and exits 0, as elicit help NAME does; a word that is no
// command reaches no command.
func TestCommandsHelpAndDispatchAgree(t *testing.T) {
	code, help, errs := runCLI(t, "help")
	if code != exit.OK {
		t.Fatalf("help: exit %d, stderr %q", code, errs)
	}
	shown := map[string]bool{}
	for _, m := range helpForm.FindAllStringSubmatch(help, -1) {
		shown[m[1]] = true
	}
	names := commands()
	for _, name := range names {
		if !shown[name] {
			t.Errorf("%q is dispatched but elicit help does not show it", name)
		}
	}
	for name := range shown {
		if !slices.Contains(names, name) {
			t.Errorf("elicit help shows %q, which dispatch does not know", name)
		}
	}
	for _, c := range commandTable() {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, c.name, "-h")
			if code != exit.OK {
				t.Fatalf("elicit %s -h: exit %d, stderr %q", c.name, code, errs)
			}
			if got := out + errs; !strings.Contains(got, c.usage) || c.name != "help" && strings.Contains(got, "a terminal client for MCP servers") {
				t.Errorf("elicit %s -h printed another usage than the table's:\n%s", c.name, got)
			}
			if c.name == "help" {
				return
			}
			// Every command's usage opens alike, as elicit help's own lines do.
			if got := out + errs; !strings.HasPrefix(got, "Usage: elicit "+c.name) && !strings.HasPrefix(got, "Usage:\n  elicit "+c.name) {
				t.Errorf("elicit %s -h does not open with \"Usage: elicit %s\":\n%.200s", c.name, c.name, got)
			}
			// elicit help NAME is NAME -h.
			hcode, hout, herrs := runCLI(t, "help", c.name)
			if hcode != code || hout != out || herrs != errs {
				t.Errorf("elicit help %s: exit %d, printed %q %q; want what %s -h printed", c.name, hcode, hout, herrs, c.name)
			}
		})
	}
	// The TUI's flags before a command that only prints are looked past.
	for _, name := range []string{"version", "help"} {
		if code, out, errs := runCLI(t, "--theme", "dracula", name); code != exit.OK || !strings.Contains(out, "elicit ") {
			t.Errorf("--theme dracula %s: exit %d, stdout %q, stderr %q", name, code, out, errs)
		}
	}
	if code, _, errs := runCLI(t, "help", "tols"); code != exit.Usage || !strings.Contains(errs, `did you mean "tools"?`) {
		t.Errorf("help tols: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCLI(t, "frobnicate"); code != exit.Usage || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Errorf("frobnicate: exit %d, stderr %q", code, errs)
	}
}
