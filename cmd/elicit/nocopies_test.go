package main

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoCopiedSource: code that is not ours comes in through go.mod, never
// as a copy in the tree (AGENTS.md). A copied project brings its licence
// with it, and a vendored one its folder, so either is refused; the one
// licence is the root's.
func TestNoCopiedSource(t *testing.T) {
	root := "../.."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		name := d.Name()
		if d.IsDir() {
			switch {
			case rel != "." && strings.HasPrefix(name, "."), name == "node_modules":
				return filepath.SkipDir // git, editors, the Node peers' installs
			case name == "vendor" || name == "third_party":
				t.Errorf("%s: third-party code belongs in go.mod, not in the tree", rel)
				return filepath.SkipDir
			}
			return nil
		}
		upper := strings.ToUpper(strings.TrimSuffix(name, filepath.Ext(name)))
		if (upper == "LICENSE" || upper == "LICENCE" || upper == "COPYING" || upper == "NOTICE") && rel != "LICENSE" {
			t.Errorf("%s: a licence file beside code suggests a copy of another project; depend on its module instead", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
