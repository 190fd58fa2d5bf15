package serverspec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/google/go-cmp/cmp"
)

func fileRoot(path, name string) client.Root {
	return client.Root{URI: "file://" + filepath.ToSlash(path), Name: name}
}

func TestConfigRoots(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"proj", "docs", "abs"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := writeFile(t, dir, "mcp.json", `{
	  "roots": ["proj", {"path": "docs", "name": "The docs"}, "missing"],
	  "mcpServers": {
	    "a": {"command": "a-server"},
	    "b": {"command": "b-server", "roots": [{"uri": "file://`+filepath.ToSlash(filepath.Join(dir, "abs"))+`"}]},
	    "c": {"command": "c-server", "roots": []}
	  }}`)
	cfg, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Server{}
	for _, s := range cfg.Servers {
		byName[s.Name] = s
	}
	want := []client.Root{fileRoot(filepath.Join(dir, "proj"), "proj"), fileRoot(filepath.Join(dir, "docs"), "The docs"), fileRoot(filepath.Join(dir, "missing"), "missing")}
	if diff := cmp.Diff(want, byName["a"].Roots); diff != "" {
		t.Errorf("server a's roots (-want +got):\n%s", diff)
	}
	if w := byName["a"].Warnings; len(w) != 1 || !strings.Contains(w[0], "missing does not exist") || !strings.Contains(w[0], `server "a"`) {
		t.Errorf("warnings %q", w)
	}
	if diff := cmp.Diff([]client.Root{fileRoot(filepath.Join(dir, "abs"), "abs")}, byName["b"].Roots); diff != "" || len(byName["b"].Warnings) != 0 {
		t.Errorf("server b's own roots (-want +got):\n%s %q", diff, byName["b"].Warnings)
	}
	if r := byName["c"].Roots; r == nil || len(r) != 0 {
		t.Errorf("server c's empty list: %#v, want [] (declared, none)", r)
	}
	for _, bad := range []string{`"roots": "proj"`, `"roots": [{"path": "x", "uri": "file:///x"}]`, `"roots": ["https://example.com"]`, `"roots": [{}]`} {
		p := writeFile(t, dir, "bad.json", `{`+bad+`, "mcpServers": {"a": {"command": "a"}}}`)
		if _, err := Load(p); err == nil {
			t.Errorf("config with %s loaded", bad)
		}
	}
}

func TestFlagRoots(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "here"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	c := Flags{Roots: RootFlags{"here", dir, "file://" + filepath.ToSlash(dir)}}
	c.Command = []string{"srv"}
	s, err := c.Spec(false)
	if err != nil {
		t.Fatal(err)
	}
	want := []client.Root{fileRoot(filepath.Join(dir, "here"), "here"), fileRoot(dir, filepath.Base(dir))}
	if diff := cmp.Diff(want, s.Roots); diff != "" {
		t.Errorf("roots (-want +got):\n%s", diff)
	}
	c.Roots = RootFlags{"nope"}
	if _, err := c.Spec(false); err == nil || exit.CodeOf(err) != exit.Usage || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a --root that does not exist: %v", err)
	}
	c.Roots = nil
	if s, err := c.Spec(false); err != nil || s.Roots != nil {
		t.Errorf("no --root: %+v %v, want no roots at all", s.Roots, err)
	}
}
