package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// proxiedFrame is one frame of a proxy's --record: what the server saw
// (out: from the proxy, in: from the server).
type proxiedFrame struct {
	Dir     string `json:"dir"`
	Message struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	} `json:"message"`
}

// serverFrames reads the frames of a proxy's recording.
func serverFrames(t *testing.T, path string) []proxiedFrame {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []proxiedFrame
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var line struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Type != "frame" {
			continue
		}
		var f proxiedFrame
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("frame %s: %v", sc.Bytes(), err)
		}
		out = append(out, f)
	}
	return out
}

// sentInitialize is the initialize params the server got.
func sentInitialize(t *testing.T, frames []proxiedFrame) map[string]json.RawMessage {
	t.Helper()
	for _, f := range frames {
		if f.Dir == "out" && f.Message.Method == "initialize" {
			var p map[string]json.RawMessage
			if err := json.Unmarshal(f.Message.Params, &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatal("the server got no initialize")
	return nil
}

// hostLog keeps the frames a go-sdk host saw (mcp.LoggingTransport's
// lines: "read: …" and "write: …").
type hostLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *hostLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *hostLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// goHost connects a go-sdk client, as a host would, to elicit proxy
// running the demo server, and returns its session, what it saw and the
// recording's path.
func goHost(t *testing.T, era string, opts *mcp.ClientOptions, flags ...string) (*mcp.ClientSession, *hostLog, string) {
	t.Helper()
	rec := filepath.Join(t.TempDir(), "proxy.jsonl")
	args := append([]string{"proxy", "--record", rec}, flags...)
	args = append(args, "--", binPath, "demo", "--serve", "stdio")
	cmd := exec.Command(binPath, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	log := &hostLog{}
	c := mcp.NewClient(&mcp.Implementation{Name: "go-host", Version: "7.1"}, opts)
	cs, err := c.Connect(t.Context(), &mcp.LoggingTransport{Transport: &mcp.CommandTransport{Command: cmd}, Writer: log}, &mcp.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatalf("connect through the proxy: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil && t.Failed() {
			t.Logf("close: %v", err)
		}
		if t.Failed() {
			t.Logf("proxy stderr:\n%s", stderr.String())
		}
	})
	return cs, log, rec
}

func hostResultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// sentCaps is the capabilities the server was told: initialize's, or
// in 2026-07-28 the first tools/call's _meta.
func sentCaps(t *testing.T, frames []proxiedFrame, era string) map[string]json.RawMessage {
	t.Helper()
	var raw json.RawMessage
	if era == "2026-07-28" {
		for _, f := range frames {
			if f.Dir == "out" && f.Message.Method == "tools/call" {
				var p struct {
					Meta map[string]json.RawMessage `json:"_meta"`
				}
				_ = json.Unmarshal(f.Message.Params, &p)
				raw = p.Meta["io.modelcontextprotocol/clientCapabilities"]
				break
			}
		}
	} else {
		raw = sentInitialize(t, frames)["capabilities"]
	}
	var c map[string]json.RawMessage
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatalf("capabilities sent %s: %v", raw, err)
	}
	return c
}

// calls are the tools/call requests the server got: their ids and
// whether each carried inputResponses (a 2026-07-28 retry).
func calls(frames []proxiedFrame) (ids []string, retries []bool, params []string) {
	for _, f := range frames {
		if f.Dir == "out" && f.Message.Method == "tools/call" {
			ids = append(ids, string(f.Message.ID))
			retries = append(retries, strings.Contains(string(f.Message.Params), `"inputResponses"`))
			params = append(params, string(f.Message.Params))
		}
	}
	return ids, retries, params
}

// serverAsked are the ids of the server's elicitation/create requests
// (2025-11-25) and how often each was answered.
func serverAsked(frames []proxiedFrame) map[string]int {
	asked := map[string]int{}
	for _, f := range frames {
		if f.Dir == "in" && f.Message.Method == "elicitation/create" {
			asked[string(f.Message.ID)] = 0
		}
	}
	for _, f := range frames {
		if n, ok := asked[string(f.Message.ID)]; ok && f.Dir == "out" && f.Message.Method == "" {
			asked[string(f.Message.ID)] = n + 1
		}
	}
	return asked
}

var proxyEras = []string{"2025-11-25", "2026-07-28"}

// TestProxyGoHostWithoutElicitation: a go-sdk host that declares no
// elicitation calls a tool that asks; elicit declares form and url (and
// sampling) in its place, answers by --answer, and the host gets the
// result under its own id, never seeing the question. What the server got
// is the host's clientInfo, version and capabilities with only what was
// filled in added. In 2026-07-28 elicit completes the input_required
// round itself, retrying under an id of its own.
func TestProxyGoHostWithoutElicitation(t *testing.T) {
	t.Parallel()
	for _, era := range proxyEras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			cs, log, rec := goHost(t, era, nil)
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "create_ticket", Arguments: map[string]any{"title": "t"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := hostResultText(res); !strings.Contains(got, "priority P3") {
				t.Fatalf("result %q: want the schema's default P3, answered by elicit", got)
			}
			if err := cs.Close(); err != nil {
				t.Logf("close: %v", err)
			}
			hostSaw := log.String()
			if strings.Contains(hostSaw, `"method":"elicitation/create"`) || strings.Contains(hostSaw, `"input_required"`) {
				t.Errorf("the host saw the question elicit answered:\n%s", hostSaw)
			}
			frames := serverFrames(t, rec)
			c := sentCaps(t, frames, era)
			if string(c["elicitation"]) != `{"form":{},"url":{}}` || string(c["sampling"]) != `{}` {
				t.Errorf("capabilities sent %v: want elicitation form+url and sampling filled in", c)
			}
			if string(c["roots"]) != `{"listChanged":true}` {
				t.Errorf("roots %s: want the host's own, unchanged", c["roots"])
			}
			ids, retries, params := calls(frames)
			if len(ids) == 0 || !strings.Contains(hostSaw, `"id":`+ids[0]+`,"method":"tools/call"`) {
				t.Fatalf("tools/call went to the server as %v; the host's:\n%s", ids, hostSaw)
			}
			if !strings.Contains(params[0], `"io.modelcontextprotocol/clientInfo":{"name":"go-host","version":"7.1"}`) && era == "2026-07-28" {
				t.Errorf("the call's params %s: want the host's clientInfo", params[0])
			}
			if era == "2026-07-28" {
				if len(ids) != 2 || !retries[1] || !strings.HasPrefix(ids[1], `"elicit-proxy-`) || !strings.Contains(params[1], `"priority":"P3"`) {
					t.Errorf("calls %v (retries %v): want the host's, then elicit's retry with the answer under an id of its own\n%v", ids, retries, params)
				}
				return
			}
			init := sentInitialize(t, frames)
			if string(init["clientInfo"]) != `{"name":"go-host","version":"7.1"}` || string(init["protocolVersion"]) != `"2025-11-25"` {
				t.Errorf("clientInfo %s, protocolVersion %s: want the host's", init["clientInfo"], init["protocolVersion"])
			}
			for id, n := range serverAsked(frames) {
				if n != 1 {
					t.Errorf("elicitation %s answered %d times: want once, by elicit", id, n)
				}
			}
			if len(serverAsked(frames)) != 1 {
				t.Errorf("the server asked %d questions: want 1", len(serverAsked(frames)))
			}
		})
	}
}

// TestProxyGoHostWithElicitation: a go-sdk host that declares form
// elicitation answers the server's question itself (2025-11-25: the
// request under the server's id; 2026-07-28: the input_required result,
// which the host retries itself); elicit passes it both ways and never
// answers it, and fills in only url (and sampling).
func TestProxyGoHostWithElicitation(t *testing.T) {
	t.Parallel()
	for _, era := range proxyEras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			var asked atomic.Int32
			cs, log, rec := goHost(t, era, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked.Add(1)
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"priority": "P1"}}, nil
				}})
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "create_ticket", Arguments: map[string]any{"title": "t"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := hostResultText(res); !strings.Contains(got, "priority P1") || asked.Load() != 1 {
				t.Fatalf("result %q after %d questions to the host: want the host's P1, asked once", got, asked.Load())
			}
			if err := cs.Close(); err != nil {
				t.Logf("close: %v", err)
			}
			hostSaw := log.String()
			frames := serverFrames(t, rec)
			if c := sentCaps(t, frames, era); string(c["elicitation"]) != `{"form":{},"url":{}}` {
				t.Errorf("elicitation sent %s: want the host's form and url filled in", c["elicitation"])
			}
			ids, _, params := calls(frames)
			for i, id := range ids {
				if strings.HasPrefix(id, `"elicit-proxy-`) {
					t.Errorf("elicit sent a call of its own (%s): the host answers what it declared\n%s", id, params[i])
				}
				if !strings.Contains(hostSaw, `"id":`+id+`,"method":"tools/call"`) {
					t.Errorf("call %s is not the host's:\n%s", id, hostSaw)
				}
			}
			if era == "2026-07-28" {
				if len(ids) != 2 || !strings.Contains(params[1], `"priority":"P1"`) || !strings.Contains(hostSaw, `"input_required"`) {
					t.Errorf("calls %v: want the host's call and its own retry with its answer P1\n%v", ids, params)
				}
				return
			}
			qs := serverAsked(frames)
			if len(qs) != 1 {
				t.Fatalf("the server asked %d questions: want 1", len(qs))
			}
			for id, n := range qs {
				if n != 1 || !strings.Contains(hostSaw, `"id":`+id+`,"method":"elicitation/create"`) {
					t.Errorf("elicitation %s answered %d times, host saw it: %v; want once, by the host", id, n,
						strings.Contains(hostSaw, `"id":`+id))
				}
			}
		})
	}
}
