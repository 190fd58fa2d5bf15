package serverspec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigOAuth(t *testing.T) {
	t.Setenv("NOTES_SECRET", "s3cret")
	p := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(p, []byte(`{"mcpServers": {"notes": {"url": "https://notes.example.com/mcp",
		"oauth": {"clientId": "elicit", "clientSecret": "${NOTES_SECRET}", "scopes": ["notes:read"],
		          "clientMetadataUrl": "https://elicit.example.com/client.json", "redirectPort": 53682}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	o := cfg.Servers[0].OAuth
	if o.ClientID != "elicit" || o.ClientSecret != "s3cret" || len(o.Scopes) != 1 || o.RedirectPort != 53682 ||
		o.ClientMetadataURL != "https://elicit.example.com/client.json" {
		t.Errorf("oauth %+v", o)
	}
	if _, err := cfg.Servers[0].OAuthTransport(nil); err != nil {
		t.Errorf("oauthTransport: %v", err)
	}
}

func TestConfigOAuthErrors(t *testing.T) {
	for _, tc := range []struct{ server, want string }{
		{`{"command": "x", "oauth": {"clientId": "a"}}`, `"oauth" only applies to a server with a "url"`},
		{`{"url": "https://x/mcp", "oauth": {"clientSecret": "s"}}`, `"clientSecret" needs "clientId"`},
		{`{"url": "https://x/mcp", "oauth": {"redirectPort": 70000}}`, "not a port"},
		{`{"url": "https://x/mcp", "oauth": {"grant": "password"}}`, `unknown "grant"`},
		{`{"url": "https://x/mcp", "oauth": {"grant": "client_credentials", "clientId": "a"}}`, `needs "clientId" and "clientSecret"`},
		{`{"url": "https://x/mcp", "oauth": {"clientId": "${UNSET_FOR_TEST}"}}`, "UNSET_FOR_TEST} is not set"},
	} {
		p := filepath.Join(t.TempDir(), "mcp.json")
		if err := os.WriteFile(p, []byte(`{"mcpServers": {"s": `+tc.server+`}}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := loadErr(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.server, err, tc.want)
		}
	}
}

func TestOAuthFlagsOnlyForURL(t *testing.T) {
	c := Flags{ClientID: "a", Command: []string{"x"}}
	if _, err := c.Spec(false); err == nil || !strings.Contains(err.Error(), "apply to --url") {
		t.Errorf("--client-id with a command: %v", err)
	}
	c = Flags{URL: "https://x/mcp", ClientID: "a", Scopes: ListFlag{"read write", "admin"}}
	s, err := c.Spec(false)
	if err != nil || s.OAuth.ClientID != "a" || strings.Join(s.OAuth.Scopes, ",") != "read,write,admin" {
		t.Errorf("spec %+v, %v", s.OAuth, err)
	}
}

func TestBrowserCommandNeverAShell(t *testing.T) {
	cmd, err := browserCommand("firefox --new-window %s:chromium", "https://a.example/x?y=1&z=$(rm)")
	if err != nil || strings.Join(cmd.Args, " ") != "firefox --new-window https://a.example/x?y=1&z=$(rm)" {
		t.Errorf("args %q, %v", cmd.Args, err)
	}
	if _, err := browserCommand("firefox", "javascript:alert(1)"); err == nil {
		t.Error("a javascript: URL would be opened")
	}
}
