package ui

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

// TestFileWritePaneEnds: a write question (fs/write_text_file, a
// permission of delivery FileWrite) ends in its own words. Esc on it
// refuses the write and the turn goes on (client/acp answers -32603 and
// sends no session/cancel), and a turn stopped while it was open is
// answered -32800 as a shutdown is: the bucket, not the error, tells them
// apart.
func TestFileWritePaneEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withAgent)
		cases := []struct {
			entry   question.JournalEntry
			sent    string
			want    string
			notWant string
		}{
			{question.JournalEntry{Kind: question.Cancel, Bucket: question.BucketCancelled}, "error -32603",
				"you refused the write; answered error -32603", "stopped the turn"},
			{question.JournalEntry{Kind: question.Abandoned, Bucket: question.BucketCancelled}, "error -32800",
				"the turn was stopped; answered error -32800", "shutting down"},
			{question.JournalEntry{Kind: question.Abandoned, Bucket: question.BucketShutdown}, "error -32800",
				"closed: elicit is shutting down; answered error -32800", "the turn was stopped"},
		}
		for i, c := range cases {
			p := permQuestion(int64(20 + i))
			p.Key.Delivery = question.FileWrite
			d.open(p)
			d.m.prompts.focusPane(&d.m.viewCtx, d.m.prompts.byKey[p.Key].id)
			c.entry.Key, c.entry.Asked = p.Key, question.KindPermission
			d.send(eventMsg{e: client.PromptResolved{Key: p.Key, Entry: c.entry, Sent: c.sent}})
			s := d.m.prompts.byKey[p.Key].notice // the screen holds the earlier cases' panes too
			if !strings.Contains(s, c.want) || strings.Contains(s, c.notWant) {
				t.Errorf("%v (%s): pane says %q, want %q, not %q:\n%s", c.entry.Kind, c.entry.Bucket, s, c.want, c.notWant, d.screen())
			}
		}
	})
}

// TestPaneKindsRegistered: every question kind the engine has opens a
// pane and answers from a form (kinds.go).
func TestPaneKindsRegistered(t *testing.T) {
	t.Parallel()
	if len(paneKinds) != len(question.Kinds()) {
		t.Errorf("paneKinds has %d kinds, question %d", len(paneKinds), len(question.Kinds()))
	}
	for _, k := range question.Kinds() {
		if int(k) >= len(paneKinds) || paneKinds[k].open == nil || paneKinds[k].accept == nil {
			t.Errorf("kind %s has no pane", k)
		}
	}
}
