package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// echoingAS is an MCP server behind OAuth whose authorization server
// echoes every token request in its error_description, as some do: "you
// sent client_id=… client_secret=… code_verifier=…". The MCP endpoint
// always answers 401; the authorization endpoint approves at once (the
// test's $BROWSER follows its redirect back to elicit's listener).
type echoingAS struct {
	srv *httptest.Server

	mu   sync.Mutex
	sent []url.Values // the token requests' forms
	auth []string     // their Authorization headers
}

func newEchoingAS(t *testing.T) *echoingAS {
	t.Helper()
	a := &echoingAS{}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+a.srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		asJSON(w, http.StatusOK, map[string]any{"resource": a.srv.URL + "/mcp", "authorization_servers": []string{a.srv.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		asJSON(w, http.StatusOK, map[string]any{
			"issuer": a.srv.URL, "authorization_endpoint": a.srv.URL + "/authorize", "token_endpoint": a.srv.URL + "/token",
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"client_secret_post"},
		})
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		back, _ := url.Parse(q.Get("redirect_uri"))
		back.RawQuery = url.Values{"code": {"the-authorization-code-" + q.Get("state")}, "state": {q.Get("state")}}.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		a.mu.Lock()
		a.sent = append(a.sent, r.PostForm)
		a.auth = append(a.auth, r.Header.Get("Authorization"))
		a.mu.Unlock()
		var echo []string
		for k, vs := range r.PostForm {
			for _, v := range vs {
				echo = append(echo, k+"="+v)
			}
		}
		asJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant",
			"error_description": "you sent " + strings.Join(echo, " ") + " (form: " + r.PostForm.Encode() + ")"})
	})
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	return a
}

// secrets are what the token requests carried that must never be shown:
// the client secret, the PKCE verifier, the authorization code.
func (a *echoingAS) secrets(t *testing.T) []string {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.sent) == 0 {
		t.Fatal("elicit made no token request")
	}
	var out []string
	for _, f := range a.sent {
		for _, k := range []string{"client_secret", "code_verifier", "code"} {
			if v := f.Get(k); v != "" {
				out = append(out, v, url.QueryEscape(v))
			}
		}
	}
	return out
}

// noneOf fails for each secret found in any of the texts.
func noneOf(t *testing.T, secrets []string, texts map[string]string) {
	t.Helper()
	for name, text := range texts {
		var found []string
		for _, s := range secrets {
			if strings.Contains(text, s) && !slices.Contains(found, s) {
				found = append(found, s)
			}
		}
		if len(found) > 0 {
			t.Errorf("%s holds the secrets %q:\n%s", name, found, text)
		}
	}
}

const echoClientSecret = "the-client-secret-0123456789"

// An authorization server that echoes the token request in its error:
// neither the client secret nor the PKCE verifier nor the code reaches
// stdout (the failure JSON), stderr or the recording.
func TestSecretsTokenErrorEchoed(t *testing.T) {
	a := newEchoingAS(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.jsonl")
	env := []string{"XDG_STATE_HOME=" + filepath.Join(dir, "state"), "BROWSER=" + browserScript(t, dir, filepath.Join(dir, "browser.log"), false)}
	stdout, stderr, err := runElicit(t, env, "tools", "--url", a.srv.URL+"/mcp",
		"--client-id", "echo-client", "--client-secret", echoClientSecret, "--auth-timeout", "20s", "--record", rec)
	if code := exitCode(err); code != exit.Connect {
		t.Fatalf("exit %d, want %d (connect)\nstdout:\n%s\nstderr:\n%s", code, exit.Connect, stdout, stderr)
	}
	if !strings.Contains(stdout, "invalid_grant") || !strings.Contains(stdout, "you sent") {
		t.Errorf("the failure does not say what the server said:\n%s", stdout)
	}
	recorded, rerr := os.ReadFile(rec)
	if rerr != nil {
		t.Fatal(rerr)
	}
	secrets := append(a.secrets(t), echoClientSecret)
	noneOf(t, secrets, map[string]string{"stdout": stdout, "stderr": stderr, "the recording": string(recorded)})
}

// elicit auth login against the same server: its error on stderr holds
// none of them either.
func TestSecretsTokenErrorEchoedAtLogin(t *testing.T) {
	a := newEchoingAS(t)
	dir := t.TempDir()
	env := []string{"XDG_STATE_HOME=" + filepath.Join(dir, "state"), "BROWSER=" + browserScript(t, dir, filepath.Join(dir, "browser.log"), false)}
	stdout, stderr, err := runElicit(t, env, "auth", "login", "--url", a.srv.URL+"/mcp",
		"--client-id", "echo-client", "--client-secret", echoClientSecret, "--auth-timeout", "20s")
	if code := exitCode(err); code != exit.Connect {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exit.Connect, stdout, stderr)
	}
	if !strings.Contains(stderr, "you sent") {
		t.Errorf("the error does not say what the server said:\n%s", stderr)
	}
	noneOf(t, append(a.secrets(t), echoClientSecret), map[string]string{"stdout": stdout, "stderr": stderr})
}

// headerEchoServer is a go-sdk server over Streamable HTTP whose tools
// echo the request's headers and URL: in a result ("whoami"), in a
// tool error ("fail") and in a JSON-RPC error ("reject").
func headerEchoServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	echo := func(req *mcp.CallToolRequest) string {
		return fmt.Sprintf("you sent %v", req.Extra.Header)
	}
	srv.AddTool(&mcp.Tool{Name: "whoami", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: echo(req)}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "fail", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: echo(req)}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "reject", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: -32000, Message: echo(req)}
		})
	srv.AddResource(&mcp.Resource{URI: "echo://headers", Name: "headers", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "echo://headers", MIMEType: "text/plain",
				Text: fmt.Sprintf("you sent %v", req.Extra.Header)}}}, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(ts.Close)
	return ts
}

const (
	echoBearer = "bearer-token-0123456789"
	echoAPIKey = "api-key-value-abcdef"
)

// A server that echoes the headers it was sent (--header values): the
// result, the tool error and the JSON-RPC error reach stdout, stderr and
// the recording without them, and `elicit check` prints none either.
func TestSecretsHeadersEchoed(t *testing.T) {
	ts := headerEchoServer(t)
	secrets := []string{echoBearer, echoAPIKey}
	for _, tool := range []string{"whoami", "fail", "reject"} {
		t.Run(tool, func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "rec.jsonl")
			stdout, stderr, _ := runElicit(t, nil, "call", tool, "--url", ts.URL+"/mcp",
				"--header", "Authorization: Bearer "+echoBearer, "--header", "X-Api-Key: "+echoAPIKey, "--record", rec)
			if !strings.Contains(stdout, "you sent") {
				t.Fatalf("the server's echo is not in the output:\n%s\n%s", stdout, stderr)
			}
			recorded, err := os.ReadFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			noneOf(t, secrets, map[string]string{"stdout": stdout, "stderr": stderr, "the recording": string(recorded)})
		})
	}
	stdout, stderr, _ := runElicit(t, nil, "read", "echo://headers", "--url", ts.URL+"/mcp",
		"--header", "Authorization: Bearer "+echoBearer, "--header", "X-Api-Key: "+echoAPIKey)
	if !strings.Contains(stdout, "you sent") {
		t.Fatalf("read: the server's echo is not in the output:\n%s\n%s", stdout, stderr)
	}
	noneOf(t, secrets, map[string]string{"read's stdout": stdout, "read's stderr": stderr})
	stdout, stderr, _ = runElicit(t, nil, "check", "--call", "reject", "--json", "--url", ts.URL+"/mcp",
		"--header", "Authorization: Bearer "+echoBearer, "--header", "X-Api-Key: "+echoAPIKey)
	noneOf(t, secrets, map[string]string{"check's stdout": stdout, "check's stderr": stderr})
}

// A stdio server given a token in its environment by a config file,
// which prints it on stderr and in its result: neither reaches stdout,
// stderr or the recording.
func TestSecretsEnvEchoed(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const token = "env-token-value-0123456789"
	cfg := writeFile(t, dir, "servers.json", `{"mcpServers": {"envy": {"command": `+strconv.Quote(self)+`,
    "env": {"`+testServerEnv+`": "env-echo", "ELICIT_TEST_TOKEN": "`+token+`"}}}}`)
	rec := filepath.Join(dir, "rec.jsonl")
	stdout, stderr, err := runElicit(t, nil, "call", "env-echo", "--config", cfg, "--server", "envy", "--protocol", "2025-11-25", "--record", rec)
	if err != nil || !strings.Contains(stdout, "my token is") || !strings.Contains(stderr, "called with token") {
		t.Fatalf("err %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	recorded, rerr := os.ReadFile(rec)
	if rerr != nil {
		t.Fatal(rerr)
	}
	noneOf(t, []string{token}, map[string]string{"stdout": stdout, "stderr": stderr, "the recording": string(recorded)})
}

// The files elicit writes that hold secrets are private: a recording is
// 0600 even over a file that was 0644 (the task state: internal/tui's
// TestTaskStatePrivate).
func TestSecretFilesPrivate(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.jsonl")
	if err := os.WriteFile(rec, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if stdout, stderr, err := runElicit(t, nil, "tools", "--demo", "--record", rec); err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout, stderr)
	}
	if m := modeOf(t, rec); m != 0o600 {
		t.Errorf("the recording is %04o, want 0600", m)
	}
}

func modeOf(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// The token folder, $XDG_STATE_HOME/elicit/auth, found open to everyone
// (0777): elicit closes it to 0700 before it reads or writes a token;
// found to be another user's, elicit refuses, saying whose it is.
func TestAuthFolderPrivate(t *testing.T) {
	a := newRevokingAS(t)
	state, mcpURL := a.kept(t)
	auth := filepath.Join(state, "elicit", "auth")
	if err := os.Chmod(auth, 0o777); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := runElicit(t, []string{"XDG_STATE_HOME=" + state}, "auth", "status", "--url", mcpURL)
	if err != nil || !strings.Contains(stdout, "refresh token") {
		t.Fatalf("status: %v\n%s\n%s", err, stdout, stderr)
	}
	if m := modeOf(t, auth); m != 0o700 {
		t.Errorf("the token folder is left %04o, want 0700", m)
	}
	if os.Getuid() != 0 {
		return // a folder of another user's needs root to make
	}
	if err := os.Chown(auth, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err = runElicit(t, []string{"XDG_STATE_HOME=" + state}, "auth", "status", "--url", mcpURL)
	if exitCode(err) == 0 || !strings.Contains(stderr, "belongs to user 65534, not to you") {
		t.Errorf("status with another user's token folder: exit %d\n%s\n%s", exitCode(err), stdout, stderr)
	}
}

// A recording of a server that echoed a header holds it masked, and
// replays green: the replay compares what a recording would have held.
func TestSecretsReplayOfAMaskedRecording(t *testing.T) {
	ts := headerEchoServer(t)
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	hdr := []string{"--header", "Authorization: Bearer " + echoBearer, "--header", "X-Api-Key: " + echoAPIKey}
	if stdout, stderr, err := runElicit(t, nil, append([]string{"call", "whoami", "--url", ts.URL + "/mcp", "--record", rec}, hdr...)...); err != nil {
		t.Fatalf("call: %v\n%s\n%s", err, stdout, stderr)
	}
	stdout, stderr, err := runElicit(t, nil, append([]string{"replay", rec, "--url", ts.URL + "/mcp"}, hdr...)...)
	if err != nil {
		t.Errorf("replay: %v\n%s\n%s", err, stdout, stderr)
	}
	noneOf(t, []string{echoBearer, echoAPIKey}, map[string]string{"replay's stdout": stdout, "replay's stderr": stderr})
}

// A --header that does not parse is refused without quoting it: it is
// most often a secret with a slip in it.
func TestSecretsBadHeaderNotQuoted(t *testing.T) {
	const tok = "tok-secret-0123456789"
	for _, h := range []string{"Authorization Bearer " + tok, "X Key: " + tok, "Authorization: Bearer " + tok + "\nX: y"} {
		stdout, stderr, err := runElicit(t, nil, "tools", "--url", "http://127.0.0.1:1/mcp", "--header", h)
		if exitCode(err) != exit.Usage || !strings.Contains(stderr, "--header") {
			t.Errorf("%q: exit %d\n%s", h, exitCode(err), stderr)
		}
		noneOf(t, []string{tok}, map[string]string{"stdout": stdout, "stderr": stderr})
	}
}

// A server whose question echoes the headers it was sent: the journal
// (the output's prompts, the recording's question and answer) holds
// none of their values.
func TestSecretsQuestionEchoed(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: fmt.Sprintf("you sent %v; go on?", req.Extra.Header),
				RequestedSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"ok": {Type: "boolean"}}}})
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answered " + res.Action}}}, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	stdout, stderr, err := runElicit(t, nil, "call", "ask", "--url", ts.URL+"/mcp", "--protocol", "2025-11-25", "--answer", "accept-defaults",
		"--header", "Authorization: Bearer "+echoBearer, "--header", "X-Api-Key: "+echoAPIKey, "--record", rec)
	if err != nil || !strings.Contains(stdout, `"prompts": [`) || !strings.Contains(stdout, "answered accept") {
		t.Fatalf("err %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	recorded, rerr := os.ReadFile(rec)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if !strings.Contains(string(recorded), `"type":"answer"`) || !strings.Contains(string(recorded), "you sent") {
		t.Fatalf("the recording has no question:\n%s", recorded)
	}
	noneOf(t, []string{echoBearer, echoAPIKey}, map[string]string{"stdout": stdout, "stderr": stderr, "the recording": string(recorded)})
}
