package ui

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client/question"
)

// TestPaneShowsAllOfALongQuestion: a URL question whose message is longer
// than its pane is tall at 80×16 shows its top with a "more ↓" line and
// its footer (Decline, the keys) as its last line; pgdn shows the rest
// down to its last word, pgup goes back, the wheel over it scrolls too,
// and no line of the message is cut at the frame's edge.
func TestPaneShowsAllOfALongQuestion(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		d.send(tea.WindowSizeMsg{Width: 80, Height: 16})
		var msg strings.Builder
		for i := range 12 {
			msg.WriteString("Sentence number " + itoa(i) + " of a message that is longer than the pane is wide and tall. ")
		}
		msg.WriteString("LAST-WORDS")
		d.open(&question.Question{Key: reqKey("demo", 7), Server: "demo", Mode: question.ModeURL,
			Message: msg.String(), URL: "https://good.com@evil.example/login", Arrived: time.Now()})
		d.keys(tea.KeyPressMsg{Code: tea.KeyF4})
		s := d.screen()
		if !strings.Contains(s, "more ↓") || strings.Contains(s, "more ↑") || strings.Contains(s, "LAST-WORDS") {
			t.Fatalf("the top of a long question: want \"more ↓\" alone, and not its end:\n%s", s)
		}
		footer := func(s string) {
			t.Helper()
			lines := strings.Split(s, "\n")
			for i := len(lines) - 1; i >= 0; i-- {
				if strings.Contains(lines[i], declineLabel) {
					if !strings.Contains(lines[i+1], "╰") && !strings.Contains(lines[i+1], "┗") {
						t.Errorf("the footer is not the pane's last line:\n%s", s)
					}
					return
				}
			}
			t.Errorf("no footer:\n%s", s)
		}
		footer(s)
		seen := false // the message's last words on some page
		for range 10 {
			seen = seen || strings.Contains(d.screen(), "LAST-WORDS")
			if !strings.Contains(d.screen(), "more ↓") {
				break
			}
			d.keys(tea.KeyPressMsg{Code: tea.KeyPgDown})
		}
		s = d.screen()
		if !seen || !strings.Contains(s, "the real host is") || !strings.Contains(s, "Accepting gives consent only") || strings.Contains(s, "more ↓") {
			t.Fatalf("pgdn never showed the end of the question:\n%s", s)
		}
		footer(s)
		for _, l := range strings.Split(s, "\n") {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("a line wider than the screen (%d): %q", w, l)
			}
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyPgUp})
		if !strings.Contains(d.screen(), "more ↓") {
			t.Fatalf("pgup did not go back:\n%s", d.screen())
		}
		top := d.m.prompts.focused().scroll
		d.send(tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelDown})
		if got := d.m.prompts.focused().scroll; got != top+wheelLines {
			t.Fatalf("the wheel over the pane scrolled it from %d to %d, want %d", top, got, top+wheelLines)
		}
	})
}

// TestWrapLinesKeepsEveryCell: a line wider than the pane wraps into
// lines that fit, with nothing lost.
func TestWrapLinesKeepsEveryCell(t *testing.T) {
	t.Parallel()
	in := "short\n" + strings.Repeat("word ", 30) + "\nhttps://a-very-long-host.example/with/a/path/that/has/no/spaces/at/all/in/it\n"
	out := wrapLines(in, 20)
	for _, l := range out {
		if w := ansi.StringWidth(l); w > 20 {
			t.Errorf("line of %d cells: %q", w, l)
		}
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if got, want := squeeze(strings.Join(out, "\n")), squeeze(in); got != want {
		t.Errorf("wrapped text differs:\n%q\n%q", got, want)
	}
}
