package forms

import (
	"reflect"
	"regexp"
	"testing"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"
)

// blinkMsgs runs cmd's tree and returns the cursor blinks it arms, run to
// their end (each waits the cursor's BlinkSpeed, 530 ms); the rest of the
// tree is run only to be unpacked.
func blinkMsgs(t *testing.T, cmd tea.Cmd) []cursor.BlinkMsg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(cmdTimeout + time.Second):
		return nil // a command that waits for something else
	}
	var out []cursor.BlinkMsg
	switch m := msg.(type) {
	case cursor.BlinkMsg:
		return []cursor.BlinkMsg{m}
	case tea.BatchMsg:
		for _, c := range m {
			out = append(out, blinkMsgs(t, c)...)
		}
		return out
	}
	if rv := reflect.ValueOf(msg); rv.Kind() == reflect.Slice && rv.Type().Elem() == reflect.TypeFor[tea.Cmd]() {
		for i := range rv.Len() {
			out = append(out, blinkMsgs(t, rv.Index(i).Interface().(tea.Cmd))...)
		}
	}
	return out
}

// reverse finds an SGR that starts with 7 (reverse video), as lipgloss
// writes the virtual cursor.
var reverse = regexp.MustCompile(`\x1b\[7[;m]`)

// TestHuhNeverShowsABlink holds the charm fact Form.Update relies on to drop
// cursor blinks: huh v2.0.3 draws the focused cursor solid at every render,
// so a blink the cursor accepts (and re-arms from) changes nothing on
// screen. If a new huh makes the blink visible, this fails, and forms must
// pass blinks on again (and ui give them a tick only while shown).
func TestHuhNeverShowsABlink(t *testing.T) {
	for _, tc := range []struct {
		name string
		form func(t *testing.T) *Form
	}{
		{"input", func(t *testing.T) *Form {
			return New(parse(t, `{"type":"object","properties":{"a":{"type":"string"}}}`), Options{})
		}},
		{"text", func(t *testing.T) *Form { // a tool's object argument is JSON in a text area
			return NewToolArgs(parseTool(t, `{"type":"object","properties":{"a":{"type":"object"}}}`), Options{})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.form(t)
			d := drive(t, f, 60)
			// Typing moves the cursor, which arms a blink (the driver drops it
			// unrun): take it from the keystroke's commands instead.
			blinks := blinkMsgs(t, f.Update(keyMsg("x")))
			if len(blinks) == 0 {
				t.Fatal("typing armed no cursor blink: the premise changed, read the test's doc")
			}
			blink := blinks[len(blinks)-1]
			before := f.View()
			if !reverse.MatchString(before) {
				t.Fatalf("no reverse-video cursor drawn in the focused field:\n%q", before)
			}
			for i := range 2 { // off, and on again
				_, rearm := f.Huh().Update(blink)
				if rearm == nil {
					t.Fatalf("blink %d: the cursor did not take it (no re-arm): the test proves nothing", i)
				}
				if after := f.View(); after != before {
					t.Fatalf("blink %d changed the view: huh now shows blinks\nbefore %q\nafter  %q", i, before, after)
				}
				blink = blinkMsgs(t, rearm)[0]
			}
			if cmd := f.Update(blink); cmd != nil {
				t.Error("Form.Update passed a blink on: it re-arms a timer that changes nothing on screen")
			}
			d.mustShow("x")
		})
	}
}
