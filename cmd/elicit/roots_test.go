package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/google/go-cmp/cmp"
)

func fileRoot(path, name string) client.Root {
	return client.Root{URI: "file://" + filepath.ToSlash(path), Name: name}
}

// TestConfigRoots: top-level roots serve every server that has none of
// its own; a server's own replace them (an empty list too); entries are
// paths relative to the config's directory, file:// URIs, or objects
// naming the root; one that does not exist is a warning, kept.
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
	cfg, err := loadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]serverSpec{}
	for _, s := range cfg.Servers {
		byName[s.Name] = s
	}
	want := []client.Root{fileRoot(filepath.Join(dir, "proj"), "proj"), fileRoot(filepath.Join(dir, "docs"), "The docs"), fileRoot(filepath.Join(dir, "missing"), "missing")}
	if diff := cmp.Diff(want, byName["a"].Roots); diff != "" {
		t.Errorf("server a's roots (-want +got):\n%s", diff)
	}
	if w := byName["a"].warnings; len(w) != 1 || !strings.Contains(w[0], "missing does not exist") || !strings.Contains(w[0], `server "a"`) {
		t.Errorf("warnings %q", w)
	}
	if diff := cmp.Diff([]client.Root{fileRoot(filepath.Join(dir, "abs"), "abs")}, byName["b"].Roots); diff != "" || len(byName["b"].warnings) != 0 {
		t.Errorf("server b's own roots (-want +got):\n%s %q", diff, byName["b"].warnings)
	}
	if r := byName["c"].Roots; r == nil || len(r) != 0 {
		t.Errorf("server c's empty list: %#v, want [] (declared, none)", r)
	}
	for _, bad := range []string{`"roots": "proj"`, `"roots": [{"path": "x", "uri": "file:///x"}]`, `"roots": ["https://example.com"]`, `"roots": [{}]`} {
		p := writeFile(t, dir, "bad.json", `{`+bad+`, "mcpServers": {"a": {"command": "a"}}}`)
		if _, err := loadConfig(p); err == nil {
			t.Errorf("config with %s loaded", bad)
		}
	}
}

// TestFlagRoots: --root is relative to the working directory, repeatable,
// comes before a config's roots, and must exist.
func TestFlagRoots(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "here"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	c := common{roots: rootFlags{"here", dir, "file://" + filepath.ToSlash(dir)}, connectTimeout: time.Second, requestTimeout: time.Second, urlWait: time.Second}
	c.command = []string{"srv"}
	s, err := c.spec(false)
	if err != nil {
		t.Fatal(err)
	}
	want := []client.Root{fileRoot(filepath.Join(dir, "here"), "here"), fileRoot(dir, filepath.Base(dir))}
	if diff := cmp.Diff(want, s.Roots); diff != "" {
		t.Errorf("roots (-want +got):\n%s", diff)
	}
	c.roots = rootFlags{"nope"}
	if _, err := c.spec(false); err == nil || codeOf(err) != exitUsage || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a --root that does not exist: %v", err)
	}
	c.roots = nil
	if s, err := c.spec(false); err != nil || s.Roots != nil {
		t.Errorf("no --root: %+v %v, want no roots at all", s.Roots, err)
	}
}

// TestHeadlessRoots: every headless command's JSON lists the roots
// served, [] when none, and the embedded demo is offered them.
func TestHeadlessRoots(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI(t, "tools", "--root", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Roots []client.Root `json:"roots"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]client.Root{fileRoot(dir, filepath.Base(dir))}, got.Roots); diff != "" {
		t.Errorf("tools --root (-want +got):\n%s", diff)
	}
	for _, args := range [][]string{{"call", "showcase"}, {"resources"}, {"prompts"}} {
		code, out, errs := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		if !strings.Contains(out, `"roots": []`) {
			t.Errorf("%v without --root: output lacks \"roots\": []\n%s", args, out)
		}
	}
}

// TestEverythingRoots: server-everything lists get-roots-list only to a
// client that declares roots; the tool asks roots/list and prints what we
// served, as the headless JSON says we did.
func TestEverythingRoots(t *testing.T) {
	cmdline := everythingCommand(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	args := append([]string{"call", "get-roots-list", "--root", dir, "--"}, cmdline...)
	cmd := exec.CommandContext(ctx, binPath, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("elicit call: %v\n%s\n%s", err, out, stderr.String())
	}
	var got callOutput
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output: %v\n%s", err, out)
	}
	uri := "file://" + filepath.ToSlash(dir)
	if len(got.Roots) != 1 || got.Roots[0].URI != uri {
		t.Errorf("roots served %+v", got.Roots)
	}
	if !strings.Contains(string(got.Result), "URI: "+uri) || !strings.Contains(string(got.Result), "1 total") {
		t.Errorf("get-roots-list did not list our root:\n%s", got.Result)
	}
}
