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

// cellsOf finds every occurrence of text on the screen as (column, row).
func cellsOf(screen, text string) [][2]int {
	var out [][2]int
	for y, line := range strings.Split(screen, "\n") {
		for off := 0; ; {
			i := strings.Index(line[off:], text)
			if i < 0 {
				break
			}
			out = append(out, [2]int{ansi.StringWidth(line[:off+i]), y})
			off += i + len(text)
		}
	}
	return out
}

func click(x, y int) tea.MouseClickMsg {
	return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}
}

func TestDeclineButtonClick(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		// The server's message imitates the button.
		p := formPrompt(t, "demo", 1, "Decline ctrl+x", nameSchema)
		d.open(p)
		at := cellsOf(d.screen(), declineLabel)
		if len(at) != 2 {
			t.Fatalf("want the message and the button on screen, found %d:\n%s", len(at), d.screen())
		}
		msg, btn := at[0], at[1]
		d.send(click(msg[0]+2, msg[1]))
		d.noReply(p.Key) // the server's text is not a button
		d.send(click(btn[0]+len(declineLabel)+6, btn[1]))
		d.noReply(p.Key) // beside the button
		d.send(tea.MouseClickMsg{X: btn[0] + 2, Y: btn[1], Button: tea.MouseRight})
		d.noReply(p.Key)                // right button
		d.send(click(btn[0]-1, btn[1])) // its left padding is part of it
		if got := d.reply(p.Key); got.Kind != question.Decline || got.Content != nil {
			t.Fatalf("reply = %+v, want decline", got)
		}
		d.send(click(btn[0]+2, btn[1]))
		d.noReply(p.Key) // answered once
	})
}

// TestDeclineButtonClickNarrowAndURL: the button stays on screen and
// clickable in a small terminal, and on a URL prompt.
func TestDeclineButtonClickNarrowAndURL(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		d.send(tea.WindowSizeMsg{Width: 50, Height: 12})
		u := &question.Question{Key: reqKey("demo", 2), Server: "demo", Mode: question.ModeURL,
			Message: strings.Repeat("a long message that wraps ", 20), URL: "https://example.com/x", Arrived: time.Now()}
		d.open(u)
		at := cellsOf(d.screen(), declineLabel)
		if len(at) != 1 {
			t.Fatalf("button not on a 50×12 screen:\n%s", d.screen())
		}
		d.send(click(at[0][0]+3, at[0][1]))
		if got := d.reply(u.Key); got.Kind != question.Decline {
			t.Fatalf("reply = %v, want decline", got.Kind)
		}
	})
}
