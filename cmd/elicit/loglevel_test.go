package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
)

// serveEvilLog declares logging; it answers logging/setLevel and then
// logs evilText as level, logger and data, and a tools/call with a
// result, so the log comes while the call runs.
func serveEvilLog(in *bufio.Scanner, out *json.Encoder) {
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		var result any = map[string]any{}
		switch m.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": "2025-11-25", "serverInfo": map[string]any{"name": "evil-log", "version": "1"},
				"capabilities": map[string]any{"tools": map[string]any{}, "logging": map[string]any{}}}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{"name": "evil-log", "inputSchema": map[string]any{"type": "object"}}}}
		case "tools/call":
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "method": "notifications/message", "params": map[string]any{
				"level": "error" + evilText, "logger": evilText, "data": map[string]any{"said": evilText}}})
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "logged"}}}
		case "logging/setLevel", "ping":
		default:
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			continue
		}
		_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	}
}

// logLevelResult is what a test reads of a command's JSON.
type logLevelResult struct {
	LogLevel *headless.LogLevelOutput
	Failure  *exit.Failure
}

func decodeLogLevel(t *testing.T, out, errs []byte) logLevelResult {
	t.Helper()
	var got logLevelResult
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s\nstderr: %s", err, out, errs)
	}
	return got
}

// TestLogLevel: --log-level asks the server for its logs at that level
// (the demo, a real stdio subprocess, logs one info line in the slow
// tool: shown at info, filtered by the server at warning, in both eras)
// and prints them on stderr; the JSON says what became of it. A server
// that did not declare logging is not asked (the recording holds no
// logging/setLevel) and both the JSON and stderr say so; a level outside
// RFC 5424's eight is a usage error before anything starts; a hostile
// log reaches stderr inert.
func TestLogLevel(t *testing.T) {
	t.Parallel()
	const line = "[demo] log info (slow): slow: 0s of 0s"
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		for _, tc := range []struct {
			level string
			shown bool
		}{{"info", true}, {"warning", false}, {"", false}} {
			t.Run(era+"/"+tc.level, func(t *testing.T) {
				t.Parallel()
				args := []string{"call", "slow", "--args", `{"seconds":0}`, "--protocol", era, "--name", "demo"}
				if tc.level != "" {
					args = append(args, "--log-level", tc.level)
				}
				code, out, errs := runBinary(t, append(args, "--", binPath, "demo", "--serve", "stdio")...)
				got := decodeLogLevel(t, out, errs)
				if code != exit.OK {
					t.Fatalf("exit %d, stderr %q", code, errs)
				}
				if shown := strings.Contains(string(errs), line); shown != tc.shown {
					t.Errorf("log line shown %v, want %v; stderr %q", shown, tc.shown, errs)
				}
				switch {
				case tc.level == "" && got.LogLevel != nil:
					t.Errorf("logLevel %+v without --log-level", got.LogLevel)
				case tc.level != "" && (got.LogLevel == nil || *got.LogLevel != headless.LogLevelOutput{Level: tc.level}):
					t.Errorf("logLevel %+v, want {Level: %s}\n%s", got.LogLevel, tc.level, out)
				}
			})
		}
	}
	t.Run("undeclared", func(t *testing.T) {
		t.Parallel()
		rec := filepath.Join(t.TempDir(), "rec.jsonl")
		code, out, errs := runHostile(t, "empty-lists", "tools", "--log-level", "debug", "--record", rec)
		got := decodeLogLevel(t, out, errs)
		if code != exit.OK || got.LogLevel == nil || got.LogLevel.Skipped != "the server did not declare logging" || got.LogLevel.Error != "" {
			t.Errorf("exit %d, logLevel %+v, stderr %q", code, got.LogLevel, errs)
		}
		if !strings.Contains(string(errs), "did not declare logging") {
			t.Errorf("stderr does not say the level was not sent: %q", errs)
		}
		b, err := os.ReadFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"tools/list"`) || strings.Contains(string(b), "logging/setLevel") {
			t.Errorf("the recording should hold tools/list and no logging/setLevel:\n%s", b)
		}
	})
	t.Run("bad level", func(t *testing.T) {
		t.Parallel()
		code, out, errs := runBinary(t, "tools", "--log-level", "verbose", "--", "/nonexistent/elicit-server")
		got := decodeLogLevel(t, out, errs)
		if code != exit.Usage || got.Failure == nil || got.Failure.Kind != "usage" ||
			!strings.Contains(got.Failure.Message, "debug, info, notice, warning, error, critical, alert, emergency") {
			t.Errorf("exit %d, failure %+v, stderr %q", code, got.Failure, errs)
		}
	})
	t.Run("hostile log", func(t *testing.T) {
		t.Parallel()
		code, out, errs := runHostile(t, "evil-log", "call", "evil-log", "--log-level", "debug")
		if code != exit.OK || !strings.Contains(string(errs), "] log error") || !strings.Contains(string(errs), "pwned") {
			t.Errorf("exit %d, stderr %q", code, errs)
		}
		assertInertBytes(t, "stderr", errs)
		assertInertBytes(t, "stdout", out)
	})
}
