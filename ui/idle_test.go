package ui

import (
	"encoding/json"
	"regexp"
	"testing"
	"testing/synctest"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/wire"
)

func isBlinkMsg(msg tea.Msg) bool {
	r, ok := msg.(routedMsg)
	if !ok {
		return false
	}
	_, blink := r.msg.(cursor.BlinkMsg)
	return blink
}

// lateBlinks feeds every blink the driver holds and says how many there
// were.
func (d *driver) lateBlinks() int {
	d.lateMu.Lock()
	var blinks []tea.Msg
	keep := d.late[:0]
	for _, msg := range d.late {
		if isBlinkMsg(msg) {
			blinks = append(blinks, msg)
		} else {
			keep = append(keep, msg)
		}
	}
	d.late = keep
	d.lateMu.Unlock()
	for _, msg := range blinks {
		d.send(msg)
	}
	return len(blinks)
}

// TestIdleBlinkEndsAndTheScreenStillMoves: the focused form's cursor
// blink comes back once (armed when the field took focus) and ends: it is
// not re-armed, so an idle questions view runs no 530 ms timer. What
// moves still moves without it: a keystroke shows, the cursor is still
// drawn, and a stream that arrives is on screen when its view is shown.
//
// It runs in a synctest bubble: the waits of two blink periods below pass
// on the bubble's clock, once every goroutine is blocked, so a blink that
// comes back is there when they end, however loaded the machine.
func TestIdleBlinkEndsAndTheScreenStillMoves(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testIdleBlinkEnds)
}

func testIdleBlinkEnds(t *testing.T) {
	d := newDriver(t, Options{})
	d.open(formPrompt(t, "demo", 1, "Who are you?", nameSchema))
	d.keys(tea.KeyPressMsg{Code: tea.KeyF4})
	d.awaitLate(isBlinkMsg) // the blink focusing armed, fed back
	// Any other blink armed at the start lands within a blink period;
	// feed those too, then wait two periods more: a blink now would be a
	// re-armed one.
	time.Sleep(700 * time.Millisecond) // the bubble's clock: one blink period passes
	d.lateBlinks()
	time.Sleep(1200 * time.Millisecond) // the bubble's clock: a window in which no blink may come
	if n := d.lateBlinks(); n > 0 {
		t.Fatalf("%d cursor blinks re-armed after the first came back: the idle view keeps a timer running", n)
	}
	if !reverseVideo(d.m.View().Content) {
		t.Fatal("the blink left the cursor off")
	}
	d.typeText("Ada")
	mustShow(t, d, "Ada")

	d.keys(keyF8)
	d.m.bridge.Stderr("demo", "a line after the blinks")
	d.waitInbox()
	mustShow(t, d, "a line after the blinks")
}

// reverseVideo finds an SGR that starts with 7 (reverse video), as
// lipgloss writes the virtual cursor.
var reverseVideo = regexp.MustCompile(`\x1b\[7[;m]`).MatchString

// TestJSONEditorBlinkParksWhileHidden: the JSON editor's text area is not
// huh's, and its cursor does blink on screen; while the tools view is
// hidden its blink is dropped (no 530 ms loop for nothing on screen), and
// showing the view again starts it.
func TestJSONEditorBlinkParksWhileHidden(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "echo", InputSchema: json.RawMessage(echoSchema)}))
		d.keys(keyF5, keyEnter, keyCtrlL)
		mustShow(t, d, "arguments for echo · as JSON")
		id := d.tools().json.id
		editorBlink := func(msg tea.Msg) bool { return isBlinkMsg(msg) && msg.(routedMsg).id == id }
		d.keys(keyF6)
		d.awaitLate(editorBlink) // the blink Focus armed, back while hidden
		if j := d.tools().json; j == nil || !j.parked {
			t.Fatal("a blink for the hidden JSON editor was passed on, not parked")
		}
		d.keys(keyF5)
		if d.tools().json.parked {
			t.Fatal("showing the tools view did not restart the parked blink")
		}
		d.awaitLate(editorBlink) // the restarted blink, fed while shown…
		d.awaitLate(editorBlink) // …re-arms: the cursor blinks on screen again
	})
}
