package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/google/go-cmp/cmp"
)

// TestConfigRoots: top-level roots serve every server that has none of
// its own; a server's own replace them (an empty list too); entries are
// paths relative to the config's directory, file:// URIs, or objects
// naming the root; one that does not exist is a warning, kept.
// TestFlagRoots: --root is relative to the working directory, repeatable,
// comes before a config's roots, and must exist.
// TestHeadlessRoots: every headless command's JSON lists the roots
// served, [] when none, and the embedded demo is offered them.
func TestHeadlessRoots(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI(t, "tools", "--root", dir)
	if code != exit.OK {
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
		if code != exit.OK {
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
	var got headless.CallOutput
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

// fileRoot is the root of a local path.
func fileRoot(path, name string) client.Root {
	return client.Root{URI: "file://" + filepath.ToSlash(path), Name: name}
}
