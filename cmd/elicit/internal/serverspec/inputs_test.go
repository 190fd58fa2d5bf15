package serverspec

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/google/go-cmp/cmp"
)

// inputsConfig has a VS Code input in a stdio server's env and another in
// an HTTP server's header, one declared (a password), one not.
const inputsConfig = `{
  "inputs": [{"type": "promptString", "id": "token", "description": "Envy API token", "password": true},
             {"type": "pickString", "id": "zone", "description": "Zone", "options": ["a", "b"]}],
  "servers": {
    "envy": {"command": "envy-server", "env": {"TOKEN": "${input:token}", "HOME_DIR": "${HOME}", "ZONE": "${input:zone}"}},
    "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${input:token}", "X-Team": "${input:team}"}}
  }}`

// TestConfigInputsAsked: the TUI asks once, in one go, for each input the
// environment does not give, with what the config declares about it, in
// the order it declares them (the undeclared last); the answers go into
// env and headers.
func TestConfigInputsAsked(t *testing.T) {
	for _, v := range []string{"ELICIT_INPUT_TOKEN", "ELICIT_INPUT_TEAM", "ELICIT_INPUT_ZONE"} {
		t.Setenv(v, "") // restored after the test
		os.Unsetenv(v)
	}
	p := writeFile(t, t.TempDir(), "mcp.json", inputsConfig)
	var asked []InputQuestion
	cfg, err := LoadAsking(t.Context(), p, func(_ context.Context, path string, qs []InputQuestion) (map[string]string, error) {
		if path != p {
			t.Errorf("asked for %s, want %s", path, p)
		}
		asked = append(asked, qs...)
		return map[string]string{"token": "s3cret", "team": "blue", "zone": "b"}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []InputQuestion{
		{ID: "token", Input: Input{Type: "promptString", ID: "token", Description: "Envy API token", Password: true}},
		{ID: "zone", Input: Input{Type: "pickString", ID: "zone", Description: "Zone", Options: []string{"a", "b"}}},
		{ID: "team"},
	}
	if diff := cmp.Diff(want, asked); diff != "" {
		t.Errorf("asked (-want +got):\n%s", diff)
	}
	for _, s := range cfg.Servers {
		switch s.Name {
		case "envy":
			if !cmp.Equal(s.Env, []string{"HOME_DIR=" + os.Getenv("HOME"), "TOKEN=s3cret", "ZONE=b"}) {
				t.Errorf("envy env = %q", s.Env)
			}
		case "remote":
			if s.Header.Get("Authorization") != "Bearer s3cret" || s.Header.Get("X-Team") != "blue" {
				t.Errorf("remote headers = %v", s.Header)
			}
		}
	}
}

// TestConfigInputsFromEnvNotAsked: inputs the environment gives are not
// asked for, and nothing is asked when all are given.
func TestConfigInputsFromEnvNotAsked(t *testing.T) {
	t.Setenv("ELICIT_INPUT_TOKEN", "from-env")
	t.Setenv("ELICIT_INPUT_TEAM", "red")
	t.Setenv("ELICIT_INPUT_ZONE", "a")
	p := writeFile(t, t.TempDir(), "mcp.json", inputsConfig)
	cfg, err := LoadAsking(t.Context(), p, func(context.Context, string, []InputQuestion) (map[string]string, error) {
		t.Error("asked although the environment gives every input")
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range cfg.Servers {
		if s.Name == "remote" && s.Header.Get("Authorization") != "Bearer from-env" {
			t.Errorf("remote headers = %v", s.Header)
		}
	}
}

// TestConfigInputsAbort: a person who aborts gets the asker's error, and
// no server is built.
func TestConfigInputsAbort(t *testing.T) {
	p := writeFile(t, t.TempDir(), "mcp.json", inputsConfig)
	stop := exit.Usagef("start-up aborted")
	cfg, err := LoadAsking(t.Context(), p, func(context.Context, string, []InputQuestion) (map[string]string, error) {
		return nil, stop
	})
	if !errors.Is(err, stop) || cfg != nil {
		t.Errorf("LoadAsking = %+v, %v; want the abort", cfg, err)
	}
}

// TestConfigInputsHeadlessStillFail: without a person (Load) a
// missing input still fails naming the variable that gives it.
func TestConfigInputsHeadlessStillFail(t *testing.T) {
	p := writeFile(t, t.TempDir(), "mcp.json", inputsConfig)
	if err := loadErr(p); err == nil || !strings.Contains(err.Error(), "set ELICIT_INPUT_") {
		t.Errorf("Load = %v", err)
	}
}
