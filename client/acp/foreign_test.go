package acp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
)

// TestForeignSessionRefused: requests in the name of a session this
// connection never opened (a permission, a question, an fs read and an
// fs write) are refused -32602 without being asked, under a Prompter
// that allows everything and AllowFS; the three questions are
// journalled invalid; no file is read or written; the session's update
// reaches no one.
func TestForeignSessionRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("SECRET-NOTES\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int32
	allow := question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
		asked.Add(1)
		if q.Permission != nil {
			return question.Outcome{Kind: question.Accept, Option: q.Permission.Options[0].ID}
		}
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"strategy": "bold"}}
	})
	var rec fsRecorder
	var mu sync.Mutex
	var updates []acp.Update
	c := start(t, "plain", allow, func(o *acp.Options) {
		rec.on(o)
		o.OnUpdate = func(u acp.Update) { mu.Lock(); updates = append(updates, u); mu.Unlock() }
	})
	res, err := turnIn(t, c, dir, "foreign")
	want := "permission: error -32602; question: error -32602; read: error -32602; write: error -32602."
	if err != nil || res.StopReason != acp.StopEndTurn || res.Message != want {
		t.Fatalf("turn: %+v, %v; want the agent to say %q", res, err, want)
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the Prompter was asked %d questions of a foreign session", n)
	}
	es := c.Journal().Entries()
	if len(es) != 3 {
		t.Fatalf("journal %+v, want the permission, the question and the write", es)
	}
	for _, e := range es {
		if e.Kind != question.Invalid || e.Sent != "error -32602" || !strings.Contains(e.Reason, "no session of ours") || e.Option != nil {
			t.Errorf("entry %+v: want refused -32602, no option", e)
		}
	}
	for _, fa := range rec.all() {
		if fa.Sent != "error -32602" {
			t.Errorf("file access %+v, want refused", fa)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "foreign.txt")); !os.IsNotExist(err) {
		t.Errorf("foreign.txt was written (stat: %v)", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, u := range updates {
		if u.SessionID != updates[0].SessionID || strings.Contains(string(u.Raw), "FOREIGN-UPDATE") {
			t.Errorf("OnUpdate heard %s of session %s", u.Raw, u.SessionID)
		}
	}
}

// TestUpdateRightAfterSessionNew: an update the agent sends right after
// its session/new result (as real agents send their commands) belongs
// to the new session: it is read before NewSession returns, and must not
// be taken for a foreign session's.
func TestUpdateRightAfterSessionNew(t *testing.T) {
	heard := make(chan acp.Update, 1)
	c := start(t, "cmdsnew", nil, func(o *acp.Options) {
		o.OnUpdate = func(u acp.Update) {
			select {
			case heard <- u:
			default:
			}
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sid, err := c.NewSession(ctx, ".")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case u := <-heard:
		if u.SessionID != sid || u.Kind != acp.UpdateCommands {
			t.Errorf("heard %+v, want the commands of %s", u, sid)
		}
	case <-ctx.Done():
		t.Fatal("the update sent right after session/new was dropped")
	}
}
