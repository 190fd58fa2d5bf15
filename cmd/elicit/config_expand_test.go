package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
)

// TestProjectConfigShowsVariablesOfItsLaunch: a project's config that
// expands the person's variables into its command's arguments or its URL
// says so before anything runs, and shows them as written, never their
// values.
func TestProjectConfigShowsVariablesOfItsLaunch(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("ELICIT_LEAK_C", "secret-c")
	t.Setenv("ELICIT_LEAK_D", "secret-d")
	writeFile(t, dir, ".mcp.json", `{"mcpServers": {
  "web": {"url": "https://example.invalid/${ELICIT_LEAK_C}/mcp"},
  "cli": {"command": "srv", "args": ["--opt", "${ELICIT_LEAK_D}"]}}}`)
	for server, want := range map[string][]string{
		"web": {"https://example.invalid/${ELICIT_LEAK_C}/mcp", "takes $ELICIT_LEAK_C from this environment"},
		"cli": {"${ELICIT_LEAK_D}", "takes $ELICIT_LEAK_D from this environment"},
	} {
		code, _, errs := runCLI(t, "tools", "--server", server)
		for _, w := range want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: the refusal does not say %q:\n%s", server, w, errs)
			}
		}
		if code != exit.Usage || strings.Contains(errs, "secret-") {
			t.Errorf("%s: exit %d: %s", server, code, errs)
		}
	}
}

// TestExpandedLaunchNeverShown: what a ${VAR} put in a server's command,
// args or url is not in the server view, the recording's settings or
// describe; they show the entry as written. A secret-named variable's
// value is among the secrets every sink masks.
func TestExpandedLaunchNeverShown(t *testing.T) {
	t.Setenv("ELICIT_TEST_TOKEN_E", "tok-secret-e")
	p := writeFile(t, t.TempDir(), "mcp.json", `{"mcpServers": {
		"cli": {"command": "srv", "args": ["--opt", "${ELICIT_TEST_TOKEN_E}"]},
		"web": {"url": "https://h.example/${ELICIT_TEST_TOKEN_E}/mcp"}}}`)
	cfg, err := serverspec.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range cfg.Servers {
		if !strings.Contains(strings.Join(s.Args, " ")+s.URL, "tok-secret-e") {
			t.Fatalf("%s: the variable was not expanded for running: %+v", s.Name, s)
		}
		d := s.Detail()
		shown := strings.Join(d.Args, " ") + d.URL + s.Describe()
		r := recording.Server(s)
		recorded := strings.Join(r.Args, " ") + r.URL
		// (A URL shows its braces escaped.)
		if strings.Contains(shown+recorded, "tok-secret-e") || !strings.Contains(shown, "ELICIT_TEST_TOKEN_E") ||
			!strings.Contains(recorded, "ELICIT_TEST_TOKEN_E") {
			t.Errorf("%s: shown %q, recorded %q; want as written", s.Name, shown, recorded)
		}
		// A variable named as a secret: its value is one of the run's
		// secrets, masked in every sink.
		if !slices.Contains(s.SecretValues(), "tok-secret-e") {
			t.Errorf("%s: the value is not among the secrets %q", s.Name, s.SecretValues())
		}
	}
}
