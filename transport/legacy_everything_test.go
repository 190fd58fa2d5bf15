package transport_test

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testenv"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// everythingEnv names the path of server-everything's dist/index.js; the
// tests against it are skipped without it (they need node).
const everythingEnv = "ELICIT_SERVER_EVERYTHING"

// startEverything runs `node index.js mode` on a free port and returns its
// base URL once it listens. The process is killed by t.Cleanup.
func startEverything(t *testing.T, mode, ready string) string {
	t.Helper()
	index := testenv.Getenv(t, everythingEnv, "path to server-everything's dist/index.js")
	node := testenv.LookPath(t, "node")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()

	cmd := exec.Command(node, index, mode)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout // the SSE server says it is ready on stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		for range lines { // drain until the pipe closes
		}
		_ = cmd.Wait()
	})
	deadline := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("server-everything exited before it was ready")
			}
			if strings.Contains(line, ready) {
				go func() {
					for range lines { // keep the pipe flowing
					}
				}()
				return "http://127.0.0.1:" + strconv.Itoa(port)
			}
		case <-deadline:
			t.Fatal("server-everything did not get ready in 30 s")
		}
	}
}

// readResponse reads until the response to id, answering nothing; it
// returns the server requests seen on the way.
func readResponse(t *testing.T, conn transport.Conn, id jsonrpc.ID) (*jsonrpc.Message, []*jsonrpc.Message) {
	t.Helper()
	var reqs []*jsonrpc.Message
	for {
		m := httpRead(t, conn)
		switch {
		case m.Kind() == jsonrpc.KindResponse && m.ID == id:
			return m, reqs
		case m.Kind() == jsonrpc.KindRequest:
			return nil, append(reqs, m)
		}
	}
}

// Legacy HTTP+SSE against the TypeScript SDK's server-everything:
// initialize, list tools, and call its elicitation tool, whose
// elicitation/create arrives on the event stream and is answered by POST.
func TestSSEServerEverything(t *testing.T) {
	base := startEverything(t, "sse", "Server is running on port")
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	log := newHTTPLog()
	conn, err := (&transport.SSE{URL: base + "/sse", Observer: log}).Dial(ctx)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer conn.Close()

	httpWrite(t, conn, httpReq(t, 1, "initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{"elicitation": map[string]any{}},
		"clientInfo":      map[string]any{"name": "elicit-test", "version": "0"},
	}))
	resp, _ := readResponse(t, conn, jsonrpc.IntID(1))
	var init struct {
		ProtocolVersion string
		ServerInfo      struct{ Name string }
	}
	httpResult(t, resp, &init)
	t.Logf("server %q, protocol %s", init.ServerInfo.Name, init.ProtocolVersion)
	conn.(transport.VersionSetter).SetProtocolVersion(init.ProtocolVersion)
	httpWrite(t, conn, httpNote(t, "notifications/initialized", nil))

	// The elicitation tool is registered once the client is initialized.
	var tools []string
	for i := int64(2); ; i++ {
		httpWrite(t, conn, httpReq(t, i, "tools/list", map[string]any{}))
		resp, _ := readResponse(t, conn, jsonrpc.IntID(i))
		var list struct{ Tools []struct{ Name string } }
		httpResult(t, resp, &list)
		tools = tools[:0]
		for _, tl := range list.Tools {
			tools = append(tools, tl.Name)
		}
		if strings.Contains(strings.Join(tools, " "), "trigger-elicitation-request") || i > 20 {
			break
		}
		time.Sleep(50 * time.Millisecond) // the interval of a poll of tools/list
	}
	if !strings.Contains(strings.Join(tools, " "), "echo") || !strings.Contains(strings.Join(tools, " "), "trigger-elicitation-request") {
		t.Fatalf("tools = %v, want echo and trigger-elicitation-request", tools)
	}

	call := jsonrpc.IntID(100)
	httpWrite(t, conn, httpReq(t, 100, "tools/call", map[string]any{"name": "trigger-elicitation-request", "arguments": map[string]any{}}))
	resp, reqs := readResponse(t, conn, call)
	if resp != nil || len(reqs) != 1 || reqs[0].Method != "elicitation/create" {
		t.Fatalf("got response %+v, requests %+v; want the elicitation/create request first", resp, reqs)
	}
	httpWrite(t, conn, httpResp(t, reqs[0].ID, map[string]any{"action": "decline"}))
	resp, reqs = readResponse(t, conn, call)
	if resp == nil || resp.Error != nil || len(reqs) != 0 {
		t.Fatalf("tool call: %+v (requests %+v), want its result", resp, reqs)
	}
	if !strings.Contains(string(resp.Result), "decline") {
		t.Errorf("result %s does not mention the decline", resp.Result)
	}
	for _, f := range httpErrFrames(log.Frames()) {
		t.Errorf("error frame: %v", f.Err)
	}
}

// The era probe against server-everything's Streamable HTTP server (a
// 2025-11-25 TypeScript SDK server): server/discover must come back as
// "not modern" (an error response with a non-modern code, or a
// StatusError), and initialize must then work on the same Conn.
func TestHTTPProbeServerEverything(t *testing.T) {
	base := startEverything(t, "streamableHttp", "listening on port")
	log := newHTTPLog()
	conn, err := (&transport.HTTP{URL: base + "/mcp", Observer: log}).Dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	err = conn.Write(t.Context(), httpReq(t, 1, "server/discover", modernParams(nil)), nil)
	var se *transport.StatusError
	switch {
	case errors.As(err, &se):
		t.Logf("probe: %v", se)
	case err != nil:
		t.Fatalf("probe Write: %v", err)
	default:
		resp := httpRead(t, conn)
		if resp.Error == nil {
			t.Fatalf("probe answered %s, want an error from a 2025 server", resp.Result)
		}
		switch resp.Error.Code {
		case jsonrpc.CodeHeaderMismatch, jsonrpc.CodeMissingRequiredClientCapability,
			jsonrpc.CodeUnsupportedProtocolVersion, jsonrpc.CodeMethodNotFound, jsonrpc.CodeInvalidParams:
			t.Fatalf("probe error %v looks modern", resp.Error)
		}
		t.Logf("probe: error response %v", resp.Error)
	}

	httpWrite(t, conn, httpReq(t, 2, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "elicit-test", "version": "0"},
	}))
	resp, _ := readResponse(t, conn, jsonrpc.IntID(2))
	var init struct{ ProtocolVersion string }
	httpResult(t, resp, &init)
	if init.ProtocolVersion != "2025-11-25" {
		t.Errorf("negotiated %q", init.ProtocolVersion)
	}
}
