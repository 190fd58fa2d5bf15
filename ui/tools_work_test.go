package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
)

// Working with tools (issue 13 item 3): the filter, the details, the
// arguments remembered, as JSON, called again, and where focus is after a
// call.

var (
	keyCtrlL   = tea.KeyPressMsg{Code: 'l', Mod: tea.ModCtrl}
	keyCtrlS   = tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	keyCtrlEnd = tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl}
	keyCtrlU   = tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	keyEnd     = tea.KeyPressMsg{Code: tea.KeyEnd}
)

// TestToolListRetriedOnShow: a tools/list that failed (asked the moment a
// server said it was ready, before the engine handed out its session) is
// asked again when the view is shown, not kept failed.
func TestToolListRetriedOnShow(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		asked := 0
		d := newDriver(t, Options{}, withTools(fourTools()...), func(e *fakeEngine) {
			e.toolsErr = errors.New("demo is not connected")
			e.listHook = func(_ context.Context, what, _ string) {
				if what == "tools" {
					mu.Lock()
					asked++
					mu.Unlock()
				}
			}
		})
		count := func() int { mu.Lock(); defer mu.Unlock(); return asked }
		keyF4 := tea.KeyPressMsg{Code: tea.KeyF4}
		d.keys(keyF5)
		mustShow(t, d, "tools/list failed: demo is not connected")
		d.eng.mu.Lock()
		d.eng.toolsErr = nil
		d.eng.mu.Unlock()
		before := count()
		d.keys(keyF4, keyF5)
		mustShow(t, d, "add — Add numbers", "slow")
		if count() != before+1 {
			t.Fatalf("tools/list asked %d times on showing the view again, want once", count()-before)
		}
		d.keys(keyF4, keyF5) // a list that loaded is not asked again
		if count() != before+1 {
			t.Fatalf("a loaded list was asked again (%d)", count()-before)
		}
	})
}

// fourTools are a list to filter: matches by name, title and description.
func fourTools() []wire.Tool {
	return []wire.Tool{
		{Name: "add", Title: "Add numbers", Description: "sums two numbers"},
		{Name: "echo", Description: "says it back", InputSchema: json.RawMessage(echoSchema)},
		{Name: "deploy", Title: "Ship it", Description: "ECHOES nothing"},
		{Name: "slow", Description: "takes its time"},
	}
}

// argsRecorder is a fake tools/call that keeps each call's arguments.
type argsRecorder struct {
	mu   sync.Mutex
	args []map[string]any
}

func (r *argsRecorder) call(_ context.Context, tool string, args map[string]any, _ func(client.CallProgress)) (*wire.CallToolResult, error) {
	r.mu.Lock()
	r.args = append(r.args, args)
	r.mu.Unlock()
	return &wire.CallToolResult{Content: []wire.ContentBlock{{Type: "text", Text: tool + " done"}}}, nil
}

func (r *argsRecorder) calls() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.args...)
}

// callsDone fails if a call is still running: the driver waits for a
// command that works, however long (driver_wait_test.go), so a call the
// fake answers at once is done, its result checked against the
// outputSchema, once the key that made it has been handled.
func callsDone(d *driver) {
	d.t.Helper()
	if n := d.tools().running(); n > 0 {
		d.t.Fatalf("%d calls still running", n)
	}
}

// selectedRow is the list row under the cursor, as drawn.
func selectedRow(t *testing.T, d *driver) string {
	t.Helper()
	for _, l := range strings.Split(d.screen(), "\n") {
		if strings.HasPrefix(l, "› ") {
			return l
		}
	}
	t.Fatalf("no row has the cursor:\n%s", d.screen())
	return ""
}

func TestToolFilter(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withTools(fourTools()...), func(e *fakeEngine) { e.callFn = (&argsRecorder{}).call })
		d.keys(keyF5, keyDown, keyDown, keyDown) // on slow
		d.keys(keySlash)
		if !d.m.typing() {
			t.Fatal("the filter does not take the keys while it is typed")
		}
		d.typeText("Ech?") // ? is text here, not help
		if d.m.showHelp {
			t.Fatal("? opened the help while typing the filter")
		}
		d.keys(keyBackspace) // "Ech": echo by name, deploy by its description
		mustShow(t, d, "filter: Ech", "(2 of 4)")
		s := d.screen()
		if strings.Contains(s, "add — Add numbers") || strings.Contains(s, "slow") {
			t.Fatalf("rows the filter does not match are shown:\n%s", s)
		}
		// A new text puts the cursor on its best match: echo by name, first,
		// before deploy by its description.
		if row := selectedRow(t, d); !strings.Contains(row, "echo") {
			t.Fatalf("cursor on %q, want the best match (echo)", row)
		}
		if s := d.screen(); strings.Index(s, "deploy") < strings.Index(s, "echo —") {
			t.Fatalf("the description match is above the name match:\n%s", s)
		}
		d.keys(keyDown, keyUp) // the arrows move among the matches while typing
		if row := selectedRow(t, d); !strings.Contains(row, "echo") {
			t.Fatalf("down, up moved to %q, want echo", row)
		}
		d.keys(keyEnter) // keeps the filter, stops typing
		if d.m.typing() {
			t.Fatal("still typing after Enter")
		}
		mustShow(t, d, "filter: Ech (2 of 4) esc clears", "enter call")
		d.keys(keyEnter) // now Enter calls the selected match
		mustShow(t, d, "arguments for echo")
		d.keys(keyEsc) // closes the form; the filter stays
		mustShow(t, d, "filter: Ech")
		d.keys(keyEsc) // clears the filter; the cursor stays on echo
		mustShow(t, d, "/ filter", "add — Add numbers", "slow")
		if row := selectedRow(t, d); !strings.Contains(row, "echo") {
			t.Fatalf("cursor on %q after clearing, want echo", row)
		}

		// A filter that matches nothing says so, and Enter calls nothing.
		d.keys(keySlash)
		d.typeText("zzz")
		d.keys(keyEnter)
		mustShow(t, d, "(0 of 4)", `no tools match "zzz"`)
		d.keys(keyEnter, key1('d'), key1('t'))
		if got := d.eng.called(); len(got) != 0 || d.tools().args != nil || d.tools().details != nil {
			t.Fatalf("a hidden tool was used: calls %v", got)
		}
	})
}

// TestToolFilterRanks: names first (whole, start, a word's start,
// anywhere), then titles, then descriptions, each in the server's order,
// and the cursor on the best; server-filesystem's /allowed (issue 26).
func TestToolFilterRanks(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		tools := []wire.Tool{
			{Name: "read_text_file", Description: "Only works within allowed directories."},
			{Name: "disallowed_things", Description: "a name holding it inside a word"},
			{Name: "list_allowed_directories", Description: "Returns the list of directories this server may use."},
			{Name: "checker", Title: "Allowed checker"},
			{Name: "allowed_now"},
			{Name: "allowed"},
			{Name: "unrelated", Description: "nothing"},
		}
		d := newDriver(t, Options{}, withTools(tools...))
		d.keys(keyF5, keySlash)
		d.typeText("allowed")
		mustShow(t, d, "(6 of 7)")
		var order []string
		for _, l := range strings.Split(d.screen(), "\n")[3:] { // the rows, under the tabs, strip and title
			if !strings.HasPrefix(l, "› ") && !strings.HasPrefix(l, "  ") {
				break
			}
			order = append(order, strings.Fields(strings.TrimPrefix(l, "› "))[0])
		}
		want := []string{"allowed", "allowed_now", "list_allowed_directories", "disallowed_things", "checker", "read_text_file"}
		if strings.Join(order, " ") != strings.Join(want, " ") {
			t.Fatalf("order %v, want %v:\n%s", order, want, d.screen())
		}
		if row := selectedRow(t, d); !strings.HasPrefix(row, "› allowed") || strings.HasPrefix(row, "› allowed_now") {
			t.Fatalf("cursor on %q, want allowed", row)
		}
	})
}

// The filter is the lists' (serverlists.go): the resources view has it.
func TestResourceFilter(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, twoServers, withResources)
		d.keys(keyF9, keySlash)
		d.typeText("logo")
		d.keys(keyEnter)
		mustShow(t, d, "filter: logo (1 of 4)", "mem://logo")
		if s := d.screen(); strings.Contains(s, "notes.txt") {
			t.Fatalf("unmatched resource shown:\n%s", s)
		}
		d.keys(keyEnter)
		d.eng.mu.Lock()
		got := append([]string(nil), d.eng.reads...)
		d.eng.mu.Unlock()
		if len(got) != 1 || got[0] != "demo mem://logo" {
			t.Fatalf("read %v, want the filtered one", got)
		}
	})
}

// The prompt templates have it too; ? typed into it is text, not help,
// though their form's fields also have the keys when it is open.
func TestTemplateFilter(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withTemplates)
		d.keys(keyF10, keySlash)
		d.typeText("no ar?")
		if d.m.showHelp {
			t.Fatal("? opened the help while typing the filter")
		}
		d.keys(keyBackspace, keyEnter)
		mustShow(t, d, "filter: no ar (1 of 2)", "No arguments")
		if s := d.screen(); strings.Contains(s, "greet") {
			t.Fatalf("unmatched template shown:\n%s", s)
		}
		d.keys(keyEnter)
		d.eng.mu.Lock()
		gets := append([]fakeGet(nil), d.eng.gets...)
		d.eng.mu.Unlock()
		if len(gets) != 1 || gets[0].name != "plain" {
			t.Fatalf("prompts/get %+v, want plain", gets)
		}
	})
}

func TestToolDetails(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		yes, no := true, false
		tool := wire.Tool{
			Name: "wipe", Title: "Wipe a disk",
			Description:  "Erases everything. " + hostile + " " + strings.Repeat("Really everything. ", 30) + "THE-END",
			InputSchema:  json.RawMessage(echoSchema),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"wiped":{"type":"integer"}}}`),
			Annotations:  wire.ToolAnnotations{Title: "Disk wiper", ReadOnlyHint: &no, IdempotentHint: &yes},
			Execution:    wire.ToolExecution{TaskSupport: client.TaskSupportOptional},
			Icons:        json.RawMessage(`[{"src":"https://example.com/wipe.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"},{"src":"data:image/svg+xml;base64,` + strings.Repeat("A", 4096) + `"},"junk"]`),
			Meta:         json.RawMessage(`{"vendor/x":1}`),
		}
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "first"}, tool), func(e *fakeEngine) {
			e.servers[0].Caps = tasksCaps
		})
		d.keys(keyF5, keyDown, key1('d'))
		mustShow(t, d, "Tool wipe", "Wipe a disk", "Disk wiper", "Erases everything.",
			"read-only     no — may modify its environment",
			"destructive   yes — may destroy or overwrite (default, not sent)",
			"idempotent    yes — calling it again",
			"open world    yes — reaches an open world of outside entities (default, not sent)",
			"taskSupport   optional — calls run as a task",
			"1. https://example.com/wipe.png  mimeType image/png  theme dark  sizes 48x48",
			"2. data:image/svg+xml;base64,… (4.0 KiB)",
			"3. not an icon object",
			"lines 1–")
		assertNoHostile(t, d.m.View().Content)
		// The description is whole (wrapped, not cut), and the schemas and
		// _meta follow: scroll to the end.
		d.keys(key1('G'))
		mustShow(t, d, "Output schema", `"wiped": {`, "_meta", `"vendor/x": 1`, "(end)")
		s := d.screen()
		d.keys(key1('g'))
		s += d.screen()
		for range 3 {
			d.keys(keyPgDown)
			s += d.screen()
		}
		for _, want := range []string{"THE-END", "Input schema", `"minimum": 1`} {
			if !strings.Contains(s, want) {
				t.Errorf("the details never showed %q:\n%s", want, s)
			}
		}
		// d again, or Esc, goes back to the list with the cursor where it was;
		// Enter from the details calls the tool.
		d.keys(key1('d'))
		if row := selectedRow(t, d); !strings.Contains(row, "wipe") || d.tools().details != nil {
			t.Fatalf("back from the details: cursor on %q", row)
		}
		d.keys(key1('d'), keyEnter)
		mustShow(t, d, "arguments for wipe")
	})
}

func TestToolArgsRememberedPerServerAndTool(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		rec := &argsRecorder{}
		d := newDriver(t, Options{}, twoServers, func(e *fakeEngine) {
			e.tools["demo"] = []wire.Tool{{Name: "echo", InputSchema: json.RawMessage(echoSchema)}, {Name: "other", InputSchema: json.RawMessage(echoSchema)}}
			e.tools["two"] = []wire.Tool{{Name: "echo", InputSchema: json.RawMessage(echoSchema)}}
			e.callFn = rec.call
		})
		d.keys(keyF5, keyEnter)
		d.typeText("first")
		d.keys(keyEnter)
		d.typeText("7")
		d.keys(keyEnter)
		callsDone(d)
		// The form opens again filled with the last call's arguments, and
		// Enter through it sends them as they were.
		d.keys(keyEnter)
		mustShow(t, d, "> first", "> 7")
		d.keys(keyEnter, keyEnter)
		callsDone(d)
		got := rec.calls()
		if len(got) != 2 || got[1]["msg"] != "first" || got[1]["n"] != int64(7) {
			t.Fatalf("calls %v, want the same arguments twice", got)
		}
		// Changed arguments are the ones remembered next.
		d.keys(keyEnter)
		d.keys(keyEnd)
		d.typeText("+more")
		d.keys(keyEnter, keyEnter)
		callsDone(d)
		d.keys(keyEnter)
		mustShow(t, d, "> first+more")
		d.keys(keyEsc)
		// Another tool, and the same tool on another server, start empty.
		d.keys(keyDown, keyEnter)
		if s := d.screen(); !strings.Contains(s, "arguments for other") || strings.Contains(s, "first") {
			t.Fatalf("other tool's form is not empty:\n%s", s)
		}
		d.keys(keyEsc, key1('s'), keyEnter)
		if s := d.screen(); !strings.Contains(s, "Tools of two") || strings.Contains(s, "first") {
			t.Fatalf("echo on two is not empty:\n%s", s)
		}
	})
}

// clearJSON empties the JSON editor by keys, as a person would: from the
// end, each line to its start (ctrl+u), and that line into the one before.
func clearJSON(d *driver) {
	d.keys(keyCtrlEnd)
	for range d.tools().json.area.LineCount() {
		d.keys(keyCtrlU, keyBackspace)
	}
}

func TestToolArgsAsJSON(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		rec := &argsRecorder{}
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "echo", InputSchema: json.RawMessage(echoSchema)}),
			func(e *fakeEngine) { e.callFn = rec.call })
		d.keys(keyF5, keyEnter)
		d.typeText("hi")
		d.keys(keyCtrlL) // n is still empty: the JSON has what the form holds
		mustShow(t, d, "arguments for echo · as JSON", `"msg": "hi"`, "✓ fits the inputSchema")
		if !d.m.typing() {
			t.Fatal("the JSON text does not take the keys")
		}
		clearJSON(d)
		d.typeText(`[1, 2]`)
		d.keys(keyCtrlS)
		mustShow(t, d, "not sent: the arguments must be a JSON object")
		clearJSON(d)
		d.typeText("{\"msg\": \"x\",\n \"n\": }")
		d.keys(keyCtrlS)
		mustShow(t, d, "not sent: line 2, column 7: invalid character '}'")
		if len(rec.calls()) != 0 {
			t.Fatalf("called with invalid JSON: %v", rec.calls())
		}
		// What no form would send: a member the schema lacks, a big integer.
		clearJSON(d)
		d.typeText(`{"msg": "raw", "n": 12345678901234567890, "extra": [true]}`)
		mustShow(t, d, "⚠ does not fit the inputSchema", "ctrl+s sends it anyway")
		d.keys(keyCtrlL) // the form cannot hold "extra": it stays
		mustShow(t, d, "the form cannot hold this")
		d.keys(keyCtrlS)
		callsDone(d)
		got := rec.calls()
		if len(got) != 1 {
			t.Fatalf("calls %v, want one", got)
		}
		if b, _ := json.Marshal(got[0]); string(b) != `{"extra":[true],"msg":"raw","n":12345678901234567890}` {
			t.Fatalf("sent %s", b)
		}
		if d.tools().json != nil || d.m.typing() {
			t.Fatal("the editor is still open after the call")
		}
		// Remembered as JSON: Enter opens the editor with that text again.
		d.keys(keyEnter)
		mustShow(t, d, "as JSON", `"extra": [`, `12345678901234567890`)
		// Text that fits goes back to the form, filled with it.
		clearJSON(d)
		d.typeText(`{"msg": "back", "n": 4}`)
		d.keys(keyCtrlL)
		mustShow(t, d, "arguments for echo · esc closes · ctrl+l as JSON", "> back", "> 4")
		d.keys(keyEnter, keyEnter)
		callsDone(d)
		if got := rec.calls(); len(got) != 2 || got[1]["msg"] != "back" || got[1]["n"] != int64(4) {
			t.Fatalf("calls %v", got)
		}
	})
}

func TestToolCallAgain(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		rec := &argsRecorder{}
		d := newDriver(t, Options{}, withTools(
			wire.Tool{Name: "echo", InputSchema: json.RawMessage(echoSchema), Execution: wire.ToolExecution{TaskSupport: client.TaskSupportOptional}},
			wire.Tool{Name: "ping"},
		), func(e *fakeEngine) {
			e.servers[0].Caps = tasksCaps
			e.callFn = rec.call
		})
		d.keys(keyF5, key1('a'))
		if !strings.Contains(d.m.notice, "echo was not called yet") || len(rec.calls()) != 0 {
			t.Fatalf("a before any call: notice %q, calls %v", d.m.notice, rec.calls())
		}
		d.keys(keyEnter)
		d.typeText("one")
		d.keys(keyCtrlR) // as a plain call, this once
		d.keys(keyEnter, keyEnter)
		callsDone(d)
		d.keys(keyDown, keyEnter) // ping, no arguments
		callsDone(d)
		// echo's choice back to a task: calling again keeps the last call's.
		d.keys(keyUp, key1('t'), key1('a'))
		callsDone(d)
		calls := d.eng.called()
		want := []string{"demo/echo map[msg:one]", "demo/ping map[]", "demo/echo map[msg:one]"}
		if strings.Join(calls, "|") != strings.Join(want, "|") {
			t.Fatalf("calls %q, want %q", calls, want)
		}
		if row := selectedRow(t, d); !strings.Contains(row, "echo") {
			t.Fatalf("cursor on %q after calling again", row)
		}
		// In the calls list, a calls the selected call again, and focus stays
		// there, on the new call.
		d.keys(keyTab, keyUp)
		mustShow(t, d, "a call again", "tab: back to the tools")
		d.keys(key1('a'))
		callsDone(d)
		if got := d.eng.called(); len(got) != 4 || got[3] != "demo/ping map[]" {
			t.Fatalf("calls %q, want ping again", got)
		}
		tv := d.tools()
		if !tv.onCalls || tv.callSel != len(tv.calls)-1 {
			t.Fatalf("focus after calling again from the calls list: onCalls %v, callSel %d of %d", tv.onCalls, tv.callSel, len(tv.calls))
		}
		// e opens the selected call's form with its arguments; a call of a
		// tool without arguments has none to change.
		d.keys(key1('e'))
		if !strings.Contains(d.m.notice, "ping takes no arguments") || len(d.eng.called()) != 4 {
			t.Fatalf("e on a call without arguments: notice %q, calls %q", d.m.notice, d.eng.called())
		}
		d.keys(keyUp, key1('e'))
		mustShow(t, d, "arguments for echo", "> one")
	})
}

// TestToolFocusAfterCall: after a call starts and ends the tools list keeps
// its cursor and focus; the headers' keys say where focus is; the calls
// list's cursor is on screen whichever call it is on.
func TestToolFocusAfterCall(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		bc := newBlockingCall()
		d := newDriver(t, Options{}, withTools(fourTools()...), func(e *fakeEngine) { e.callFn = bc.call })
		d.keys(keyF5, keyDown, keyDown, keyDown) // slow
		d.keys(keyEnter)
		recv(t, bc.started, "the call")
		if row := selectedRow(t, d); !strings.Contains(row, "slow") || d.tools().onCalls {
			t.Fatalf("while the call runs: cursor on %q, onCalls %v", row, d.tools().onCalls)
		}
		mustShow(t, d, "enter call", "x cancel")
		close(bc.release)
		d.awaitLate(isCallDone)
		if row := selectedRow(t, d); !strings.Contains(row, "slow") || d.tools().onCalls {
			t.Fatalf("after the call: cursor on %q, onCalls %v", row, d.tools().onCalls)
		}
		if s := d.screen(); !strings.Contains(s, "enter call") || strings.Contains(s, "x cancel") {
			t.Fatalf("the header's keys do not fit the list after the call:\n%s", s)
		}
		// Five more calls; then the calls list shows its cursor on the first
		// call too, though only four calls fit.
		for range 5 {
			d.keys(key1('a'))
			if d.tools().running() > 0 {
				d.awaitLate(isCallDone)
			}
		}
		d.keys(keyTab)
		mustShow(t, d, "↑↓ choose", "tab: back to the tools")
		if s := d.screen(); strings.Contains(s, "enter call") {
			t.Fatalf("the tools' keys are shown while the calls list has focus:\n%s", s)
		}
		d.keys(key1('g'))
		if d.tools().callSel != 0 {
			t.Fatalf("callSel %d, want 0", d.tools().callSel)
		}
		if row := selectedRow(t, d); !strings.Contains(row, "demo/slow") {
			t.Fatalf("the selected call is not on screen: %q", row)
		}
		d.keys(keyTab)
		if row := selectedRow(t, d); !strings.Contains(row, "slow — ") && !strings.Contains(row, "slow  takes") {
			t.Fatalf("back on the tools: cursor on %q", row)
		}
	})
}
