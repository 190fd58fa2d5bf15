package client

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestTasksReachTheSessionOnlyThroughTheirHandle keeps the requester side
// of tasks a module: its files name no Session (tasksHandle, built in
// tasks_handle.go, is all they have of it), and in tasks.go only the
// public entries are Session methods.
func TestTasksReachTheSessionOnlyThroughTheirHandle(t *testing.T) {
	entries := map[string]bool{"Tasks": true, "Task": true, "CancelTask": true, "ListTasks": true, "ResumeTask": true}
	for _, name := range []string{"tasks.go", "tasks_call.go", "tasks_core.go", "tasks_end.go", "tasks_ext.go", "tasks_follow.go", "tasks_wire.go", "taskchoice.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && entries[fn.Name.Name] && name == "tasks.go" {
				continue // a public entry: the session's API
			}
			ast.Inspect(d, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && id.Name == "Session" {
					t.Errorf("%s names the Session (in %s): reach it through tasksHandle", name, declName(d))
				}
				return true
			})
		}
	}
}

func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return d.Name.Name
	case *ast.GenDecl:
		for _, s := range d.Specs {
			if ts, ok := s.(*ast.TypeSpec); ok {
				return ts.Name.Name
			}
		}
	}
	return "a declaration"
}
