package acp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
)

// turnIn opens a session in dir and runs one prompt.
func turnIn(t *testing.T, c *acp.Client, dir, prompt string) (acp.TurnResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	sid, err := c.NewSession(ctx, dir)
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	return c.Prompt(ctx, sid, prompt)
}

// fsRecorder keeps what OnFile heard.
type fsRecorder struct {
	mu  sync.Mutex
	got []acp.FileAccess
}

func (r *fsRecorder) on(o *acp.Options) {
	o.AllowFS = true
	o.OnFile = func(fa acp.FileAccess) { r.mu.Lock(); r.got = append(r.got, fa); r.mu.Unlock() }
}

func (r *fsRecorder) all() []acp.FileAccess {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]acp.FileAccess(nil), r.got...)
}

func TestFSWriteAskedFirst(t *testing.T) {
	for _, tc := range []struct {
		name    string
		out     question.Outcome
		message string
		sent    string
		bucket  string
		written bool
	}{
		{"allowed", question.Outcome{Kind: question.Accept, Option: acp.WriteAllow}, "Wrote notes.txt; read back: hello from the demo agent", "written", question.OptionAllowOnce, true},
		{"declined", question.Outcome{Kind: question.Decline}, "fs/write_text_file: error -32603", "error -32603", question.OptionRejectOnce, false},
		{"esc", question.Outcome{Kind: question.Cancel}, "fs/write_text_file: error -32603", "error -32603", question.BucketCancelled, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var asked *question.Question
			p := question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
				asked = q
				return tc.out
			})
			var rec fsRecorder
			c := start(t, "plain", p, rec.on)
			res, err := turnIn(t, c, dir, "write")
			if err != nil || res.StopReason != acp.StopEndTurn || !strings.Contains(res.Message, tc.message) {
				t.Fatalf("turn: %+v, %v", res, err)
			}
			if asked == nil || asked.Key.Delivery != question.FileWrite || asked.Kind != question.KindPermission ||
				!strings.Contains(string(asked.Permission.ToolCall), `"type":"diff"`) || asked.Message != "Create notes.txt" {
				t.Fatalf("question %+v", asked)
			}
			e := onlyEntry(t, c)
			if e.Sent != tc.sent || e.Bucket != tc.bucket {
				t.Errorf("entry %+v", e)
			}
			b, rerr := os.ReadFile(filepath.Join(dir, "notes.txt"))
			if tc.written != (rerr == nil) || tc.written && string(b) != "hello from the demo agent\n" {
				t.Errorf("file: %q, %v; want written %v", b, rerr, tc.written)
			}
			got := rec.all()
			if len(got) == 0 || got[0].Op != "write" || !strings.Contains(got[0].Diff, "+hello from the demo agent") || got[0].Sent != tc.sent {
				t.Errorf("file accesses %+v", got)
			}
		})
	}
}

func TestFSWriteHeldThenStopped(t *testing.T) {
	dir := t.TempDir()
	opened := make(chan struct{}, 1)
	p := question.PrompterFunc(func(ctx context.Context, _ *question.Question) question.Outcome {
		opened <- struct{}{}
		<-ctx.Done()
		return question.Outcome{Kind: question.Accept, Option: acp.WriteAllow} // too late
	})
	var rec fsRecorder
	c := start(t, "plain", p, rec.on)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sid, err := c.NewSession(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		select {
		case <-opened:
			c.Stop(sid)
		case <-ctx.Done():
		}
	}()
	res, err := c.Prompt(ctx, sid, "write")
	if err != nil || res.StopReason != acp.StopCancelled {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	if e := onlyEntry(t, c); e.Sent != "error -32800" || e.Bucket != question.BucketCancelled || e.Kind != question.Abandoned {
		t.Errorf("entry %+v", e)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err == nil {
		t.Error("the file was written after the turn was stopped")
	}
}

func TestFSOnlyWithinCwd(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	var rec fsRecorder
	c := start(t, "plain", nil, rec.on)
	// A link inside the cwd that points out of it is refused.
	res, err := turnIn(t, c, dir, "read")
	if err != nil || res.Message != "fs/read_text_file: error -32602" {
		t.Fatalf("read through a link out of the cwd: %+v, %v", res, err)
	}
	// An absolute path outside the cwd is refused.
	res, err = turnIn(t, c, dir, "fs")
	if err != nil || res.Message != "fs/read_text_file: error -32602" {
		t.Fatalf("read of /etc/hostname: %+v, %v", res, err)
	}
	got := rec.all()
	if len(got) != 2 || !strings.Contains(got[0].Reason, "outside the session's working directory") {
		t.Errorf("file accesses %+v", got)
	}
	// A write through the link is refused without asking anyone.
	res, err = turnIn(t, c, dir, "write")
	if err != nil || !strings.Contains(res.Message, "error -32602") {
		t.Fatalf("write through the link: %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "secret" {
		t.Errorf("the file outside the cwd was changed: %q", b)
	}
	if e := onlyEntry(t, c); e.Kind != question.Invalid || e.Key.Delivery != question.FileWrite {
		t.Errorf("entry %+v", e)
	}
}

func TestFSRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("line one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var rec fsRecorder
	c := start(t, "plain", nil, rec.on)
	res, err := turnIn(t, c, dir, "read")
	if err != nil || res.Message != "read back: line one" {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	if got := rec.all(); len(got) != 1 || got[0].Sent != "content" {
		t.Errorf("file accesses %+v", got)
	}
}

func TestUnifiedDiff(t *testing.T) {
	got := acp.UnifiedDiff("a.txt", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nfive\n6\n7\n8\n", true)
	want := "--- a/a.txt\n+++ b/a.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
	if got != want {
		t.Errorf("diff\n%s\nwant\n%s", got, want)
	}
	if got := acp.UnifiedDiff("n", "", "x\n", false); got != "--- /dev/null\n+++ b/n\n@@ -0,0 +1,1 @@\n+x\n" {
		t.Errorf("new file diff\n%s", got)
	}
}
