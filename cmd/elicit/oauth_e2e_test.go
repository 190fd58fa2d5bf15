package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/internal/testenv"
)

// These tests authorize the real binary to a server built on a real SDK:
// the TypeScript SDK's own example server (simpleStreamableHttp.js) with
// --oauth --oauth-strict, which runs the SDK's authorization router
// (mcpAuthRouter: RFC 8414 metadata, dynamic registration, PKCE checked at
// the token endpoint, redirect URIs checked against the registration) on
// one port, and on the MCP port the SDK's protected resource metadata and
// requireBearerAuth, which refuses tokens not issued for its URL (RFC 8707).
// The "browser" is $BROWSER: a script that fetches the authorization URL
// and follows its redirects with curl, as a browser does once a person
// approved, which lands on elicit's loopback listener.
//
// ELICIT_TS_SDK is the SDK's folder (.ci/run installs it).

// tsOAuthServer starts the SDK's example server with OAuth and returns
// its MCP URL.
func tsOAuthServer(t *testing.T) string {
	t.Helper()
	sdk := os.Getenv("ELICIT_TS_SDK")
	mcpURL, _ := tsNodeServer(t, filepath.Join(sdk, "dist/esm/examples/server/simpleStreamableHttp.js"), "--oauth", "--oauth-strict")
	return mcpURL
}

// tsNodeServer runs a Node script on the TypeScript SDK that listens on
// $MCP_PORT (the MCP server) and $MCP_AUTH_PORT (its authorization
// server), each saying "listening on port" once up, and returns their
// URLs.
func tsNodeServer(t *testing.T, script string, args ...string) (mcpURL, authURL string) {
	t.Helper()
	testenv.Getenv(t, "ELICIT_TS_SDK", "the @modelcontextprotocol/sdk folder")
	testenv.LookPath(t, "node")
	testenv.LookPath(t, "curl") // the test's browser
	mcpPort, authPort := freePort(t), freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "node", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "MCP_PORT="+mcpPort, "MCP_AUTH_PORT="+authPort)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		seen := 0
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				if seen++; seen == 2 { // the authorization server and the MCP server
					close(ready)
				}
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not start in 30 s", filepath.Base(script))
	}
	return "http://localhost:" + mcpPort + "/mcp", "http://localhost:" + authPort
}

// browserScript writes a $BROWSER that logs each URL to log and, unless
// refuse, fetches it following redirects.
func browserScript(t *testing.T, dir, log string, refuse bool) string {
	t.Helper()
	body := fmt.Sprintf("#!/bin/sh\necho \"$1\" >> %q\nexec curl -s -L -o /dev/null \"$1\"\n", log)
	if refuse {
		body = fmt.Sprintf("#!/bin/sh\necho \"$1\" >> %q\nexit 1\n", log)
	}
	p := filepath.Join(dir, fmt.Sprintf("browser-%d.sh", time.Now().UnixNano()))
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// runElicit runs the binary with extra environment and returns stdout,
// stderr and the error.
func runElicit(t *testing.T, env []string, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

func TestOAuthHeadlessAgainstTypeScriptSDK(t *testing.T) {
	url := tsOAuthServer(t)
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	log := filepath.Join(dir, "browser.log")
	env := []string{"XDG_STATE_HOME=" + state, "BROWSER=" + browserScript(t, dir, log, false)}

	// 1. The first call meets the 401, registers, signs in through the
	// browser and the loopback listener, and calls the tool.
	stdout, stderr, err := runElicit(t, env, "call", "greet", "--args", `{"name":"Ada"}`, "--url", url)
	if err != nil {
		t.Fatalf("call: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	var out struct {
		Result struct {
			Content []struct{ Text string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out.Result.Content) == 0 || out.Result.Content[0].Text != "Hello, Ada!" {
		t.Fatalf("call output %v:\n%s", err, stdout)
	}
	opened, _ := os.ReadFile(log)
	urls := strings.Fields(string(opened))
	if len(urls) != 1 || !strings.Contains(urls[0], "/authorize?") || !strings.Contains(urls[0], "code_challenge_method=S256") ||
		!strings.Contains(urls[0], "resource=http%3A%2F%2Flocalhost") || !strings.Contains(urls[0], "redirect_uri=http%3A%2F%2F127.0.0.1%3A") {
		t.Fatalf("the browser was sent %q", urls)
	}
	if !strings.Contains(stderr, "needs authorization") || !strings.Contains(stderr, urls[0]) || !strings.Contains(stderr, "authorized") {
		t.Errorf("stderr does not show the sign-in:\n%s", stderr)
	}

	// 2. The token is kept, 0600, and never printed.
	files, _ := filepath.Glob(filepath.Join(state, "elicit", "auth", "*.json"))
	if len(files) != 1 {
		t.Fatalf("token files %v", files)
	}
	fi, err := os.Stat(files[0])
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v, %v", fi.Mode(), err)
	}
	var rec struct {
		Token struct {
			AccessToken string `json:"access_token"`
		}
	}
	b, _ := os.ReadFile(files[0])
	if json.Unmarshal(b, &rec) != nil || rec.Token.AccessToken == "" {
		t.Fatalf("token file:\n%s", b)
	}
	if strings.Contains(stderr+stdout, rec.Token.AccessToken) {
		t.Error("the access token was printed")
	}

	// 3. The next run uses it: no browser (this one would refuse).
	refusing := filepath.Join(dir, "refused.log")
	env2 := []string{"XDG_STATE_HOME=" + state, "BROWSER=" + browserScript(t, dir, refusing, true)}
	if stdout, stderr, err := runElicit(t, env2, "call", "greet", "--args", `{"name":"Bo"}`, "--url", url); err != nil || !strings.Contains(stdout, "Hello, Bo!") {
		t.Fatalf("second call: %v\n%s\n%s", err, stdout, stderr)
	}
	if _, err := os.Stat(refusing); err == nil {
		t.Error("the second run opened the browser although a token was kept")
	}

	// 4. status shows what is kept, logout forgets it.
	stdout, _, err = runElicit(t, env2, "auth", "status", "--url", url)
	if err != nil || !strings.Contains(stdout, "authorization server  http://localhost:") || !strings.Contains(stdout, "dynamic") ||
		strings.Contains(stdout, rec.Token.AccessToken) {
		t.Errorf("auth status: %v\n%s", err, stdout)
	}
	// The SDK's demo provider has no revokeToken, so its metadata lists
	// no revocation_endpoint: logout says the tokens are forgotten only.
	if stdout, _, err = runElicit(t, env2, "auth", "logout", "--url", url); err != nil || !strings.Contains(stdout, "logged out") ||
		!strings.Contains(stdout, "access token   forgotten only: http://localhost:") || !strings.Contains(stdout, "publishes no revocation_endpoint") ||
		strings.Contains(stdout, rec.Token.AccessToken) {
		t.Errorf("auth logout: %v\n%s", err, stdout)
	}
	if files, _ := filepath.Glob(filepath.Join(state, "elicit", "auth", "*.json")); len(files) != 0 {
		t.Errorf("logout left %v", files)
	}

	// 5. login ahead of time, then a call with no browser at all.
	if stdout, stderr, err := runElicit(t, env, "auth", "login", "--url", url); err != nil || !strings.Contains(stdout, "token                 Bearer valid until") {
		t.Fatalf("auth login: %v\n%s\n%s", err, stdout, stderr)
	}
	if stdout, stderr, err := runElicit(t, []string{"XDG_STATE_HOME=" + state, "BROWSER="}, "call", "greet", "--args", `{"name":"Cy"}`, "--url", url); err != nil || !strings.Contains(stdout, "Hello, Cy!") {
		t.Fatalf("call after login: %v\n%s\n%s", err, stdout, stderr)
	}
}

// The browser never comes back: the wait ends at --auth-timeout with the
// reason, exit 3, and nothing is kept.
func TestOAuthHeadlessTimesOut(t *testing.T) {
	url := tsOAuthServer(t)
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	env := []string{"XDG_STATE_HOME=" + state, "BROWSER=" + browserScript(t, dir, filepath.Join(dir, "log"), true)}
	_, stderr, err := runElicit(t, env, "tools", "--url", url, "--auth-timeout", "2s")
	if code := exitCode(err); code != exit.Connect || !strings.Contains(stderr, "authorization timed out") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if files, _ := filepath.Glob(filepath.Join(state, "elicit", "auth", "*.json")); len(files) != 0 {
		t.Errorf("a failed authorization kept %v", files)
	}
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestOAuthTUI signs in from the TUI in tmux: the server's 401 puts up a
// pane with the sign-in URL (its host named), the status line says
// authorizing; "o" runs $BROWSER, whose redirect reaches the loopback
// listener; the pane ends, the status says authorized and ready, and the
// server's tools are there.
func TestOAuthTUI(t *testing.T) {
	url := tsOAuthServer(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "browser.log")
	tm := newTmuxEnv(t, dir, []string{"BROWSER=" + browserScript(t, dir, log, false)}, "--url", url)
	s := tm.question("Sign in to localhost:")
	for _, want := range []string{"/authorize?client_id=", "code_challenge_method=S2", "host: localhost:", "o open", "authorizing"} {
		if !strings.Contains(s, want) {
			t.Errorf("the sign-in pane lacks %q:\n%s", want, s)
		}
	}
	if _, err := os.Stat(log); err == nil {
		t.Fatal("the browser ran before the person pressed o")
	}
	tm.press("o")
	s = tm.waitFor("ready and authorized", func(s string) bool { return strings.Contains(s, "ready") && strings.Contains(s, "· authorized") })
	if !strings.Contains(s, "the browser came back to elicit") {
		t.Errorf("after the sign-in:\n%s", s)
	}
	tm.press("F5")
	tm.waitText("greet — Greeting Tool")
	files, _ := filepath.Glob(filepath.Join(dir, "state", "elicit", "auth", "*.json"))
	if len(files) != 1 {
		t.Errorf("token files %v", files)
	}
}

// newTmuxEnv is newTmux with extra environment for the binary.
func newTmuxEnv(t *testing.T, dir string, env []string, args ...string) *tmuxTerm {
	t.Helper()
	testenv.LookPath(t, "tmux")
	tm := &tmuxTerm{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	cmd := append([]string{"new-session", "-d", "-x", "120", "-y", "40", "-c", dir, "--",
		"env", "TERM=xterm-256color", "XDG_STATE_HOME=" + filepath.Join(dir, "state")}, env...)
	cmd = append(append(cmd, binPath), args...)
	tm.run(cmd...)
	tm.run("set-option", "-s", "escape-time", "10")
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", tm.socket, "kill-server").Run() })
	return tm
}
