package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
)

var (
	keyF5  = tea.KeyPressMsg{Code: tea.KeyF5}
	keyTab = tea.KeyPressMsg{Code: tea.KeyTab}
	keyUp  = tea.KeyPressMsg{Code: tea.KeyUp}

	keyBackspace = tea.KeyPressMsg{Code: tea.KeyBackspace}
)

const echoSchema = `{"type":"object","properties":{
	"msg":{"type":"string","title":"Message"},
	"n":{"type":"integer","minimum":1}},"required":["msg"]}`

// withTools gives the fake engine's demo server these tools.
func withTools(tools ...wire.Tool) func(*fakeEngine) {
	return func(e *fakeEngine) { e.tools["demo"] = tools }
}

// blockingCall is a fake tools/call that runs until released or
// cancelled, reporting what it saw.
type blockingCall struct {
	started   chan string // tool name, when a call starts
	cancelled chan string // tool name, when a call sees its ctx end
	release   chan struct{}
}

func newBlockingCall() *blockingCall {
	return &blockingCall{started: make(chan string, 8), cancelled: make(chan string, 8), release: make(chan struct{})}
}

func (b *blockingCall) call(ctx context.Context, tool string, _ map[string]any, onProgress func(client.CallProgress)) (*wire.CallToolResult, error) {
	b.started <- tool
	if tool == "progress" {
		onProgress(client.CallProgress{Progress: 5, Total: 10, Message: "halfway there"})
	}
	select {
	case <-ctx.Done():
		b.cancelled <- tool
		return nil, ctx.Err()
	case <-b.release:
		return &wire.CallToolResult{Content: []wire.ContentBlock{{Type: "text", Text: tool + " finished"}}}, nil
	}
}

func recv(t *testing.T, ch <-chan string, what string) string {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(5 * time.Second):
		t.Fatalf("no %s within 5 s", what)
		return ""
	}
}

func isCallDone(msg tea.Msg) bool { _, ok := msg.(callDoneMsg); return ok }

func TestToolCallThroughArgumentForm(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		got := make(chan map[string]any, 1)
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "echo", Description: "says it back",
			InputSchema: json.RawMessage(echoSchema)}), func(e *fakeEngine) {
			e.callFn = func(_ context.Context, tool string, args map[string]any, _ func(client.CallProgress)) (*wire.CallToolResult, error) {
				got <- args
				return &wire.CallToolResult{Content: []wire.ContentBlock{{Type: "text", Text: "echo: " + args["msg"].(string)}}}, nil
			}
		})
		d.keys(keyF5)
		if s := d.screen(); !strings.Contains(s, "echo") || !strings.Contains(s, "says it back") {
			t.Fatalf("tool list lacks echo:\n%s", s)
		}
		d.keys(keyEnter)
		s := d.screen()
		if !strings.Contains(s, "arguments for echo") || !strings.Contains(s, "Message") {
			t.Fatalf("no argument form:\n%s", s)
		}
		if !d.m.typing() {
			t.Fatal("the argument form's field does not take keys")
		}
		d.typeText("hi ?") // ? is text here, not help
		d.keys(keyEnter)
		d.typeText("0")
		d.keys(keyEnter) // n must be >= 1: refused, focus stays
		select {
		case a := <-got:
			t.Fatalf("called with invalid arguments %v", a)
		default:
		}
		d.keys(keyBackspace)
		d.typeText("3")
		d.keys(keyEnter)
		select {
		case a := <-got:
			if want := map[string]any{"msg": "hi ?", "n": int64(3)}; !cmp.Equal(a, want) {
				t.Fatalf("arguments = %#v, want %#v", a, want)
			}
		default:
			t.Fatalf("the tool was not called:\n%s", d.screen())
		}
		s = d.screen()
		for _, want := range []string{"✓ demo/echo", "echo: hi ?", "Calls (0 running)"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q:\n%s", want, s)
			}
		}
		if d.m.typing() {
			t.Error("the argument form is still open after the call")
		}
	})
}

func TestToolArgumentFormEscCloses(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "echo", InputSchema: json.RawMessage(echoSchema)}))
		d.keys(keyF5, keyEnter)
		d.typeText("abc")
		d.keys(keyEsc)
		if d.tools().args != nil || len(d.tools().calls) != 0 {
			t.Fatalf("Esc left the form open (%v) or started a call (%d)", d.tools().args != nil, len(d.tools().calls))
		}
		if len(d.eng.calls) != 0 {
			t.Fatalf("engine calls = %v, want none", d.eng.calls)
		}
	})
}

func TestToolResultRendering(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		results := map[string]*wire.CallToolResult{
			"rich": {
				Content: []wire.ContentBlock{
					{Type: "text", Text: "hello world"},
					wire.NewBlock("image", wire.BlockDetails{MimeType: "image/png", Data: "iVBORw0KGgo="}), // 8 bytes
					wire.NewBlock("resource_link", wire.BlockDetails{URI: "file:///r.txt", Name: "r", Title: "Report", MimeType: "text/plain"}),
				},
				StructuredContent: json.RawMessage(`{"a":1,"b":["x"]}`),
			},
			"broken": {IsError: true, Content: []wire.ContentBlock{{Type: "text", Text: "boom happened"}}},
		}
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "rich"}, wire.Tool{Name: "broken"}), func(e *fakeEngine) {
			e.callFn = func(_ context.Context, tool string, _ map[string]any, _ func(client.CallProgress)) (*wire.CallToolResult, error) {
				return results[tool], nil
			}
		})
		d.keys(keyF5, keyEnter) // no arguments: called at once
		s := d.screen()
		for _, want := range []string{
			"✓ demo/rich",
			"hello world",
			"[image image/png, 8 B]",
			"→ link Report file:///r.txt (text/plain)",
			"structuredContent",
			"\"a\": 1,", // indented JSON, one member per line
			"\"b\": [",
		} {
			if !strings.Contains(s, want) {
				t.Errorf("result lacks %q:\n%s", want, s)
			}
		}
		if strings.Contains(s, "iVBORw0KGgo=") {
			t.Error("image data shown raw")
		}
		d.keys(keyDown, keyEnter)
		s = d.screen()
		if !strings.Contains(s, "✗ demo/broken") || !strings.Contains(s, "the tool reported an error (isError)") {
			t.Fatalf("isError result not flagged:\n%s", s)
		}
		st := d.m.st
		if st.Error.Render("boom happened") == st.Text.Render("boom happened") {
			t.Fatal("error and text styles are the same; the check below would prove nothing")
		}
		if raw := d.m.View().Content; !strings.Contains(raw, st.Error.Render("boom happened")) {
			t.Errorf("isError text not in the error style:\n%q", raw)
		}
	})
}

func TestCancelRunningCall(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		bc := newBlockingCall()
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "slow"}), func(e *fakeEngine) { e.callFn = bc.call })
		d.keys(keyF5, keyEnter)
		recv(t, bc.started, "call start")
		if s := d.screen(); !strings.Contains(s, "Calls (1 running)") || !strings.Contains(s, "demo/slow") {
			t.Fatalf("running call not shown:\n%s", s)
		}
		d.keys(key1('x'))
		if s := d.screen(); !strings.Contains(s, "cancellation requested") {
			t.Fatalf("no cancellation notice:\n%s", s)
		}
		if got := recv(t, bc.cancelled, "cancellation in the engine"); got != "slow" {
			t.Fatalf("cancelled %q", got)
		}
		d.awaitLate(isCallDone)
		if s := d.screen(); !strings.Contains(s, "⊘ demo/slow  cancelled") || !strings.Contains(s, "Calls (0 running)") {
			t.Fatalf("cancelled call not shown as such:\n%s", s)
		}
	})
}

// TestConcurrentCallsProgressAndSpinner runs two calls at once: progress
// reaches the right one, x on the selected call cancels only it, and the
// spinner ticks only while a call runs.
func TestConcurrentCallsProgressAndSpinner(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		bc := newBlockingCall()
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "progress"}, wire.Tool{Name: "other"}),
			func(e *fakeEngine) { e.callFn = bc.call })
		d.keys(keyF5, keyEnter)
		recv(t, bc.started, "first call")
		if !d.m.spin.running {
			t.Fatal("the spinner is not running while a call runs")
		}
		d.keys(keyDown, keyEnter)
		recv(t, bc.started, "second call")
		d.waitInbox() // the coalesced streamsChangedMsg carrying the progress
		s := d.screen()
		for _, want := range []string{"Calls (2 running)", "demo/progress", "demo/other", " 50%", "halfway there", "█"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q:\n%s", want, s)
			}
		}
		if strings.Count(s, "%") != 1 {
			t.Errorf("progress shown on more than one call:\n%s", s)
		}

		// The spinner advances on its tick and re-arms while calls run.
		frame := d.m.spin.frame
		_, cmd := d.m.Update(spinTickMsg{gen: d.m.spin.gen})
		if cmd == nil || d.m.spin.frame != frame+1 {
			t.Fatalf("tick while running: cmd %v, frame %d → %d", cmd != nil, frame, d.m.spin.frame)
		}

		// Select the first call in the calls list and cancel it alone.
		d.keys(keyTab, keyUp, key1('x'))
		if got := recv(t, bc.cancelled, "cancellation"); got != "progress" {
			t.Fatalf("cancelled %q, want progress", got)
		}
		d.awaitLate(isCallDone)
		if s := d.screen(); !strings.Contains(s, "Calls (1 running)") {
			t.Fatalf("want one call still running:\n%s", s)
		}
		select {
		case c := <-bc.cancelled:
			t.Fatalf("%s was cancelled too", c)
		default:
		}
		close(bc.release)
		d.awaitLate(isCallDone)
		s = d.screen()
		if !strings.Contains(s, "✓ demo/other") || !strings.Contains(s, "Calls (0 running)") {
			t.Fatalf("second call did not finish:\n%s", s)
		}

		// Idle: the pending tick is not re-armed and nothing else ticks.
		_, cmd = d.m.Update(spinTickMsg{gen: d.m.spin.gen})
		if cmd != nil {
			t.Fatal("the spinner re-armed with no call running")
		}
		if d.m.spin.running {
			t.Fatal("spinner still marked running")
		}
		for _, msg := range []tea.Msg{keyDown, keyUp, streamsChangedMsg{}} {
			if _, cmd := d.m.Update(msg); cmd != nil {
				t.Fatalf("%T returned a command while idle", msg)
			}
		}
	})
}
