//go:build unix

package acp_test

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
)

// TestFSNotARegularFile: notes.txt in the cwd is a FIFO nobody writes
// (the agent may make one itself). Opening it to read would wait for a
// writer for ever, the handler's goroutine with it, and the turn on the
// answer; a read, and the read of the old text before a write is asked,
// are refused at once instead (-32602, not a regular file), and nobody is
// asked to write to it.
func TestFSNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "notes.txt"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var rec fsRecorder
	c := start(t, "plain", nil, rec.on)
	res, err := turnIn(t, c, dir, "read")
	if err != nil || res.Message != "fs/read_text_file: error -32602" {
		t.Fatalf("read of a FIFO: %+v, %v", res, err)
	}
	res, err = turnIn(t, c, dir, "write")
	if err != nil || !strings.HasPrefix(res.Message, "fs/write_text_file: error -32602 (not a regular file)") {
		t.Fatalf("write to a FIFO: %+v, %v", res, err)
	}
	if e := onlyEntry(t, c); e.Kind != question.Invalid {
		t.Errorf("entry %+v, want the write refused unasked", e)
	}
}

// TestFSWriteTargetSwappedForAFIFO: while the person decides, notes.txt
// becomes a FIFO nobody reads (the agent runs in the cwd and can do
// that). Opening it to write would wait for a reader for ever, and the
// turn with it; the allowed write fails at once instead (-32603, said to
// the agent and journalled).
func TestFSWriteTargetSwappedForAFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	p := question.PrompterFunc(func(context.Context, *question.Question) question.Outcome {
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Errorf("mkfifo: %v", err)
		}
		return question.Outcome{Kind: question.Accept, Option: acp.WriteAllow}
	})
	var rec fsRecorder
	c := start(t, "plain", p, rec.on)
	res, err := turnIn(t, c, dir, "write")
	if err != nil || !strings.Contains(res.Message, "fs/write_text_file: error -32603") {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	if e := onlyEntry(t, c); e.Sent != "error -32603" || !strings.Contains(e.Reason, "write failed") {
		t.Errorf("entry %+v", e)
	}
}
