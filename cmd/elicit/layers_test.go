package main

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// TestLayers enforces the dependency rule (AGENTS.md): each package may
// import only the packages of ours listed here, and only ui, forms and
// themes may touch charm.
func TestLayers(t *testing.T) {
	const mod = "github.com/elicit-dev/elicit/"
	type rule struct {
		ours  []string // packages of ours it may import
		charm bool
	}
	rules := map[string]rule{
		"transport/jsonrpc": {},
		"forms/schema":      {},
		"transport":         {ours: []string{"transport/jsonrpc"}},
		"client/wire":       {ours: []string{"transport/jsonrpc"}},
		"client/question":   {ours: []string{"client/wire", "transport/jsonrpc", "forms/schema"}},
		"client":            {ours: []string{"client/wire", "client/question", "transport", "transport/jsonrpc", "forms/schema"}},
		"themes":            {charm: true},
		"themes/untrusted":  {},
		"forms":             {ours: []string{"forms/schema", "themes", "themes/untrusted"}, charm: true},
		"ui":                {ours: []string{"client", "client/wire", "client/question", "forms", "forms/schema", "themes", "themes/untrusted", "transport/jsonrpc"}, charm: true},
		"cmd/elicit/demo":   {},
	}
	out, err := exec.Command("go", "list", "-json", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decode go list: %v", err)
		}
		r, ok := rules[strings.TrimPrefix(p.ImportPath, mod)]
		if !ok {
			continue
		}
		seen++
		for _, imp := range p.Imports {
			switch {
			case strings.HasPrefix(imp, mod) && !contains(r.ours, strings.TrimPrefix(imp, mod)):
				t.Errorf("%s imports %s, which the layering rule forbids", p.ImportPath, imp)
			case strings.HasPrefix(imp, "charm.land/") && !r.charm:
				t.Errorf("%s imports %s: only ui, forms and themes may use charm", p.ImportPath, imp)
			}
		}
	}
	if seen < 4 {
		t.Fatalf("go list matched only %d of our packages; is the pattern right?", seen)
	}
}
