package serverspec

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadConfigACP(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("ELICIT_TEST_KEY", "k")
	p := writeFile(t, dir, "mcp.json", `{"mcpServers": {
	    "fs": {"command": "fs-server"},
	    "claude": {"type": "acp", "command": "claude-agent-acp", "args": ["--x"], "env": {"KEY": "${ELICIT_TEST_KEY}"}, "cwd": "proj"},
	    "gone": {"type": "acp", "command": "nope", "disabled": true}
	  }}`)
	cfg, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 1 || cfg.Servers[0].Name != "fs" {
		t.Errorf("servers %+v", cfg.Servers)
	}
	// KEY's value came from a variable named as a secret: it is one.
	want := []Agent{{Name: "claude", Command: "claude-agent-acp", Args: []string{"--x"}, Env: []string{"KEY=k"}, Dir: filepath.Join(dir, "proj"),
		secrets: []string{"k"}}}
	if !cmp.Equal(cfg.Agents, want, cmp.AllowUnexported(Agent{})) {
		t.Errorf("agents %+v, want %+v", cfg.Agents, want)
	}

	only := writeFile(t, dir, "only.json", `{"mcpServers": {"a": {"type": "acp", "command": "agent"}}}`)
	if cfg, err := Load(only); err != nil || len(cfg.Agents) != 1 || len(cfg.Servers) != 0 {
		t.Errorf("a config of agents only: %+v, %v", cfg, err)
	}
	c := Flags{Config: only}
	if _, err := c.configSpec(); err == nil || !strings.Contains(err.Error(), "only ACP agents") {
		t.Errorf("a headless command on a config of agents only: %v", err)
	}

	for body, want := range map[string]string{
		`{"type": "acp"}`: `agent "x": "type": "acp" needs "command"`,
		`{"type": "acp", "url": "https://a.example"}`:                          `ACP has no "url"`,
		`{"type": "acp", "command": "a", "url": "https://a.example"}`:          `has both "command" and "url"`,
		`{"type": "acp", "command": "a", "headers": {"A": "b"}}`:               `"headers" apply to HTTP servers`,
		`{"type": "acp", "command": "a", "roots": ["."]}`:                      `"roots" are MCP's`,
		`{"type": "acp", "command": "a", "env": {"K": "${ELICIT_NOT_SET_X}"}}`: `${ELICIT_NOT_SET_X} is not set`,
		`{"type": "acpx", "command": "a"}`:                                     `"acp" for an ACP agent`,
	} {
		p := writeFile(t, dir, "bad.json", `{"mcpServers": {"x": `+body+`}}`)
		err := loadErr(p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", body, err, want)
		}
	}
}
