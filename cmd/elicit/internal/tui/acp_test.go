package tui

import (
	"io"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

func TestACPWantsTUI(t *testing.T) {
	for args, want := range map[string]bool{
		"":                        true,
		"-- agent --prompt x":     true, // the agent's own flag
		"--cwd /p -- agent":       true,
		"--prompt hi":             false,
		"--prompt=hi -- agent":    false,
		"-prompt hi":              false,
		"-h":                      false,
		"--permission allow -- a": true, // then refused: the headless flags go with --prompt
	} {
		if got := ACPWantsTUI(splitFields(args)); got != want {
			t.Errorf("%q: TUI %v, want %v", args, got, want)
		}
	}
	err := Env{}.RunACP(t.Context(), []string{"--permission", "allow", "--", "a"}, io.Discard, io.Discard)
	if err == nil || exit.CodeOf(err) != exit.Usage || !strings.Contains(err.Error(), "--permission goes with --prompt") {
		t.Errorf("--permission without --prompt: %v", err)
	}
}

func splitFields(s string) []string {
	var out []string
	field := ""
	for _, r := range s + " " {
		if r == ' ' {
			if field != "" {
				out = append(out, field)
			}
			field = ""
			continue
		}
		field += string(r)
	}
	return out
}
