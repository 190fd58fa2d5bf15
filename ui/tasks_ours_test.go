package ui

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

// TestTasksViewOurs: a task we run for the server is listed marked ours,
// with the request it came from and the call it belongs to, apart from a
// server's task that has the same id; p shows its question's pane, which
// is keyed by our task.
func TestTasksViewOurs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := taskDriver(t)
		p := formPrompt(t, "demo", 7, "Your name?", nameSchema)
		p.Key = question.Key{Server: "demo", Delivery: question.ReceiverTask, RequestID: p.Key.RequestID, TaskID: "T1"}
		d.open(p)
		d.emit(mkTask("T1", client.TaskWorking)) // the server's, same id
		d.emit(mkTask("T1", client.TaskWorking, func(tk *client.Task) {
			tk.Ours, tk.Method, tk.Tool = true, "elicitation/create", "trigger-elicitation-request-async"
			tk.OpenPrompts = []question.Key{p.Key}
		}))
		d.keys(keyF11)
		scr := d.screen()
		if !strings.Contains(scr, "Tasks: 2, 2 not over") || !strings.Contains(scr, "T1  ours elicitation/create for trigger-elicitation-request-async") {
			t.Fatalf("task view:\n%s", scr)
		}
		if !strings.Contains(scr, "T1  reflow_month") {
			t.Errorf("the server's task of the same id is gone:\n%s", scr)
		}
		d.keys(key1('p')) // the newest, ours, is selected
		if d.m.viewName() != "Questions" || !strings.Contains(d.screen(), "Your name?") || !strings.Contains(d.screen(), "(our task T1)") {
			t.Errorf("p did not show our task's question:\n%s", d.screen())
		}
	})
}
