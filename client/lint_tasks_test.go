package client_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

const coreTaskCaps = `{"tools":{},"tasks":{"requests":{"tools":{"call":{}}}}}`

// coreTask is a 2025-11-25 Task as a peer writes it.
func coreTask(id, status string) string {
	return fmt.Sprintf(`{"taskId":%q,"status":%q,"createdAt":"2026-08-01T10:00:00Z","lastUpdatedAt":"2026-08-01T10:00:0%dZ","ttl":60000,"pollInterval":20}`,
		id, status, time.Now().Nanosecond()%10)
}

// coreTaskAt is a 2025-11-25 Task last updated at second sec.
func coreTaskAt(id, status string, sec int) string {
	return fmt.Sprintf(`{"taskId":%q,"status":%q,"createdAt":"2026-08-01T10:00:00Z","lastUpdatedAt":"2026-08-01T10:00:%02dZ","ttl":60000,"pollInterval":20}`,
		id, status, sec)
}

func callAsTask(ctx context.Context, s *client.Session) chan error {
	done := make(chan error, 1)
	go func() {
		_, err := s.CallTool(ctx, "job", nil, &client.CallOptions{TaskSupport: "required"})
		done <- err
	}()
	return done
}

// TestLintTaskTransition: a 2025-11-25 task the server says completed,
// then working again (a status notification while tasks/result waits,
// stamped later than the completed one: what the server really did).
func TestLintTaskTransition(t *testing.T) {
	t.Parallel()
	s, rec := linted(t, &lintPeer{caps: coreTaskCaps, serve: func(p *lintPeer, m *jsonrpc.Message) {
		switch m.Method {
		case "tools/call":
			p.result(m.ID, `{"task":`+coreTaskAt("c1", "working", 1)+`}`)
			p.line(`{"jsonrpc":"2.0","method":"notifications/tasks/status","params":` + coreTaskAt("c1", "completed", 5) + `}`)
		case "tasks/get":
			p.result(m.ID, coreTaskAt("c1", "completed", 5))
		case "tasks/result":
			p.line(`{"jsonrpc":"2.0","method":"notifications/tasks/status","params":` + coreTaskAt("c1", "working", 7) + `}`)
			p.result(m.ID, `{"content":[{"type":"text","text":"done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"c1"}}}`)
		default:
			if m.ID.IsValid() && m.Method != "" {
				p.result(m.ID, `{}`)
			}
		}
	}}, nil)
	if err := <-callAsTask(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	got := expectFindings(t, s, rec, findings.TaskTransition)
	if got[0].Detail != "task c1 went from completed to working" {
		t.Errorf("detail %q", got[0].Detail)
	}
}

// TestLintTaskStaleNoTransition: a tasks/get answered "working" after a
// status notification said "completed", the answer stamped before it
// (server-everything's research task under load does this): a stale
// snapshot, not a completed task working again. No finding.
func TestLintTaskStaleNoTransition(t *testing.T) {
	t.Parallel()
	s, rec := linted(t, &lintPeer{caps: coreTaskCaps, serve: func(p *lintPeer, m *jsonrpc.Message) {
		switch m.Method {
		case "tools/call":
			p.result(m.ID, `{"task":`+coreTaskAt("c1", "working", 1)+`}`)
		case "tasks/get":
			p.line(`{"jsonrpc":"2.0","method":"notifications/tasks/status","params":` + coreTaskAt("c1", "completed", 5) + `}`)
			p.result(m.ID, coreTaskAt("c1", "working", 3))
		case "tasks/result":
			p.result(m.ID, `{"content":[{"type":"text","text":"done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"c1"}}}`)
		default:
			if m.ID.IsValid() && m.Method != "" {
				p.result(m.ID, `{}`)
			}
		}
	}}, nil)
	if err := <-callAsTask(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	expectFindings(t, s, rec)
}

// TestLintTaskStaleAfterCancel: a tasks/get sent before tasks/cancel and
// answered "working" only after the cancel's answer (and after the grace)
// says what the task was before the cancel, not that the server ignored
// it. No finding; the task then ends cancelled.
func TestLintTaskStaleAfterCancel(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var held jsonrpc.ID // the first tasks/get, answered after the cancel
	cancelled := false
	ext := func(status string) string { return `{"resultType":"complete",` + extTask("x1", status, "") + `}` }
	s, rec := linted(t, &lintPeer{modern: true, grace: time.Nanosecond,
		caps: `{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`,
		serve: func(p *lintPeer, m *jsonrpc.Message) {
			mu.Lock()
			defer mu.Unlock()
			switch m.Method {
			case "tools/call":
				p.result(m.ID, `{"resultType":"task",`+extTask("x1", "working", "")+`}`)
			case "tasks/get":
				switch {
				case !held.IsValid() && !cancelled:
					held = m.ID
				case cancelled:
					p.result(m.ID, ext("cancelled"))
				default:
					p.result(m.ID, ext("working"))
				}
			case "tasks/cancel":
				cancelled = true
				p.result(m.ID, `{"resultType":"complete"}`)
				p.result(held, ext("working"))
			default:
				if m.ID.IsValid() && m.Method != "" {
					p.result(m.ID, `{"resultType":"complete"}`)
				}
			}
		}}, nil)
	ctx, cancel := context.WithCancel(t.Context())
	done := callAsTask(ctx, s)
	waitFor(t, "the first poll", func() bool { mu.Lock(); defer mu.Unlock(); return held.IsValid() })
	cancel()
	<-done
	waitFor(t, "the task's end", func() bool { tk := s.Tasks(); return len(tk) == 1 && tk[0].Ended })
	if tk := s.Tasks()[0]; tk.Status != client.TaskCancelled {
		t.Errorf("task %+v, want it cancelled", tk)
	}
	expectFindings(t, s, rec)
}

// cancelPeer runs a task that keeps working after tasks/cancel, for a
// while, then ends cancelled. cancelAnswer is what tasks/cancel returns.
func cancelPeer(modern bool, caps string, created, working, cancelled, cancelAnswer string) *lintPeer {
	var mu sync.Mutex
	var cancelAt time.Time
	return &lintPeer{modern: modern, caps: caps, serve: func(p *lintPeer, m *jsonrpc.Message) {
		switch m.Method {
		case "tools/call":
			p.result(m.ID, created)
		case "tasks/cancel":
			mu.Lock()
			cancelAt = time.Now()
			mu.Unlock()
			p.result(m.ID, cancelAnswer)
		case "tasks/get":
			mu.Lock()
			late := !cancelAt.IsZero() && time.Since(cancelAt) > 300*time.Millisecond
			mu.Unlock()
			if late {
				p.result(m.ID, cancelled)
				return
			}
			p.result(m.ID, working)
		default:
			if m.ID.IsValid() && m.Method != "" {
				p.result(m.ID, `{"resultType":"complete"}`)
			}
		}
	}}
}

func TestLintTaskCancel(t *testing.T) {
	t.Parallel()
	ext := func(status string) string {
		return `{"resultType":"complete",` + extTask("x1", status, `"lastUpdatedAt":"2026-08-01T10:00:00Z"`) + `}`
	}
	for _, c := range []struct {
		name string
		peer *lintPeer
		rule string
	}{
		{"2025-11-25: not cancelled after tasks/cancel", cancelPeer(false, coreTaskCaps,
			`{"task":`+coreTask("c1", "working")+`}`, coreTask("c1", "working"), coreTask("c1", "cancelled"), coreTask("c1", "working")),
			findings.TaskCancelNotCancelled},
		{"tasks extension: still working after tasks/cancel", cancelPeer(true, `{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`,
			`{"resultType":"task",`+extTask("x1", "working", `"lastUpdatedAt":"2026-08-01T10:00:00Z"`)+`}`, ext("working"), ext("cancelled"), `{"resultType":"complete"}`),
			findings.TaskCancelIgnored},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, rec := linted(t, c.peer, nil)
			ctx, cancel := context.WithCancel(t.Context())
			done := callAsTask(ctx, s)
			waitFor(t, "the task", func() bool { return len(s.Tasks()) == 1 })
			cancel()
			<-done
			waitFor(t, "the task's end", func() bool { tk := s.Tasks(); return len(tk) == 1 && tk[0].Ended })
			expectFindings(t, s, rec, c.rule)
		})
	}
}
