package serverspec

import (
	"net/http"
	"slices"
	"testing"
)

// TestSpecSecrets: what of a configuration is a secret to mask in all
// that is shown, and what is not (an ordinary word would be blanked out
// everywhere).
func TestSpecSecrets(t *testing.T) {
	spec := Server{
		URL:     "https://user:pw-0001@h/mcp?token=abcd&tenant=blue&sig=0a1b2c3d4e5f6a7b8c9d",
		Header:  http.Header{"Authorization": {"Bearer tok-1"}, "Accept": {"application/json"}, "X-Custom": {"Zq9v0x8c7b6n5m4l3k2j"}},
		Env:     []string{"API_KEY=env-key-1", "HOME=/home/x", "DATABASE_URL=postgres://db:dbpass-1@host/db", "GH=from-input-1"},
		Args:    []string{"--token", "arg-tok-1", "--verbose"},
		secrets: []string{"from-input-1"},
		OAuth:   OAuth{ClientSecret: "client-secret-1"},
	}
	got := append(spec.SecretValues(), urlSecrets("https://tok-as-user@h/mcp")...)
	for _, want := range []string{"pw-0001", "tok-as-user", "abcd", "0a1b2c3d4e5f6a7b8c9d", "Bearer tok-1", "Zq9v0x8c7b6n5m4l3k2j",
		"env-key-1", "dbpass-1", "from-input-1", "arg-tok-1", "client-secret-1"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q is not taken as a secret (got %q)", want, got)
		}
	}
	for _, not := range []string{"user", "blue", "application/json", "/home/x", "--verbose"} {
		if slices.Contains(got, not) {
			t.Errorf("%q is taken as a secret", not)
		}
	}
	for raw, want := range map[string]bool{"${input:token}": true, "Bearer ${GITHUB_TOKEN}": true, "${HOME}/x": false, "plain": false} {
		if secretRef(raw) != want {
			t.Errorf("secretRef(%q) = %v", raw, !want)
		}
	}
}
