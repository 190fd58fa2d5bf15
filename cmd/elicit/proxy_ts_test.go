package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testenv"
)

// tsHostScript is a host on the TypeScript SDK's Client: it starts elicit
// proxy as its server over stdio (StdioClientTransport), declares form
// elicitation and answers P2 when told "declare", declares nothing when
// told "plain", calls create_ticket and prints what it got. Given a URL
// for bin, it speaks Streamable HTTP to it (elicit proxy --listen).
const tsHostScript = `
const sdk = process.env.ELICIT_TS_SDK;
const { Client } = await import(sdk + "/dist/esm/client/index.js");
const { StdioClientTransport } = await import(sdk + "/dist/esm/client/stdio.js");
const { ElicitRequestSchema } = await import(sdk + "/dist/esm/types.js");
const [bin, mode, rec] = process.argv.slice(2);
const capabilities = mode === "declare" ? { elicitation: { form: {} } } : {};
const client = new Client({ name: "ts-host", version: "3.2" }, { capabilities });
let asked = 0;
if (mode === "declare") {
  client.setRequestHandler(ElicitRequestSchema, async () => {
    asked++;
    return { action: "accept", content: { priority: "P2" } };
  });
}
let transport;
if (bin.startsWith("http://")) {
  const { StreamableHTTPClientTransport } = await import(sdk + "/dist/esm/client/streamableHttp.js");
  transport = new StreamableHTTPClientTransport(new URL(bin));
} else {
  transport = new StdioClientTransport({
    command: bin, args: ["proxy", "--record", rec, "--", bin, "demo", "--serve", "stdio"], stderr: "inherit",
  });
}
await client.connect(transport);
const res = await client.callTool({ name: "create_ticket", arguments: { title: "t" } });
console.log(JSON.stringify({ asked, text: res.content.map((c) => c.text).join("\n"), server: client.getServerVersion().name }));
await client.close();
`

// TestProxyTSHost: the TypeScript SDK's client as the host, one
// declaring form elicitation (it answers, elicit does not) and one
// declaring nothing (elicit declares and answers in its place).
func TestProxyTSHost(t *testing.T) {
	t.Parallel()
	testenv.Getenv(t, "ELICIT_TS_SDK", "the @modelcontextprotocol/sdk folder")
	node := testenv.LookPath(t, "node")
	script := filepath.Join(t.TempDir(), "host.mjs")
	if err := os.WriteFile(script, []byte(tsHostScript), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode, priority, elicitation string
		asked                       int
	}{
		{"declare", "P2", `{"form":{},"url":{}}`, 1},
		{"plain", "P3", `{"form":{},"url":{}}`, 0},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			rec := filepath.Join(t.TempDir(), "proxy.jsonl")
			cmd := exec.CommandContext(t.Context(), node, script, binPath, tc.mode, rec)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("host: %v\n%s\n%s", err, stdout.String(), stderr.String())
			}
			var got struct {
				Asked        int
				Text, Server string
			}
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatalf("host printed %q: %v; stderr %s", stdout.String(), err, stderr.String())
			}
			if got.Asked != tc.asked || !strings.Contains(got.Text, "priority "+tc.priority) || got.Server != "elicit-demo" {
				t.Errorf("host got %+v: want asked %d, priority %s from elicit-demo", got, tc.asked, tc.priority)
			}
			frames := serverFrames(t, rec)
			init := sentInitialize(t, frames)
			if string(init["clientInfo"]) != `{"name":"ts-host","version":"3.2"}` {
				t.Errorf("clientInfo %s: want the host's", init["clientInfo"])
			}
			c := sentCaps(t, frames, "2025-11-25")
			if string(c["elicitation"]) != tc.elicitation || string(c["sampling"]) != `{}` {
				t.Errorf("capabilities sent %s: want elicitation %s and sampling filled in", init["capabilities"], tc.elicitation)
			}
			for id, n := range serverAsked(frames) {
				if n != 1 {
					t.Errorf("elicitation %s answered %d times: want once", id, n)
				}
			}
		})
	}
}

// inspectorCLI is the MCP Inspector's launcher (ELICIT_INSPECTOR, else
// beside Node 22 in the peers folder .ci/run installs them in) and the
// Node 22 bin folder it runs on.
func inspectorCLI(t *testing.T) (bin, node22 string) {
	t.Helper()
	node22 = testenv.Getenv(t, "ELICIT_NODE22", "Node 22's bin folder")
	bin = os.Getenv("ELICIT_INSPECTOR")
	if bin == "" {
		bin = filepath.Join(node22, "..", "..", ".bin", "mcp-inspector")
	}
	if _, err := os.Stat(bin); err != nil {
		testenv.Missing(t, "the MCP Inspector (ELICIT_INSPECTOR; .ci/run installs it): %v", err)
	}
	return bin, node22
}

// TestProxyInspectorHost: the MCP Inspector's CLI (Node 22) as the host:
// it declares no elicitation, so elicit declares it in its place and
// answers the demo's question; the Inspector prints the tool's result.
func TestProxyInspectorHost(t *testing.T) {
	t.Parallel()
	bin, node22 := inspectorCLI(t)
	rec := filepath.Join(t.TempDir(), "proxy.jsonl")
	cmd := exec.CommandContext(t.Context(), bin, "--cli", "--method", "tools/call", "--tool-name", "create_ticket", "--tool-arg", "title=t",
		"--", binPath, "proxy", "--record", rec, "--", binPath, "demo", "--serve", "stdio")
	// Its own state goes under HOME (~/.mcp-inspector): a folder of the test's.
	cmd.Env = append(os.Environ(), "PATH="+node22+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("inspector: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "priority P3") {
		t.Errorf("inspector printed %s: want the ticket with elicit's default answer", stdout.String())
	}
	frames := serverFrames(t, rec)
	init := sentInitialize(t, frames)
	var info struct{ Name string }
	_ = json.Unmarshal(init["clientInfo"], &info)
	if info.Name != "inspector-cli" {
		t.Errorf("clientInfo %s: want the Inspector's", init["clientInfo"])
	}
	if c := sentCaps(t, frames, "2025-11-25"); string(c["elicitation"]) != `{"form":{},"url":{}}` {
		t.Errorf("elicitation sent %s: want it filled in for the Inspector", c["elicitation"])
	}
	qs := serverAsked(frames)
	for id, n := range qs {
		if n != 1 {
			t.Errorf("elicitation %s answered %d times: want once, by elicit", id, n)
		}
	}
	if len(qs) != 1 {
		t.Errorf("%d questions: want 1", len(qs))
	}
}

// TestProxyTSHostHTTP: the TypeScript SDK's client as a host over
// Streamable HTTP to elicit proxy --listen in front of the demo's HTTP
// server, declaring form elicitation and not.
func TestProxyTSHostHTTP(t *testing.T) {
	t.Parallel()
	testenv.Getenv(t, "ELICIT_TS_SDK", "the @modelcontextprotocol/sdk folder")
	node := testenv.LookPath(t, "node")
	script := filepath.Join(t.TempDir(), "host.mjs")
	if err := os.WriteFile(script, []byte(tsHostScript), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode, priority string
		asked          int
	}{{"declare", "P2", 1}, {"plain", "P3", 0}} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			endpoint, rec, stop := httpProxy(t, "2025-11-25")
			cmd := exec.CommandContext(t.Context(), node, script, endpoint, tc.mode, "")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("host: %v\n%s\n%s", err, stdout.String(), stderr.String())
			}
			stop()
			var got struct {
				Asked        int
				Text, Server string
			}
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatalf("host printed %q: %v; stderr %s", stdout.String(), err, stderr.String())
			}
			if got.Asked != tc.asked || !strings.Contains(got.Text, "priority "+tc.priority) {
				t.Errorf("host got %+v: want asked %d, priority %s", got, tc.asked, tc.priority)
			}
			frames := serverFrames(t, rec)
			if c := sentCaps(t, frames, "2025-11-25"); string(c["elicitation"]) != `{"form":{},"url":{}}` {
				t.Errorf("elicitation sent %s", c["elicitation"])
			}
			for id, n := range serverAsked(frames) {
				if n != 1 {
					t.Errorf("elicitation %s answered %d times: want once", id, n)
				}
			}
		})
	}
}
