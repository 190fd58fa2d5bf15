package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const proxyInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw-host","version":"1"}}}` + "\n"

// TestProxyHostHangsUpStopsServer: the host closing its end of elicit
// proxy stops the server (its process is gone once the proxy has
// exited: no orphan), and the proxy exits 0.
func TestProxyHostHangsUpStopsServer(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.CommandContext(t.Context(), binPath, "proxy", "--",
		"sh", "-c", `echo $$ > "$1"; exec "$0" demo --serve stdio`, binPath, pidFile)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(stdin, proxyInit); err != nil {
		t.Fatal(err)
	}
	// The answer to initialize: the server runs, and wrote its pid first.
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.Contains(line, `"id":1,"result"`) {
		t.Fatalf("initialize answered %q, %v; stderr %s", line, err, stderr.String())
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("server %d not running while the host is there: %v", pid, err)
	}
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("proxy after the host hung up: %v; stderr %s", err, stderr.String())
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("server %d still there after the proxy exited (kill 0: %v)", pid, err)
	}
}

// TestProxyServerDiesEndsHost: the server exiting ends the host's
// connection as if the server itself had gone (stdout closed, exit 3),
// and what it said on stderr reaches elicit's stderr escaped.
func TestProxyServerDiesEndsHost(t *testing.T) {
	t.Parallel()
	cmd := exec.CommandContext(t.Context(), binPath, "proxy", "--",
		"sh", "-c", `read line; printf '\033]0;owned\007dying\n' >&2; exit 7`)
	stdin, err := cmd.StdinPipe() // the host never hangs up: Wait closes it
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(stdin, proxyInit); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exit.Connect {
		t.Fatalf("proxy exit %v: want %d; stderr %s", err, exit.Connect, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q: the server said nothing", stdout.String())
	}
	if bytes.ContainsRune(stderr.Bytes(), 0x1b) || bytes.ContainsRune(stderr.Bytes(), 0x07) {
		t.Errorf("server text reached stderr unescaped: %q", stderr.String())
	}
	if !strings.Contains(stderr.String(), "dying") || !strings.Contains(stderr.String(), "went away") {
		t.Errorf("stderr %q: want the server's line and why the proxy ended", stderr.String())
	}
}

// TestProxyPassesProgressLogsAndCancel: the server's progress and log
// notifications reach the host as they are, and the host's cancellation
// reaches the server under the host's own id, in both eras.
func TestProxyPassesProgressLogsAndCancel(t *testing.T) {
	t.Parallel()
	const modern = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
		`"io.modelcontextprotocol/logLevel":"info","progressToken":"tok-1"}`
	opening := map[string][]string{
		"2025-11-25": {proxyInit, `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n",
			`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}` + "\n",
			`{"jsonrpc":"2.0","id":"c-1","method":"tools/call","params":{"_meta":{"progressToken":"tok-1"},"name":"slow","arguments":{"seconds":60}}}` + "\n"},
		"2026-07-28": {`{"jsonrpc":"2.0","id":"c-1","method":"tools/call","params":{` + modern + `,"name":"slow","arguments":{"seconds":60}}}` + "\n"},
	}
	for _, era := range proxyEras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			rec := filepath.Join(t.TempDir(), "proxy.jsonl")
			cmd := exec.CommandContext(t.Context(), binPath, "proxy", "--record", rec, "--", binPath, "demo", "--serve", "stdio")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for _, line := range opening[era] {
				if _, err := io.WriteString(stdin, line); err != nil {
					t.Fatal(err)
				}
			}
			sc := bufio.NewScanner(stdout)
			sc.Buffer(nil, 1<<20)
			var progress, logged bool
			for !(progress && logged) && sc.Scan() {
				line := sc.Text()
				progress = progress || strings.Contains(line, `"method":"notifications/progress"`) && strings.Contains(line, `"progressToken":"tok-1"`)
				logged = logged || strings.Contains(line, `"method":"notifications/message"`)
			}
			if !progress || !logged {
				t.Fatalf("the host got progress %v, a log message %v; stderr %s", progress, logged, stderr.String())
			}
			cancel := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c-1","reason":"host gave up"}}` + "\n"
			if _, err := io.WriteString(stdin, cancel); err != nil {
				t.Fatal(err)
			}
			_ = stdin.Close()
			for sc.Scan() { // what the server still says passes as it is (go-sdk may answer the cancelled call)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("proxy: %v; stderr %s", err, stderr.String())
			}
			var cancelled []string
			for _, f := range serverFrames(t, rec) {
				if f.Dir == "out" && f.Message.Method == "notifications/cancelled" {
					cancelled = append(cancelled, string(f.Message.Params))
				}
			}
			if len(cancelled) != 1 || cancelled[0] != `{"requestId":"c-1","reason":"host gave up"}` {
				t.Errorf("cancellations the server got %v: want the host's, as it sent it", cancelled)
			}
		})
	}
}

// TestProxySamplingFilledIn: a go-sdk host without sampling calls the
// demo's summarize; elicit declares sampling and answers it by --sample
// echo, in both eras (2026-07-28: a round elicit completes).
func TestProxySamplingFilledIn(t *testing.T) {
	t.Parallel()
	for _, era := range proxyEras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			cs, log, rec := goHost(t, era, nil, "--sample", "echo")
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "summarize", Arguments: map[string]any{"text": "tea is hot"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := hostResultText(res); res.IsError || !strings.Contains(got, "tea is hot") {
				t.Fatalf("result %q (isError %v): want the echoed summary", got, res.IsError)
			}
			if err := cs.Close(); err != nil {
				t.Logf("close: %v", err)
			}
			if strings.Contains(log.String(), `"sampling/createMessage"`) {
				t.Errorf("the host saw the sampling request elicit answered:\n%s", log.String())
			}
			if c := sentCaps(t, serverFrames(t, rec), era); string(c["sampling"]) != `{}` {
				t.Errorf("sampling sent %s: want it filled in", c["sampling"])
			}
		})
	}
}
