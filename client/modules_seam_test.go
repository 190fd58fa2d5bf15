package client

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestModulesReachTheSessionOnlyThroughTheirHandles keeps each feature of
// the session a module (AGENTS.md, "A feature of the session is a module
// behind a handle"): its files name no Session (the handle, built in its
// *_handle.go, is all it has of it), but for the public entries, which
// are the session's API.
func TestModulesReachTheSessionOnlyThroughTheirHandles(t *testing.T) {
	for _, m := range []struct {
		module  string
		files   []string
		entries []string // Session methods that are its public API
	}{
		{"the lifecycle (life)", []string{"life.go"}, nil},
		{"the era's handshake (handshake, handshakeHandle)", []string{"era.go", "lifecycle.go"}, nil},
		{"the ask path (asking, askHandle)", []string{"deliver.go"}, nil},
		{"what we offer (offers, offersHandle)", []string{"features.go", "elicit.go", "notify.go"}, nil},
		{"-32042 elicitations (urlRequired, urlHandle)", []string{"urlrequired.go"}, []string{"CompleteElicitation"}},
		{"MRTR (rounds, roundsHandle)", []string{"mrtr.go", "mrtr_round.go"}, nil},
		{"receiver-side tasks (receiverTable, receiverHandle)", []string{"receiver.go", "receiver_serve.go"}, nil},
		{"subscriptions (subscriptions, listensHandle)", []string{"listen.go", "subscribe.go", "subscribe_listen.go"},
			[]string{"Listen", "Subscribe", "Unsubscribe", "ResourceSubscriptions"}},
		{"header bindings (toolHeaders, headersHandle)", []string{"headers.go"}, nil},
		{"list coalescing (listFlights, listFreshnessOf)", []string{"lists.go"}, nil},
		{"roots (rootsState)", []string{"roots.go"}, []string{"Roots", "SetRoots"}},
	} {
		entries := map[string]bool{}
		for _, e := range m.entries {
			entries[e] = true
		}
		for _, name := range m.files {
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && entries[fn.Name.Name] {
					continue // a public entry: the session's API
				}
				ast.Inspect(d, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && id.Name == "Session" {
						t.Errorf("%s names the Session (in %s): %s reaches it only through its handle", name, declName(d), m.module)
					}
					return true
				})
			}
		}
	}
}
