package main

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestLayers enforces the dependency rule (AGENTS.md) on each package's
// imports and on its tests' (in-package and external): a package may
// import only the packages of ours listed for it; its tests may import the
// same, the package itself, and what is listed for them (a real peer to
// test against, the ids client's data types carry). go-sdk is a test peer
// of the engine and what the demo is built on, nothing more; only ui, forms
// and themes may touch charm (and cmd/elicit/internal/tui, which runs
// the program). internal/testenv is for tests only: every
// package's tests may import it, no package may.
func TestLayers(t *testing.T) {
	const (
		mod = "github.com/elicit-dev/elicit/"
		sdk = "github.com/modelcontextprotocol/go-sdk/"
	)
	type rule struct {
		ours     []string // packages of ours it may import
		testOurs []string // packages of ours its tests may import besides
		sdk      bool     // it may import go-sdk
		sdkPkgs  []string // or only these go-sdk packages (relative to sdk)
		testSDK  bool     // its tests may import go-sdk
		charm    bool     // it and its tests may import charm
		charmPkg []string // or only these charm packages (full import paths)
		// testCharm: its tests may import charm (bubbletea's Msg, to
		// attach a ui.Bridge), the package itself not.
		testCharm bool
		anything  bool // it may import anything (cmd/elicit, which ties it all together)
	}
	rules := map[string]rule{
		"transport/jsonrpc":       {},
		"forms/schema":            {},
		"themes/untrusted":        {},
		"client/wire":             {ours: []string{"transport/jsonrpc"}},
		"client/question":         {ours: []string{"client/wire", "transport/jsonrpc", "forms/schema"}},
		"client/findings":         {ours: []string{"transport/jsonrpc"}},
		"client/lint":             {ours: []string{"client/findings", "client/question", "client/wire", "forms/schema", "transport/jsonrpc"}},
		"client/skills":           {ours: []string{"client/wire"}},
		"transport/redact":        {},
		"transport":               {ours: []string{"transport/jsonrpc", "transport/redact"}, testSDK: true},
		"transport/rpcpeer":       {ours: []string{"transport", "transport/jsonrpc"}},
		"transport/oauth":         {ours: []string{"transport/redact"}, sdkPkgs: []string{"oauthex"}, testSDK: true},
		"client":                  {ours: []string{"client/wire", "client/question", "client/findings", "client/lint", "client/skills", "transport", "transport/jsonrpc", "transport/rpcpeer", "forms/schema"}, testOurs: []string{"cmd/elicit/demo"}, testSDK: true},
		"client/record":           {ours: []string{"client", "client/question", "client/wire", "transport/jsonrpc"}},
		"client/acp":              {ours: []string{"client/question", "client/wire", "transport", "transport/jsonrpc", "transport/rpcpeer", "forms/schema"}, testOurs: []string{"cmd/elicit/demo/acpagent"}},
		"themes":                  {charm: true},
		"forms":                   {ours: []string{"forms/schema", "themes", "themes/untrusted"}, charm: true},
		"ui":                      {ours: []string{"client", "client/wire", "client/question", "client/findings", "client/skills", "forms", "forms/schema", "themes", "themes/untrusted"}, testOurs: []string{"transport/jsonrpc"}, charm: true},
		"cmd/elicit":              {anything: true},
		"cmd/elicit/internal/app": {ours: []string{"client", "client/acp", "client/findings", "client/question", "client/record", "client/wire", "transport", "transport/redact"}, testOurs: []string{"cmd/elicit/demo/acpagent"}},
		"cmd/elicit/internal/agents": {ours: []string{"client", "client/acp", "client/question", "client/record", "client/wire", "cmd/elicit/internal/app", "cmd/elicit/internal/cli", "cmd/elicit/internal/exit",
			"cmd/elicit/internal/headless", "cmd/elicit/internal/recording", "cmd/elicit/internal/serverspec", "cmd/elicit/internal/shown", "themes/untrusted", "transport", "transport/redact", "ui"}, testOurs: []string{"cmd/elicit/demo/acpagent"}, testCharm: true},
		"cmd/elicit/internal/replay": {ours: []string{"client", "client/acp", "client/findings", "client/question", "client/record", "client/wire",
			"cmd/elicit/internal/agents", "cmd/elicit/internal/app", "cmd/elicit/internal/cli", "cmd/elicit/internal/exit", "cmd/elicit/internal/headless",
			"cmd/elicit/internal/recording", "cmd/elicit/internal/serverspec", "cmd/elicit/internal/trust", "themes/untrusted", "transport/redact"}},
		"cmd/elicit/internal/tui": {ours: []string{"client", "client/findings", "client/question", "client/record", "client/skills", "client/wire", "cmd/elicit/demo",
			"cmd/elicit/internal/agents", "cmd/elicit/internal/app", "cmd/elicit/internal/apphost", "cmd/elicit/internal/attach", "cmd/elicit/internal/cli", "cmd/elicit/internal/exit",
			"cmd/elicit/internal/headless", "cmd/elicit/internal/hub", "cmd/elicit/internal/recording", "cmd/elicit/internal/serverspec", "cmd/elicit/internal/shown", "themes", "transport", "transport/jsonrpc", "transport/oauth", "transport/redact", "ui"},
			charm: true, testSDK: true},
		"cmd/elicit/internal/shown":    {ours: []string{"client", "client/question", "client/wire", "forms/schema", "transport/redact", "ui"}},
		"cmd/elicit/internal/proxy":    {ours: []string{"client/findings", "client/question", "client/wire", "forms/schema", "transport", "transport/jsonrpc"}},
		"cmd/elicit/internal/exit":     {ours: []string{"themes/untrusted"}},
		"cmd/elicit/internal/jsontext": {},
		"cmd/elicit/internal/profile":  {},
		"cmd/elicit/internal/trust":    {ours: []string{"cmd/elicit/internal/exit", "themes/untrusted", "transport/redact"}, charmPkg: []string{"github.com/charmbracelet/x/term"}},
		"cmd/elicit/internal/serverspec": {ours: []string{"cmd/elicit/internal/exit", "cmd/elicit/internal/jsontext", "cmd/elicit/internal/trust",
			"cmd/elicit/demo", "client", "client/wire", "themes/untrusted", "transport", "transport/oauth", "transport/redact"}},
		"cmd/elicit/internal/recording": {ours: []string{"cmd/elicit/internal/exit", "cmd/elicit/internal/serverspec", "client/record", "client/wire", "transport/redact"}},
		"cmd/elicit/internal/cli": {ours: []string{"cmd/elicit/internal/exit", "cmd/elicit/internal/recording", "cmd/elicit/internal/serverspec",
			"client", "client/question", "client/record"}},
		"cmd/elicit/internal/headless": {ours: []string{"cmd/elicit/internal/app", "cmd/elicit/internal/cli", "cmd/elicit/internal/exit",
			"cmd/elicit/internal/jsontext", "cmd/elicit/internal/recording", "cmd/elicit/internal/serverspec",
			"client", "client/findings", "client/question", "client/record", "client/skills", "client/wire", "themes/untrusted", "transport", "transport/jsonrpc", "transport/oauth", "transport/redact", "cmd/elicit/internal/hub",
			"cmd/elicit/internal/apphost"}},
		"cmd/elicit/internal/apphost": {ours: []string{"client/wire"}},
		"cmd/elicit/internal/attach":  {ours: []string{"transport/jsonrpc"}, charm: true},
		"cmd/elicit/internal/hub":     {ours: []string{"client", "client/findings", "client/question", "client/record", "forms/schema", "transport", "transport/jsonrpc", "transport/redact", "transport/rpcpeer"}},
		"cmd/elicit/demo":             {sdk: true, testSDK: true},
		"cmd/elicit/demo/acpagent":    {},
		"internal/testenv":            {},
	}
	// testOnly are the packages of ours any package's tests may import.
	testOnly := []string{"internal/testenv"}
	out, err := exec.Command("go", "list", "-json", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := map[string]bool{}
	for {
		var p struct {
			ImportPath   string
			Imports      []string
			TestImports  []string
			XTestImports []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decode go list: %v", err)
		}
		name := strings.TrimPrefix(p.ImportPath, mod)
		r, ok := rules[name]
		if !ok {
			// A package without a rule would be free to import anything:
			// a new package gets its row here and in AGENTS.md.
			t.Errorf("%s has no layering rule (cmd/elicit/layers_test.go, AGENTS.md)", p.ImportPath)
			continue
		}
		seen[name] = true
		if r.anything {
			continue
		}
		check := func(imports []string, test bool) {
			what := p.ImportPath
			if test {
				what += " (tests)"
			}
			for _, imp := range imports {
				rel, isOurs := strings.CutPrefix(imp, mod)
				switch {
				case isOurs && strings.HasPrefix(rel, name+"/internal/"):
					// A package's own internal packages are part of it.
				case isOurs && !slices.Contains(r.ours, rel) && !(test && (rel == name || slices.Contains(r.testOurs, rel) || slices.Contains(testOnly, rel))):
					t.Errorf("%s imports %s, which the layering rule forbids", what, imp)
				case strings.HasPrefix(imp, sdk) && !r.sdk && !(test && r.testSDK) && !slices.Contains(r.sdkPkgs, strings.TrimPrefix(imp, sdk)):
					t.Errorf("%s imports %s: go-sdk is a test peer of the engine and the demo's base only", what, imp)
				case (strings.HasPrefix(imp, "charm.land/") || strings.HasPrefix(imp, "github.com/charmbracelet/")) && !r.charm && !slices.Contains(r.charmPkg, imp) && !(test && r.testCharm):
					t.Errorf("%s imports %s: only ui, forms and themes may use charm", what, imp)
				}
			}
		}
		check(p.Imports, false)
		check(p.TestImports, true)
		check(p.XTestImports, true)
	}
	for name := range rules {
		if !seen[name] {
			t.Errorf("go list did not list %s%s; is the pattern right?", mod, name)
		}
	}
}
