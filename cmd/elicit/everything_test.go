package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/internal/testenv"
)

// everythingCommand returns the command that starts
// @modelcontextprotocol/server-everything over stdio, or skips.
// ELICIT_SERVER_EVERYTHING is the path to its dist/index.js (.ci/run
// installs it); ELICIT_NPX=1 uses "npx -y" instead.
func everythingCommand(t *testing.T) []string {
	t.Helper()
	if p := os.Getenv("ELICIT_SERVER_EVERYTHING"); p != "" {
		return []string{"node", p, "stdio"}
	}
	if os.Getenv("ELICIT_NPX") == "1" {
		return []string{"npx", "-y", "@modelcontextprotocol/server-everything", "stdio"}
	}
	testenv.Missing(t, "server-everything not available: set ELICIT_SERVER_EVERYTHING (path to dist/index.js) or ELICIT_NPX=1")
	return nil
}

// TestEverythingElicitation runs the acceptance command:
// elicit call trigger-elicitation-request --answer accept-defaults -- <server-everything>
func TestEverythingElicitation(t *testing.T) {
	cmdline := everythingCommand(t)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	args := append([]string{"call", "trigger-elicitation-request", "--answer", "accept-defaults", "--"}, cmdline...)
	cmd := exec.CommandContext(ctx, binPath, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("elicit call failed: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	var got headless.CallOutput
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if len(got.Prompts) != 1 || got.Prompts[0].Outcome != "accept" {
		t.Fatalf("want one accepted prompt, got %+v", got.Prompts)
	}
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(got.Result, &res); err != nil {
		t.Fatalf("result: %v", err)
	}
	var all strings.Builder
	for _, c := range res.Content {
		all.WriteString(c.Text)
	}
	text := all.String()
	// The server echoes the raw ElicitResult: every default must be in it.
	for _, want := range []string{`"action": "accept"`, `"firstLine": "It was a dark and stormy night."`,
		`"integer": 42`, `"number": 3.14`, `"untitledSingleSelectEnum": "Monica"`, `"titledSingleSelectEnum": "hero-1"`,
		`"legacyTitledEnum": "pet-1"`, `"Guitar"`, `"fish-1"`} {
		if !strings.Contains(text, want) {
			t.Errorf("result lacks %s:\n%s", want, text)
		}
	}
}

// TestEverythingHTTP runs the same call against server-everything's
// Streamable HTTP and legacy SSE servers; for /sse elicit must fall back to
// HTTP+SSE by itself (POST initialize is refused there).
func TestEverythingHTTP(t *testing.T) {
	script := testenv.Getenv(t, "ELICIT_SERVER_EVERYTHING", "path to server-everything's dist/index.js")
	for _, tc := range []struct{ mode, path, era, ready string }{
		{"streamableHttp", "/mcp", "stateful", "listening on port"},
		{"sse", "/sse", "legacy SSE", "Server is running on port"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			port := freePort(t)
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			srv := exec.CommandContext(ctx, "node", script, tc.mode)
			srv.Env = append(os.Environ(), "PORT="+port)
			// One pipe for both: the SSE server says it is ready on
			// stderr. Wait copies the last of it; then the reader ends.
			logs, w := io.Pipe()
			srv.Stdout, srv.Stderr = w, w
			if err := srv.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = srv.Process.Kill(); _ = srv.Wait(); _ = w.Close() }()
			waitLine(t, logs, tc.ready)

			cmd := exec.CommandContext(ctx, binPath, "call", "trigger-elicitation-request", "--answer", "accept-defaults",
				"--url", "http://localhost:"+port+tc.path)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("elicit call: %v\n%s\n%s", err, out, stderr.String())
			}
			var got headless.CallOutput
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("output: %v\n%s", err, out)
			}
			if !strings.Contains(got.Era, tc.era) {
				t.Errorf("era %q, want it to say %q", got.Era, tc.era)
			}
			if len(got.Prompts) != 1 || got.Prompts[0].Outcome != "accept" ||
				!strings.Contains(string(got.Result), `\"integer\": 42`) {
				t.Errorf("prompts %+v, result %s", got.Prompts, got.Result)
			}
		})
	}
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// waitLine reads r until a line holds ready (a server saying it listens),
// then keeps draining it in the background so the server never blocks on
// a full pipe; it fails when r ends first or 20 s pass.
func waitLine(t *testing.T, r io.Reader, ready string) {
	t.Helper()
	found := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(r)
		seen := false
		for sc.Scan() {
			if !seen && strings.Contains(sc.Text(), ready) {
				seen = true
				found <- true
			}
		}
		if !seen {
			found <- false
		}
	}()
	select {
	case ok := <-found:
		if !ok {
			t.Fatalf("the server ended before it said %q", ready)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the server did not say %q within 20 s", ready)
	}
}

// waitListening dials addr until it answers: elicit demo --serve http
// says where it serves before it listens, so there is no line to wait for.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("nothing listening on %s", addr)
}
