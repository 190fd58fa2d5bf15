package ui

import (
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/question"
)

// TestJournalShowsSamplingBuckets: sampling questions are counted on a
// line of their own under their server's elicitation counts, and their
// entries are marked; a server that only sampled gets its own line.
func TestJournalShowsSamplingBuckets(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, func(e *fakeEngine) {
			e.journal.Record(question.JournalEntry{Key: reqKey("demo", 1), Server: "demo", Kind: question.Accept, At: t0})
			e.journal.Record(question.JournalEntry{Key: reqKey("demo", 2), Server: "demo", Kind: question.Decline, At: t0,
				Asked: question.KindSampling})
			e.journal.Record(question.JournalEntry{Key: reqKey("demo", 3), Server: "demo", Kind: question.Decline, At: t0,
				Asked: question.KindSampling})
			e.journal.Record(question.JournalEntry{Key: reqKey("llm", 4), Server: "llm", Kind: question.Accept, At: t0,
				Asked: question.KindSampling})
		})
		d.keys(tea.KeyPressMsg{Code: tea.KeyF7})
		s := d.screen()
		lines := strings.Split(s, "\n")
		find := func(prefix string) string {
			for _, l := range lines {
				if strings.HasPrefix(strings.TrimRight(l, " "), prefix) {
					return l
				}
			}
			t.Fatalf("no line starts with %q:\n%s", prefix, s)
			return ""
		}
		if l := find("demo "); !strings.Contains(l, "accept 1") || !strings.Contains(l, "decline 0") {
			t.Errorf("demo's elicitation line: %q", l)
		}
		if l := find("  sampling"); !strings.Contains(l, "accept 0") || !strings.Contains(l, "decline 2") {
			t.Errorf("demo's sampling line: %q", l)
		}
		if l := find("llm sampling"); !strings.Contains(l, "accept 1") {
			t.Errorf("llm's sampling line: %q", l)
		}
		if n := strings.Count(s, "sampling demo#"); n != 2 {
			t.Errorf("%d sampling entries of demo marked, want 2:\n%s", n, s)
		}
	})
}
