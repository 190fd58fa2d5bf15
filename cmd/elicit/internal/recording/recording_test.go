package recording

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport/redact"
)

// TestOpenPrivateAndMasked: the recording is a file of the person's own
// (0600), its settings name headers and variables but never their
// values, and the run's secrets are masked in every line.
func TestOpenPrivateAndMasked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	sec := redact.NewSecrets()
	web := serverspec.Server{Name: "web", URL: "https://h.example/mcp?token=tok-in-query-1",
		Header: http.Header{"Authorization": {"Bearer tok-header-1"}}}
	cli := serverspec.Server{Name: "cli", Command: "srv", Args: []string{"--api-key", "tok-arg-1"}, Env: []string{"API_KEY=tok-env-1"}}
	sec.Add(web.SecretValues()...)
	sec.Add(cli.SecretValues()...)
	r, err := Open(path, "v-test", Settings("call", "", "", "decline", []serverspec.Server{web, cli}, 0, "decline"), sec)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	Close(r, path, &stderr)
	if stderr.Len() != 0 {
		t.Errorf("closing said %q", stderr.String())
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the recording: %v, mode %v; want 0600", err, st.Mode())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"tok-in-query-1", "tok-header-1", "tok-arg-1", "tok-env-1"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the recording holds %q:\n%s", secret, b)
		}
	}
	for _, name := range []string{`"Authorization"`, `"API_KEY"`, `"elicit":"both"`, `"answer":"decline"`} {
		if !strings.Contains(strings.ReplaceAll(string(b), " ", ""), name) {
			t.Errorf("the settings lack %s:\n%s", name, b)
		}
	}
	if _, err := Open(filepath.Join(t.TempDir(), "no", "such", "dir", "f.jsonl"), "v", Settings("call", "", "", "", nil, 0, ""), sec); err == nil ||
		!strings.Contains(err.Error(), "--record") {
		t.Errorf("an unwritable path: %v, want a --record error", err)
	}
	if r, err := Open("", "v", Settings("call", "", "", "", nil, 0, ""), sec); r != nil || err != nil {
		t.Errorf(`Open(""): %v, %v; want no recording`, r, err)
	}
}
