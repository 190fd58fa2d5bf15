package ui

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/question"
)

var keyAltW = tea.KeyPressMsg{Code: 'w', Mod: tea.ModAlt}

// TestSamplingSavesMedia: a sampling pane shows its image and audio as
// type/size lines naming alt+w, which writes each (a tool result's too)
// to a file of its own under ExportDir with the bytes as sent, never over
// an existing file; the pane says where. The server's name and a hostile
// MIME type do not reach the file name.
func TestSamplingSavesMedia(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		d := newDriver(t, Options{ExportDir: dir})
		png, wav := []byte("\x89PNG fake"), []byte("RIFF fake wave")
		b64 := base64.StdEncoding.EncodeToString
		params := `{"messages":[{"role":"user","content":[{"type":"text","text":"Describe these."},
		{"type":"image","data":"` + b64(png) + `","mimeType":"image/png"}]},
		{"role":"assistant","content":{"type":"tool_use","id":"u1","name":"rec","input":{}}},
		{"role":"user","content":{"type":"tool_result","toolUseId":"u1","content":[{"type":"audio","data":"` + b64(wav) + `","mimeType":"../../x;evil"}]}}],"maxTokens":9}`
		q := &question.Question{Key: reqKey("../demo", 7), Server: "../demo"}
		if perr := question.ParseSampling(q, json.RawMessage(params), question.SamplingModes{On: true, Tools: true}); perr != nil {
			t.Fatal(perr)
		}
		// An earlier save of the first file is kept.
		base := "elicit-sampling-" + fileSafe(q.Server) + "-" + fileSafe(q.Key.String())
		if !strings.HasPrefix(base, "elicit-sampling-_._demo-") {
			t.Fatalf("base %q", base)
		}
		first := filepath.Join(dir, base+"-1.png")
		if err := os.WriteFile(first, []byte("keep"), 0o600); err != nil {
			t.Fatal(err)
		}
		d.open(q)
		mustShow(t, d, "[image image/png, 9 B] alt+w saves it")
		d.keys(keyAltW)
		mustShow(t, d, "saved ")
		d.noReply(q.Key)

		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			got[e.Name()] = string(b)
		}
		want := map[string]string{base + "-1.png": "keep", base + "-1-2.png": string(png), base + "-2.bin": string(wav)}
		if len(got) != len(want) {
			t.Fatalf("files %v, want %v", keysOf(got), keysOf(want))
		}
		for name, body := range want {
			if got[name] != body {
				t.Errorf("%s = %q, want %q", name, got[name], body)
			}
		}
		for name := range got {
			if strings.ContainsAny(name, "/\\") || strings.HasPrefix(name, ".") {
				t.Errorf("file name %q", name)
			}
		}
	})
}

// TestSamplingSaveWithoutMedia: alt+w on a request of text alone says so
// and writes nothing.
func TestSamplingSaveWithoutMedia(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		d := newDriver(t, Options{ExportDir: dir})
		q := &question.Question{Key: reqKey("demo", 8), Server: "demo"}
		if perr := question.ParseSampling(q, json.RawMessage(`{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":9}`),
			question.SamplingModes{On: true}); perr != nil {
			t.Fatal(perr)
		}
		d.open(q)
		d.keys(keyAltW)
		mustShow(t, d, "this request has no image or audio to save")
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("wrote %d files", len(entries))
		}
	})
}

func keysOf(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
