package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// samplePNG is the image the sample-image scene sends: its bytes must
// reach the file as they are.
var samplePNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR fake image bytes")

// sample-image: tool "sample-image" asks for sampling with a text and an
// image, and answers the call with what the client replied.
func init() {
	testServers["sample-image"] = func(in *bufio.Scanner, out *json.Encoder) {
		serveScripted(in, out, func(json.RawMessage) any {
			return map[string]any{"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage", "params": map[string]any{
				"messages": []any{map[string]any{"role": "user", "content": []any{
					map[string]any{"type": "text", "text": "What is in this picture?"},
					map[string]any{"type": "image", "mimeType": "image/png", "data": base64.StdEncoding.EncodeToString(samplePNG)},
				}}},
				"maxTokens": 50,
			}}
		})
	}
}

// TestTUISamplingSavesImage: a sampling request's image is a type/size
// line naming alt+w; alt+w writes it to a file in elicit's directory,
// byte for byte, and the pane says where; the reply typed then still goes
// out.
func TestTUISamplingSavesImage(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tm := newTmux(t, dir, "--protocol", "2025-11-25", "--name", "pics", "--", "env", testServerEnv+"=sample-image", self)
	tm.waitText("pics ready")
	tm.press("F5")
	tm.waitText("› sample-image") // the one tool, no description
	tm.press("Enter")
	tm.question("What is in this picture?")
	tm.waitText(fmt.Sprintf("[image image/png, %d B] alt+w saves it", len(samplePNG)))
	tm.press("M-w")
	s := tm.waitText("saved " + dir)
	matches, _ := filepath.Glob(filepath.Join(dir, "elicit-sampling-pics-*.png"))
	if len(matches) != 1 {
		t.Fatalf("files %v; screen:\n%s", matches, s)
	}
	if b, err := os.ReadFile(matches[0]); err != nil || string(b) != string(samplePNG) {
		t.Errorf("saved %q (%v), want the image's bytes", b, err)
	}
	tm.typeText("A fake image.")
	tm.press("Enter", "Enter", "Enter")
	tm.waitText("accept (sent result)")
	tm.press("F5")
	s = tm.waitText(`"text":"A fake image."`)
	if !strings.Contains(s, `"role":"assistant"`) {
		t.Errorf("the server got:\n%s", s)
	}
	tm.press("C-c")
}
