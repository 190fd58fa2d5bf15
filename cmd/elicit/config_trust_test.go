package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// A config elicit finds in the working directory (./.mcp.json,
// ./.vscode/mcp.json) is a project's file: it comes with a clone or a
// download, and the person never named it. Its commands run when the
// person names the file (--config), or confirms them on a terminal.

// projectDir makes a directory whose .mcp.json names server "notes",
// which leaves marker when it starts, and an empty config home.
func projectDir(t *testing.T) (dir, marker string) {
	t.Helper()
	dir = t.TempDir()
	marker = filepath.Join(dir, "started")
	body, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"notes": map[string]any{"command": "sh", "args": markedServer(marker)[1:], "env": map[string]string{"NOTES_MODE": "x"}},
	}})
	writeFile(t, dir, ".mcp.json", string(body))
	return dir, marker
}

// TestProjectConfigHeadless: --server NAME alone takes the server from a
// project's .mcp.json only when the file is named.
func TestProjectConfigHeadless(t *testing.T) {
	dir, marker := projectDir(t)
	t.Chdir(dir)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	code, _, errs := runCLI(t, "tools", "--server", "notes")
	assertNotStarted(t, marker)
	if code != exit.Usage || !strings.Contains(errs, ".mcp.json") || !strings.Contains(errs, "--config .mcp.json") ||
		!strings.Contains(errs, `server "notes" runs: sh -c`) || !strings.Contains(errs, "with NOTES_MODE set as the file says (values not shown)") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, out, errs := runCLI(t, "tools", "--config", ".mcp.json", "--server", "notes")
	if code != exit.OK || !strings.Contains(out, "deploy") {
		t.Fatalf("--config .mcp.json: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("the named config's server did not start")
	}
}

// TestProjectConfigTUI drives elicit with no server in a directory with a
// .mcp.json, in tmux: its commands are shown whole and start on y only.
func TestProjectConfigTUI(t *testing.T) {
	for _, answer := range []string{"n", "y"} {
		t.Run(answer, func(t *testing.T) {
			dir, marker := projectDir(t)
			tm := newTmuxShell(t, 160, 40, dir, []string{"XDG_CONFIG_HOME=" + filepath.Join(dir, "config-home")})
			s := tm.waitText("Run it? [y/N]")
			if !strings.Contains(s, ".mcp.json names what to run (a project's file, found in this directory: check it):") ||
				!strings.Contains(s, `server "notes" runs: sh -c 'touch "$0"; exec "$1" demo --serve stdio'`) {
				t.Errorf("the question:\n%s", s)
			}
			assertNotStarted(t, marker)
			tm.typeText(answer)
			tm.press("Enter")
			if answer == "n" {
				s = tm.waitText("elicit exited")
				if !strings.Contains(s, "not confirmed: nothing was run") || !strings.Contains(s, "--config .mcp.json") || !strings.Contains(s, "elicit exited 2") {
					t.Errorf("after n:\n%s", s)
				}
				assertNotStarted(t, marker)
				return
			}
			tm.waitText("notes ready")
			if _, err := os.Stat(marker); err != nil {
				t.Error("y did not start the server")
			}
			tm.press("C-c")
		})
	}
}

// TestProjectConfigShowsWhatItSends: what a project's config would send
// of the person's to a host it chose is shown before anything runs: the
// environment variables it expands into headers, env or oauth, and the
// files its oauth reads (a jwt-bearer assertionFile's contents go to the
// authorization server as they are).
func TestProjectConfigShowsWhatItSends(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("ELICIT_LEAK_A", "secret-a")
	t.Setenv("ELICIT_LEAK_B", "secret-b")
	writeFile(t, dir, ".mcp.json", `{"mcpServers": {"web": {"url": "https://example.invalid/mcp",
  "headers": {"X-Note": "v=${ELICIT_LEAK_A}"},
  "oauth": {"grant": "jwt-bearer", "clientId": "c", "assertionFile": "/etc/hostname", "clientSecret": "$ELICIT_LEAK_B"}}}}`)
	code, _, errs := runCLI(t, "tools", "--server", "web")
	for _, want := range []string{`server "web" connects to: https://example.invalid/mcp`, "with the headers X-Note (values not shown)",
		"takes $ELICIT_LEAK_A, $ELICIT_LEAK_B from this environment (into its command, args, cwd, url, env, headers or oauth)",
		"sends the contents of /etc/hostname to its authorization server (oauth assertionFile)"} {
		if !strings.Contains(errs, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, errs)
		}
	}
	if code != exit.Usage || strings.Contains(errs, "secret-") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// TestProjectConfigURLSecretsNotShown: a project config's URL with a
// password and an API key in its query is shown by where it goes, its
// secrets masked, on stderr and in the failure JSON.
func TestProjectConfigURLSecretsNotShown(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	writeFile(t, dir, ".mcp.json", `{"mcpServers": {"web": {"url": "https://user:hunter2-pass@example.invalid/mcp?api_key=key-0123456789"}}}`)
	code, out, errs := runCLI(t, "tools", "--server", "web")
	if code != exit.Usage || !strings.Contains(errs, `server "web" connects to: https://…@example.invalid/mcp?api_key=…`) {
		t.Errorf("exit %d: %s", code, errs)
	}
	for _, secret := range []string{"hunter2-pass", "key-0123456789"} {
		if strings.Contains(errs, secret) || strings.Contains(out, secret) {
			t.Errorf("%s shown:\nstdout %s\nstderr %s", secret, out, errs)
		}
	}
}
