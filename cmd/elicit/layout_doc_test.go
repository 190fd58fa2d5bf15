package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestLayoutNamesEveryPackage: the README's Layout section names every
// package of the module (as `path` or `path/`), so a new package cannot
// go undocumented there.
func TestLayoutNamesEveryPackage(t *testing.T) {
	const mod = "github.com/elicit-dev/elicit/"
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, layout, ok := strings.Cut(string(readme), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md has no ## Layout section")
	}
	layout, _, _ = strings.Cut(layout, "\n## ")
	out, err := exec.Command("go", "list", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(p, mod)
		if !strings.Contains(layout, "`"+rel+"`") && !strings.Contains(layout, "`"+rel+"/`") {
			t.Errorf("README.md's Layout does not name %s", rel)
		}
	}
}
