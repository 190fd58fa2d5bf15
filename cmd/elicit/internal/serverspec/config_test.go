package serverspec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/google/go-cmp/cmp"
)

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

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("ELICIT_TEST_TOKEN", "s3cret")
	p := writeFile(t, dir, "claude.json", `{
	  "theme": "dracula",
	  "mcpServers": {
	    "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "env": {"DEBUG": "1"}, "cwd": "sub"},
	    "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${ELICIT_TEST_TOKEN}"}},
	    "old": {"url": "http://localhost:3001/sse", "type": "sse"},
	    "off": {"command": "nope", "disabled": true}
	  }}`)
	cfg, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Theme != "dracula" || len(cfg.Servers) != 3 {
		t.Fatalf("config %+v", cfg)
	}
	byName := map[string]Server{}
	for _, s := range cfg.Servers {
		byName[s.Name] = s
	}
	ev := byName["everything"]
	if ev.Command != "npx" || !cmp.Equal(ev.Args, []string{"-y", "@modelcontextprotocol/server-everything"}) ||
		!cmp.Equal(ev.Env, []string{"DEBUG=1"}) || ev.Dir != filepath.Join(dir, "sub") {
		t.Errorf("stdio server %+v", ev)
	}
	if r := byName["remote"]; r.URL != "https://mcp.example.com/mcp" || r.Header.Get("Authorization") != "Bearer s3cret" || r.LegacySSE {
		t.Errorf("http server %+v", r)
	}
	if o := byName["old"]; !o.LegacySSE {
		t.Errorf("sse server %+v", o)
	}

	vs := writeFile(t, dir, ".vscode/mcp.json", `{"servers": {"x": {"type": "stdio", "command": "x-server"}}}`)
	if cfg, err := Load(vs); err != nil || len(cfg.Servers) != 1 || cfg.Servers[0].Command != "x-server" {
		t.Errorf("VS Code shape: %+v, %v", cfg, err)
	}
}

// loadErr is what loading the config at p fails with: the file's error,
// else the first of its servers (then agents) not started (a variable it
// names is not set; the file's others are).
func loadErr(p string) error {
	cfg, err := Load(p)
	if err != nil {
		return err
	}
	for _, s := range cfg.Servers {
		if s.Broken != nil {
			return s.Broken
		}
	}
	for _, a := range cfg.Agents {
		if a.Broken != nil {
			return a.Broken
		}
	}
	return nil
}

func TestLoadConfigErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ body, want string }{
		{`{`, "not valid JSON"},
		{`{"mcpServers": {}}`, "no servers"},
		{`{"mcpServers": {"a": {"command": "x", "url": "http://y"}}}`, `server "a": has both "command" and "url"`},
		{`{"mcpServers": {"a": {}}}`, `server "a": needs "command"`},
		{`{"mcpServers": {"a": {"url": "http://y", "type": "ws"}}}`, `unknown type "ws"`},
		{`{"mcpServers": {"a": {"command": "x", "type": "http"}}}`, `does not go with a command`},
		{`{"mcpServers": {"a": {"command": 5}}}`, `server "a"`},
		{`{"mcpServers": {"a": {"command": "x", "disabled": true}}}`, "every server is disabled"},
		{`{"mcpServers": {"a": {"url": "http://y", "headers": {"Authorization": "Bearer ${ELICIT_TEST_UNSET_TOKEN}"}}}}`, `header Authorization: ${ELICIT_TEST_UNSET_TOKEN} is not set`},
		{`{"mcpServers": {"a": {"command": "x", "env": {"API_KEY": "$ELICIT_TEST_UNSET_TOKEN"}}}}`, `env API_KEY: ${ELICIT_TEST_UNSET_TOKEN} is not set`},
		{`{"servers": {"a": {"url": "http://y", "headers": {"X-Key": "${input:api-key}"}}}}`, `set ELICIT_INPUT_API_KEY`},
	} {
		p := writeFile(t, dir, "c.json", tc.body)
		err := loadErr(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v, want it to name the file and say %q", tc.body, err, tc.want)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}

func TestFindConfigSaysWhereItLooked(t *testing.T) {
	t.Chdir(t.TempDir())
	home := t.TempDir()
	env := map[string]string{"HOME": home}
	_, err := Find(func(k string) string { return env[k] })
	if err == nil || exit.CodeOf(err) != exit.Usage {
		t.Fatalf("want a usage error, got %v", err)
	}
	for _, want := range []string{filepath.Join(home, ".config", "elicit", "config.json"), ".mcp.json", "elicit demo"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %s:\n%v", want, err)
		}
	}
	p := writeFile(t, home, ".config/elicit/config.json", `{"mcpServers": {"a": {"command": "x"}}}`)
	got, err := Find(func(k string) string { return env[k] })
	if err != nil || got != p {
		t.Errorf("Find = %q, %v; want %q", got, err, p)
	}
}

// TestConfigInputVariable: a VS Code ${input:NAME} takes its value from
// ELICIT_INPUT_NAME.
func TestConfigInputVariable(t *testing.T) {
	t.Setenv("ELICIT_INPUT_API_KEY", "k-123")
	p := writeFile(t, t.TempDir(), "mcp.json", `{"servers": {"a": {"url": "http://y", "headers": {"X-Key": "${input:api-key}"}}}}`)
	cfg, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Servers[0].Header.Get("X-Key"); got != "k-123" {
		t.Errorf("X-Key = %q, want k-123", got)
	}
}

// TestLoadConfigBOM: a file saved with a UTF-8 byte order mark (Windows
// editors) is read, as RFC 8259 §8.1 lets a parser: it was refused with
// "invalid character 'ï'".
func TestLoadConfigBOM(t *testing.T) {
	p := writeFile(t, t.TempDir(), "mcp.json", "\ufeff"+`{"mcpServers": {"a": {"command": "a-server"}}}`)
	if cfg, err := Load(p); err != nil || len(cfg.Servers) != 1 || cfg.Servers[0].Command != "a-server" {
		t.Errorf("a config with a BOM: %+v, %v", cfg, err)
	}
}

// TestLoadConfigExactNames: a config's members are read by their exact
// names, as the other clients that read the same file (VS Code, Claude
// Code, Cursor) read them: a lone "Args" or "MCPServers" is some other
// member, not one elicit acts on while they ignore it.
func TestLoadConfigExactNames(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.json", `{"mcpServers": {"a": {"command": "a-server", "Args": ["--evil"], "Cwd": "/"}}}`)
	cfg, err := Load(p)
	if err != nil || len(cfg.Servers) != 1 || len(cfg.Servers[0].Args) != 0 || cfg.Servers[0].Dir != "" {
		t.Errorf("a lone Args or Cwd was taken: %+v, %v", cfg, err)
	}
	p = writeFile(t, dir, "b.json", `{"MCPServers": {"a": {"command": "a-server"}}}`)
	if cfg, err := Load(p); err == nil || !strings.Contains(err.Error(), "no servers") {
		t.Errorf("MCPServers was taken for mcpServers: %+v, %v", cfg, err)
	}
}
