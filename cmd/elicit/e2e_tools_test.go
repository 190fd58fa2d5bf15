package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The scene the outputSchema test talks to, beside the others
// (hostile_server_test.go): a server whose tools declare an outputSchema
// and do not keep to it.
func init() { testServers["output-schema"] = serveOutputSchema }

// serveOutputSchema lists two tools with the same outputSchema, {"sum":
// number}: "wrong" answers with structuredContent that breaks it, "bare"
// with none at all.
func serveOutputSchema(in *bufio.Scanner, out *json.Encoder) {
	outSchema := map[string]any{"type": "object", "properties": map[string]any{"sum": map[string]any{"type": "number"}}, "required": []string{"sum"}}
	tool := func(name, title string) map[string]any {
		return map[string]any{"name": name, "title": title, "inputSchema": map[string]any{"type": "object"}, "outputSchema": outSchema}
	}
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || m.ID == nil {
			continue // notifications
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
		switch m.Method {
		case "initialize":
			reply["result"] = map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "hostile", "version": "1"}}
		case "tools/list":
			reply["result"] = map[string]any{"tools": []any{tool("wrong", "Wrong sum"), tool("bare", "Bare result")}}
		case "tools/call":
			res := map[string]any{"content": []any{map[string]any{"type": "text", "text": "the sum is five"}}}
			if m.Params.Name == "wrong" {
				res["structuredContent"] = map[string]any{"sum": "five"}
			}
			reply["result"] = res
		default:
			reply["error"] = map[string]any{"code": -32601, "message": "method not found"}
		}
		_ = out.Encode(reply)
	}
}

// TestTUIWorkingWithTools drives `elicit demo` in tmux through the tools
// view: filter the list, read a tool's details, call it, call it again
// from its remembered arguments, edit them as JSON, and call again with a.
func TestTUIWorkingWithTools(t *testing.T) {
	dir := t.TempDir()
	tm := newTmux(t, dir, "demo", "--protocol", "2026-07-28")
	tm.waitText("demo-2026-07-28 ready")
	tm.press("F5")
	tm.waitText("add — Add two numbers")

	// Filter: / and text; Enter keeps it; the header counts.
	tm.press("/")
	tm.typeText("two num")
	s := tm.waitText("filter: two num▏ (1 of ")
	if strings.Contains(s, "echo — Echo") {
		t.Fatalf("the filter shows a tool it does not match:\n%s", s)
	}
	tm.press("Enter")
	tm.waitText("› add — Add two numbers")

	// Details: the annotations in words, the outputSchema at the end.
	tm.press("d")
	tm.waitText("read-only     yes — does not modify its environment")
	tm.press("G")
	tm.waitText("Output schema")
	tm.press("Escape")
	tm.waitText("› add — Add two numbers")

	// A call through the form; the result matches the outputSchema.
	tm.press("Enter")
	tm.waitText("arguments for add")
	tm.typeText("2")
	tm.press("Enter")
	tm.typeText("3")
	tm.press("Enter")
	tm.waitText("2 + 3 = 5")
	tm.waitText("structuredContent  ✓ matches outputSchema")
	tm.waitText("› add — Add two numbers") // the list kept its cursor

	// The form opens again with the last call's arguments; as JSON,
	// b becomes 40.
	tm.press("Enter")
	tm.waitText("arguments for add")
	tm.waitText("> 3")
	tm.press("C-l")
	tm.waitText(`"b": 3`)
	tm.press("C-End", "Up", "End", "BSpace") // the 3 of "b": 3
	tm.typeText("40")
	tm.waitText("✓ fits the inputSchema")
	tm.press("C-s")
	tm.waitText("2 + 40 = 42")

	// a calls it again with the same arguments.
	tm.press("a")
	tm.waitFor("two calls with b 40", func(s string) bool { return strings.Count(s, `{"a":2,"b":40}`) == 2 })

	// The last call was written as JSON: Enter opens the JSON again.
	tm.press("Enter")
	tm.waitText("arguments for add · as JSON")
	tm.waitText(`"b": 40`)
	tm.press("Escape")
	// Two Escapes read at once are one alt+Escape: the second goes only
	// once the first has closed the editor.
	tm.waitFor("the editor closed", func(s string) bool { return !strings.Contains(s, "arguments for add · as JSON") })
	tm.press("Escape") // clears the filter
	tm.waitText("echo — Echo")
}

// TestTUIOutputSchemaMismatch: a real server (a subprocess over stdio)
// whose structuredContent breaks its tool's outputSchema, or is missing,
// is shown as a mismatch, with the validator's reason.
func TestTUIOutputSchemaMismatch(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tm := newTmux(t, t.TempDir(), "--protocol", "2025-11-25", "--name", "hostile", "--", "env", testServerEnv+"=output-schema", self)
	tm.waitText("hostile ready")
	tm.callTool("wrong")
	tm.waitText("✗ hostile/wrong  outputSchema mismatch")
	tm.waitText("✗ structuredContent does not match the tool's outputSchema:")
	tm.waitText("at /sum: got string, want number")
	tm.callTool("bare")
	tm.waitText("✗ no structuredContent, though the tool declares an outputSchema")
}

// memoryCommand is @modelcontextprotocol/server-memory over stdio, keeping
// its graph in dir; ELICIT_SERVER_MEMORY is the path to its dist/index.js
// (2026.8.31). Without it the test skips, and fails under CI=true.
func memoryCommand(t *testing.T, dir string) []string {
	t.Helper()
	p := os.Getenv("ELICIT_SERVER_MEMORY")
	if p == "" {
		missingPeer(t, "ELICIT_SERVER_MEMORY not set (path to @modelcontextprotocol/server-memory's dist/index.js)")
	}
	return []string{"env", "MEMORY_FILE_PATH=" + filepath.Join(dir, "memory.jsonl"), "node", p}
}

// TestTUIArrayOfObjectsTemplate (issue 26, item 7): server-memory's
// create_entities takes an array of objects; its form starts from one
// entity with its required members (not an empty box), the person fills
// in the name, the server takes the call, and the JSON editor shows the
// same shape (not "entities": null). At 80×24 and 120×40.
func TestTUIArrayOfObjectsTemplate(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		dir := t.TempDir()
		tm := newTmuxSized(t, size[0], size[1], dir, append([]string{"--"}, memoryCommand(t, dir)...)...)
		tm.waitText("server-memory ready")
		tm.callTool("create_entities")
		s := tm.waitText(`"observations": []`)
		for _, want := range []string{"┃ [", `"name": "",`, `"entityType": "",`, `"observations": []`, "┃   }", "┃ ]"} {
			if !strings.Contains(s, want) {
				t.Fatalf("%dx%d: the form lacks %q:\n%s", size[0], size[1], want, s)
			}
		}
		checkWidth(t, s, size[0])
		// The cursor is after the closing ]: four lines up, and right to
		// between the quotes of "name": "".
		tm.press("Up", "Up", "Up", "Up")
		for range len(`    "name": "`) - len("]") {
			tm.press("Right")
		}
		tm.typeText("Ada")
		tm.waitText(`"name": "Ada",`)
		tm.press("Enter")
		tm.waitText("✓ server-memory/create_entities")
		s = tm.waitText(`"name": "Ada"`)
		if strings.Contains(s, "isError") || strings.Contains(s, "✗") {
			t.Fatalf("%dx%d: the call failed:\n%s", size[0], size[1], s)
		}
		// Called again as JSON: the last arguments, the same shape.
		tm.press("Enter")
		tm.waitText("arguments for create_entities")
		tm.press("C-l")
		s = tm.waitText("✓ fits the inputSchema")
		for _, want := range []string{`"entities": [`, `"name": "Ada",`, `"entityType": "",`, `"observations": []`} {
			if !strings.Contains(s, want) {
				t.Fatalf("%dx%d: the JSON editor lacks %q:\n%s", size[0], size[1], want, s)
			}
		}
		if strings.Contains(s, "null") {
			t.Fatalf("%dx%d: the JSON editor shows null:\n%s", size[0], size[1], s)
		}
		checkWidth(t, s, size[0])
	}
}
