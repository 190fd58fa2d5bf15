package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// hugeItems is how many blocks the huge-result scene answers with:
// 1,000,000 × `{"type":"text","text":"x"}`, a 27 MB (25.7 MiB) frame, the
// shape that makes a decoder's per-block overhead a multiple of the frame.
const hugeItems = 1_000_000

// hugeFrame is the size of the scene's response frame for id.
func hugeFrame(id json.RawMessage) int {
	return len(`{"jsonrpc":"2.0","id":`) + len(id) + len(`,"result":{"content":[`) +
		hugeItems*len(`{"type":"text","text":"x"}`) + hugeItems - 1 + len("]}}\n")
}

// writeHugeResult writes the huge answer to stdout a block at a time, so
// the server stays small: the peak the test reads folds in the server's
// own (a process's ru_maxrss counts the children it waited for).
func writeHugeResult(id json.RawMessage) any {
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[`, id)
	for i := range hugeItems {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString(`{"type":"text","text":"x"}`)
	}
	w.WriteString("]}}\n")
	_ = w.Flush()
	return nil
}

// hugeBound is the peak RSS the test allows elicit, in frames: generous,
// it is there to catch the 46× class, not to measure (BENCHMARKS.md has
// the figures: about 16×, most of it writing the output indented, not
// decoding the result).
const hugeBound = 24

// TestHeadlessHugeResult: `elicit call` of a tool whose result is a
// million tiny blocks, from a real stdio subprocess, completes with every
// block in its output, and the process's peak RSS stays within hugeBound
// times the frame.
func TestHeadlessHugeResult(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the peak RSS from Linux's rusage")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(filepath.Join(t.TempDir(), "out.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.CommandContext(t.Context(), binPath, "call", "huge-result", "--protocol", "2025-11-25",
		"--", "env", testServerEnv+"=huge-result", self)
	var errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errs
	if err := cmd.Run(); err != nil {
		t.Fatalf("elicit call: %v\n%s", err, errs.Bytes())
	}
	got, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(got, []byte(`"text": "x"`)); n != hugeItems {
		t.Fatalf("the output holds %d blocks, want %d; stderr %s", n, hugeItems, errs.Bytes())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage")
	}
	peak := ru.Maxrss << 10 // kB on Linux
	frame := int64(hugeFrame(json.RawMessage("2")))
	t.Logf("peak RSS %d MiB for a %d MiB frame: %.1f× (bound %d×)", peak>>20, frame>>20, float64(peak)/float64(frame), hugeBound)
	if peak > hugeBound*frame {
		t.Errorf("elicit peaked at %d MiB, over %d× the %d MiB frame", peak>>20, hugeBound, frame>>20)
	}
}
