package serverspec

import (
	"testing"
)

func TestServerNames(t *testing.T) {
	for _, tc := range []struct {
		cmd  []string
		want string
	}{
		{[]string{"npx", "-y", "@modelcontextprotocol/server-everything"}, "server-everything"},
		{[]string{"npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31", "stdio"}, "server-everything"},
		{[]string{"node", "/x/node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"}, "server-everything"},
		{[]string{"node", "server.js"}, "server"},
		{[]string{"uvx", "mcp-server-git"}, "mcp-server-git"},
		{[]string{"go", "run", "./cmd/weather"}, "weather"},
		{[]string{"/usr/local/bin/my-server", "--port", "1"}, "my-server"},
		{[]string{"env", "FOO=1", "node", "server.js"}, "server"},
		{[]string{"/usr/bin/env", "-i", "A=b", "npx", "-y", "@scope/server-memory"}, "server-memory"},
		{[]string{"timeout", "5m", "my-server"}, "my-server"},
		{[]string{"env", "X=1"}, "server"},
	} {
		if got := baseName(tc.cmd); got != tc.want {
			t.Errorf("baseName(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
	if got := hostName("http://localhost:3001/mcp"); got != "localhost:3001" {
		t.Errorf("hostName = %q", got)
	}
}
