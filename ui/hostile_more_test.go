package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// evil carries, besides what hostile has, everything else a terminal acts
// on: a device status request (the terminal would type its answer into
// our input), the alternate screen, DCS, APC, a full reset, BEL,
// backspaces that would hide text, CR, DEL, NUL, C1 controls (UTF-8 and a
// raw 8-bit CSI, which is invalid UTF-8), bidi overrides and isolates
// ("Trojan Source"), an OSC 52 clipboard write, an OSC 8 link and a title.
const evil = "ok\x1b[6n\x1b[?1049h\x1bP+q544e\x1b\\\x1b_apc\x1b\\\x1bc\x07 hidden\x08\x08\x08\x08\x08\x08SHOWN\rCR\x7f\x00" +
	"\u009b31m\x9b31m \u202eevil\u202c \u2066iso\u2069 \x1b]52;c;ZXZpbA==\x07\x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\\x1b]0;title\x07end"

// TestEvilDefaultValueInert: a default value becomes the text input's
// initial value, which huh renders through bubbles' textinput. That strips
// C0 and C1 controls but keeps bidi overrides and isolates, so a default
// of "\u202eevil" would reorder what the person sees in the field they are
// about to accept. schema.Parse refuses such defaults (the engine answers
// -32602), so no pane is ever built from one.
func TestEvilDefaultValueInert(t *testing.T) {
	t.Parallel()
	_, err := schema.Parse(json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","default":"pay \u202eevil\u202c \u2066x\u2069"}}}`), schema.Subset2025_11_25)
	if err == nil {
		t.Fatal("a default with bidi overrides parsed; it would reach a text field")
	}
}

// inertProblems lists what in a rendered view a terminal would act on
// instead of print: any escape sequence but our own SGR styling (ESC [
// params m), any other C0 control but LF, DEL, C1 controls, bidi
// overrides and isolates, and invalid UTF-8. Each problem names its byte
// offset and quotes the text around it.
func inertProblems(view string) []string {
	var out []string
	report := func(i, n int, what string) {
		lo, hi := max(i-20, 0), min(i+n+20, len(view))
		out = append(out, fmt.Sprintf("byte %d: %s in %q", i, what, view[lo:hi]))
	}
	for i := 0; i < len(view); {
		c := view[i]
		switch {
		case c == '\x1b':
			n := sgrLen(view[i:])
			if n == 0 {
				report(i, 2, "escape sequence that is not SGR")
				n = 1
			}
			i += n
			continue
		case c < 0x20 && c != '\n' || c == 0x7f:
			report(i, 1, fmt.Sprintf("control byte %#02x", c))
			i++
			continue
		case c < utf8.RuneSelf:
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(view[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			report(i, 1, fmt.Sprintf("invalid UTF-8 byte %#02x", c))
		case r >= 0x80 && r <= 0x9f:
			report(i, size, fmt.Sprintf("C1 control U+%04X", r))
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			report(i, size, fmt.Sprintf("bidi control U+%04X", r))
		}
		i += size
	}
	return out
}

// sgrLen is the length of the SGR sequence s starts with (ESC [, digits,
// ';' or ':', then m), or 0 if s starts with anything else.
func sgrLen(s string) int {
	if !strings.HasPrefix(s, "\x1b[") {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9' || c == ';' || c == ':':
		case c == 'm':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// errorReporter is the part of testing.TB assertInert uses, so that a
// recorder can stand in for it (TestAssertInertCatches).
type errorReporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// assertInert fails t if view holds anything inertProblems finds,
// reporting up to 5 of them.
func assertInert(t errorReporter, where, view string) {
	t.Helper()
	probs := inertProblems(view)
	if len(probs) == 0 {
		return
	}
	shown := probs[:min(len(probs), 5)]
	more := ""
	if len(probs) > len(shown) {
		more = fmt.Sprintf("\n  … and %d more", len(probs)-len(shown))
	}
	t.Errorf("%s: the view is not inert (%d problems):\n  %s%s", where, len(probs), strings.Join(shown, "\n  "), more)
}

// recorder is an errorReporter that keeps what was reported.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestAssertInertCatches proves the checker can fail: each of these
// reaching a view is reported, at the right offset, and what we draw
// ourselves (SGR styling, sanitized server text) is not.
func TestAssertInertCatches(t *testing.T) {
	t.Parallel()
	const pre = "\x1b[1;38;2;10;20;30mtitle\x1b[m ok: " // allowed styling and text
	bad := map[string]string{
		"OSC 52":              "\x1b]52;c;ZXZpbA==\x07",
		"CSI clear":           "\x1b[2J",
		"CSI DSR":             "\x1b[6n",
		"CSI private":         "\x1b[?1049h",
		"SGR-like, wrong end": "\x1b[31;1H",
		"lone ESC at the end": "\x1b",
		"C1 CSI (UTF-8)":      "\u009b31m",
		"raw 8-bit CSI":       "\x9b31m",
		"RLO":                 "\u202eevil",
		"LRI":                 "\u2066x",
		"PDI":                 "\u2069",
		"invalid UTF-8":       "\xff\xfe",
		"truncated UTF-8":     "\xe2\x80",
		"BEL":                 "\x07",
		"CR":                  "\r",
		"TAB":                 "\t",
		"NUL":                 "\x00",
		"DEL":                 "\x7f",
		// These start with harmless text: the first problem is further in.
		"evil, unsanitized":    evil[2:],
		"hostile, unsanitized": hostile[3:],
	}
	for name, s := range bad {
		probs := inertProblems(pre + s + " tail\n")
		if len(probs) == 0 {
			t.Errorf("%s: %q not reported", name, s)
			continue
		}
		if want := fmt.Sprintf("byte %d:", len(pre)); !strings.HasPrefix(probs[0], want) {
			t.Errorf("%s: first problem %q, want it at %s", name, probs[0], want)
		}
		var r recorder
		assertInert(&r, name, pre+s)
		if len(r.errs) != 1 || !strings.Contains(r.errs[0], name+": the view is not inert") {
			t.Errorf("%s: assertInert reported %q", name, r.errs)
		}
	}

	// Many problems: five are listed, and how many more there are.
	var r recorder
	assertInert(&r, "many", strings.Repeat("\x1b[2J", 8))
	if len(r.errs) != 1 || strings.Count(r.errs[0], "byte ") != 5 || !strings.Contains(r.errs[0], "… and 3 more") {
		t.Errorf("8 problems reported as %q", r.errs)
	}

	good := []string{
		"",
		"plain text\nsecond line\n",
		"\x1b[m\x1b[0m\x1b[1;3;4m\x1b[4:3m\x1b[38:2::1:2:3m\x1b[48;5;200m",
		pre + "✓ ⏎ ␛ <U+202E> �",
		untrusted.Text(evil),
		untrusted.Line(evil),
		untrusted.Text(hostile),
		"\x1b[31m" + untrusted.Text(evil) + "\x1b[0m",
	}
	for _, s := range good {
		if probs := inertProblems(s); len(probs) > 0 {
			t.Errorf("%q: false alarm %q", s, probs)
		}
		var r recorder
		assertInert(&r, "good", s)
		if len(r.errs) > 0 {
			t.Errorf("%q: assertInert reported %q", s, r.errs)
		}
	}
}

// ev tags evil, so a test can tell which string it sees on screen.
func ev(tag string) string { return "[" + tag + "]" + evil }

// shown is how ev(tag) starts on screen once sanitized: its tag, and the
// ESC that followed it made visible.
func shown(tag string) string { return "[" + tag + "]ok␛[6n" }

// inJSON is how ev(tag) starts inside pretty-printed JSON: the ESC is
// still escaped there, which is inert.
func inJSON(tag string) string { return "[" + tag + "]ok\\u001b[6n" }

// compact is a screen for a failure message: each line without its
// trailing blanks and cut to 300 columns, blank lines left out.
func compact(screen string) string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		if l = strings.TrimRight(l, " ┃"); l != "" {
			out = append(out, ansi.Truncate(l, 300, "…"))
		}
	}
	return strings.Join(out, "\n")
}

// mustJSON marshals v, which the test builds and cannot fail to encode.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEvilTextInertEverywhere puts evil into every server-supplied string
// the UI can show, visits every view, and checks that each screen is inert
// (assertInert) and, on a screen wide enough to hold them, that the tagged
// strings are really on it, so a view that shows nothing cannot pass. It
// runs at three sizes: lines are cut at the width, and a cut must not
// split a stand-in into something live.
func TestEvilTextInertEverywhere(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		w, h  int
		check bool // the tagged strings must be visible
	}{{2000, 70, true}, {120, 40, false}, {44, 14, false}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) { evilTour(t, size.w, size.h, size.check) })
		})
	}
}

func evilTour(t *testing.T, width, height int, check bool) {
	srv, two := ev("srv"), ev("two")
	release := make(chan struct{})
	keyF4, keyF7 := tea.KeyPressMsg{Code: tea.KeyF4}, tea.KeyPressMsg{Code: tea.KeyF7}
	d := newDriver(t, Options{Now: func() time.Time { return t0 }}, func(e *fakeEngine) { evilEngine(t, e, srv, two, release) })
	d.send(tea.WindowSizeMsg{Width: width, Height: height})

	look := func(where string, want ...string) {
		t.Helper()
		v := d.m.View().Content
		assertInert(t, where, v)
		if !check {
			return
		}
		s := ansi.Strip(v)
		for _, w := range want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: %q is not on screen:\n%s", where, w, compact(s))
			}
		}
	}

	// Prompts: two forms, two URL prompts, a task's and an input request's.
	for _, p := range evilPrompts(t, srv) {
		d.open(p)
	}
	paneWants := [][]string{
		{shown("srv"), shown("rid"), shown("origin"), shown("msg"), shown("ptitle"), shown("pdesc"), shown("pname"),
			shown("otitle"), shown("proto"), shown("two"), shown("sfail0")}, // and the status bar
		{shown("msg2"), shown("etitle"), shown("ename"), shown("fval"), shown("mtitle"), shown("btitle"),
			shown("bdesc"), shown("ndesc")},
		{shown("umsg"), shown("url")},
		{shown("umsg2"), "<U+202E>"}, // the user name's RLO, in the warning
		{shown("tid"), shown("tin"), shown("tmsg")},
		{shown("cid"), shown("cin"), shown("imsg")},
	}
	for i, want := range paneWants {
		look(fmt.Sprintf("prompt pane %d", i+1), want...)
		d.keys(keyF2)
	}
	look("prompts, back at the first", shown("msg"))

	// How prompts end: withdrawn with a reason, closed for an odd cause,
	// found invalid; each notice is drawn on its pane.
	d.keys(keyF2, keyF2) // the first URL prompt
	u := d.m.prompts.focused().p.Key
	d.send(promptClosedMsg{key: u, cause: question.ErrWithdrawn})
	d.send(eventMsg{e: client.PromptResolved{Key: u, Entry: question.JournalEntry{Key: u, Server: srv, Kind: question.Withdrawn, Reason: ev("wr")}}})
	look("withdrawn pane", shown("wr"))
	d.keys(keyF2)
	d.send(promptClosedMsg{key: d.m.prompts.focused().p.Key, cause: errors.New(ev("cause"))})
	look("pane closed for an odd cause", shown("cause"))
	d.keys(keyF2)
	k := d.m.prompts.focused().p.Key
	d.send(eventMsg{e: client.PromptResolved{Key: k, Entry: question.JournalEntry{Key: k, Server: srv, Kind: question.Invalid, Reason: ev("inv")}}})
	look("invalid pane", shown("inv"))

	// The journal, as the engine recorded it (setup, before Init).
	d.keys(keyF7)
	look("journal", shown("srv"), shown("jrid"), shown("jr"), shown("jorigin"))

	// Tools: the list, an argument form, results, an error, progress.
	d.keys(keyF5)
	look("tool list", shown("tname"), shown("ttitle"), shown("tdesc"), shown("ts"), shown("tname2"), shown("tatitle"))
	d.keys(keyEnter)
	look("tool argument form", shown("tname"), shown("atitle"), shown("adesc"), "e.g. "+shown("aex"))
	d.keys(keyEsc, keyDown, key1('t')) // t on a tool that cannot choose: a notice naming it
	look("notice with a tool name", shown("tname2"))
	d.keys(keyEnter)
	look("tool result", shown("rtext"), shown("rlink"), shown("rluri"), shown("rldesc"), shown("rmime"),
		inJSON("rsc"), shown("remb"), shown("rembt"), shown("rtype"), shown("imime"))
	d.keys(keyDown, keyEnter)
	look("isError result", shown("etext"))
	d.keys(keyDown, keyEnter)
	look("failed call", shown("cerr"))
	d.keys(keyDown, keyEnter)
	d.waitInbox() // the progress, coalesced
	look("running call with progress", shown("prog"))
	close(release)
	d.awaitLate(isCallDone)
	look("call done", shown("pdone"))

	// Traffic: every row, and every row's detail.
	evilTraffic(d.m.bridge, srv)
	d.waitInbox()
	d.pump()
	// The notice of t would go with a key a second later; here the clock
	// stands still, and its rows would hide traffic rows at 44×14.
	d.send(noticeMsg(""))
	d.keys(keyF6)
	look("traffic list", shown("fmeth"), shown("fid"), shown("fcancel"), shown("fevid"), shown("ftrans"), shown("hmeth"))
	if n := len(d.traffic().rows); n != 7 {
		t.Fatalf("%d traffic rows, want 7", n)
	}
	rowWants := [][]string{ // newest first
		{shown("ftrans"), "status 500"},
		{shown("fcancel")},
		{shown("fraw"), shown("ferr")},
		{inJSON("fdata")},
		{shown("fmeth"), inJSON("fparam")},
		{shown("fid"), shown("url"), shown("hdr"), shown("hkey"), shown("hname"), shown("fevid"), inJSON("fres")},
		{shown("fid"), inJSON("fname")},
	}
	for i, want := range rowWants {
		d.keys(keyEnter)
		look(fmt.Sprintf("traffic detail %d", i), want...)
		d.keys(keyEsc, keyUp)
	}

	// Logs: stderr, notifications/message (string and object data), a
	// notice, and a refused log level.
	br := d.m.bridge
	br.Stderr(srv, ev("stderr"))
	br.Event(client.LogMessage{Server: srv, Level: ev("lvl"), Logger: ev("logger"), Data: json.RawMessage(mustJSON(t, ev("ldata"))), Time: t0})
	br.Event(client.LogMessage{Server: two, Level: "error", Data: json.RawMessage(mustJSON(t, map[string]string{"k": ev("lobj")})), Time: t0})
	d.waitInbox()
	d.send(eventMsg{e: client.Notice{Server: srv, Text: ev("notice"), Time: t0}})
	d.keys(keyF8)
	look("logs", shown("stderr"), shown("lvl"), shown("logger"), shown("ldata"), inJSON("lobj"), shown("notice"))
	d.keys(key1('s'), key1('l'))
	look("log level picker", shown("srv"))
	d.keys(keyEnter)
	look("refused log level", shown("lerr"))

	// Resources: the list, a read, a failed read.
	d.keys(keyF9)
	look("resources", shown("runame"), shown("rutitle"), shown("ruuri"), shown("rumime"), shown("rudesc"))
	d.keys(keyEnter)
	look("resource read", shown("rcuri"), shown("rcmime"), shown("rctext"), shown("rcblob"))
	d.keys(keyEsc, keyDown, keyEnter)
	look("resource JSON read", inJSON("rcjson"))
	d.keys(keyEsc, keyDown, keyEnter)
	look("failed read", shown("rerr"))
	d.keys(keyEsc)

	// Prompt templates: the list, the argument form, a get.
	d.keys(keyF10)
	look("templates", shown("gname"), shown("gtitle"), shown("gdesc"), shown("gargname"))
	d.keys(keyEnter)
	look("template argument form", shown("gname"), shown("gargtitle"), shown("gargdesc"))
	d.typeText("x")
	d.keys(keyEnter)
	look("prompts/get result", shown("gresdesc"), shown("grole"), shown("gmsg"), shown("glname"), shown("gluri"))
	d.keys(keyEsc)

	// Tasks: the list, every detail, a refused cancel, a failed list.
	d.keys(keyF11)
	for _, tk := range evilTasks(t, srv) {
		br.Event(client.TaskChanged{Task: tk}) // delivered before Event returns
	}
	d.pump()
	look("tasks", shown("tkid1"), shown("tkid2"), shown("tkid3"))
	// The selection stayed on the first task; the rows go newest first.
	d.keys(key1('g'))
	for i, want := range [][]string{
		{shown("tkid3"), shown("tkerr")},
		{shown("tkid2"), shown("tkres"), inJSON("tksc"), shown("tkimm")},
		{shown("tkid1"), shown("tkmsg"), shown("tktool")},
	} {
		d.keys(keyEnter)
		look(fmt.Sprintf("task detail %d", i), want...)
		d.keys(keyEsc, keyDown)
	}
	d.keys(key1('x'))
	look("refused task cancel", shown("tkcancel"))
	d.keys(key1('r'))
	look("failed tasks/list", shown("tklist"))

	// Server states: failed and disconnected, with the server's reasons.
	d.send(eventMsg{e: client.ServerStateChanged{Server: srv, State: client.StateFailed, Err: errors.New(ev("sfail"))}})
	d.send(eventMsg{e: client.ServerStateChanged{Server: two, State: client.StateDisconnected, Err: errors.New(ev("sdisc"))}})
	for _, fk := range []tea.KeyPressMsg{keyF4, keyF5, keyF6, keyF7, keyF8, keyF9, keyF10, keyF11} {
		d.keys(fk)
		look("status bar on "+fk.String(), shown("sfail"), shown("sdisc"))
	}
	d.keys(keyF1)
	look("help", shown("sfail"))
	d.keys(keyEsc)
}

// loggingTasksCaps are tasksCaps with logging declared.
func loggingTasksCaps() client.ServerCapabilities {
	c := tasksCaps
	c.Logging = true
	return c
}

// evilEngine fills the fake engine with evil: two servers, tools and
// what their calls return, resources, prompt templates, the journal, and
// the errors of setLevel, tasks/cancel and tasks/list.
func evilEngine(t *testing.T, e *fakeEngine, srv, two string, release chan struct{}) {
	e.servers = []ServerStatus{
		{Name: srv, State: client.StateReady, Protocol: ev("proto"), Caps: loggingTasksCaps()},
		{Name: two, State: client.StateFailed, Err: errors.New(ev("sfail0"))},
	}
	e.levelErr = errors.New(ev("lerr"))
	e.cancelErr = errors.New(ev("tkcancel"))
	e.listFn = func(string) ([]client.Task, error) { return nil, errors.New(ev("tklist")) }
	size := int64(3)
	e.tools[srv] = []wire.Tool{
		{Name: ev("tname"), Title: ev("ttitle"), Description: ev("tdesc"), Execution: wire.ToolExecution{TaskSupport: ev("ts")},
			InputSchema: json.RawMessage(mustJSON(t, map[string]any{"type": "object", "properties": map[string]any{
				"a": map[string]any{"type": "string", "title": ev("atitle"), "description": ev("adesc"), "examples": []string{ev("aex")}}}}))},
		{Name: ev("tname2"), Annotations: wire.ToolAnnotations{Title: ev("tatitle")}},
		{Name: "fails"}, {Name: "errors"}, {Name: "progress"},
	}
	// Built here: the calls run in commands' goroutines, where t.Fatal must not.
	rawType, structured := mustJSON(t, map[string]string{"type": ev("rtype")}), mustJSON(t, map[string]string{"k": ev("rsc")})
	jsonText := mustJSON(t, []string{ev("rcjson")})
	e.callFn = func(ctx context.Context, tool string, _ map[string]any, onProgress func(client.CallProgress)) (*wire.CallToolResult, error) {
		switch tool {
		case "fails":
			return &wire.CallToolResult{IsError: true, Content: []wire.ContentBlock{{Type: "text", Text: ev("etext")}}}, nil
		case "errors":
			return nil, errors.New(ev("cerr"))
		case "progress":
			onProgress(client.CallProgress{Progress: 1, Total: 3, Message: ev("prog")})
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &wire.CallToolResult{Content: []wire.ContentBlock{{Type: "text", Text: ev("pdone")}}}, nil
		}
		return &wire.CallToolResult{
			Content: []wire.ContentBlock{
				{Type: "text", Text: ev("rtext")},
				wire.NewBlock("resource_link", wire.BlockDetails{URI: ev("rluri"), Name: ev("rlink"), Description: ev("rldesc"), MimeType: ev("rmime"), Size: &size}),
				wire.NewBlock("image", wire.BlockDetails{MimeType: ev("imime"), Data: "AAAA"}),
				wire.NewBlock("resource", wire.BlockDetails{Resource: &wire.ResourceContents{URI: ev("remb"), MimeType: "text/plain", Text: ev("rembt")}}),
				{Type: ev("rtype"), Raw: json.RawMessage(rawType)},
			},
			StructuredContent: json.RawMessage(structured),
		}, nil
	}

	e.resources[srv] = []wire.Resource{
		{URI: ev("ruuri"), Name: ev("runame"), Title: ev("rutitle"), Description: ev("rudesc"), MimeType: ev("rumime")},
		{URI: "data://json", Name: "json", MimeType: "application/json"},
		{URI: "data://broken", Name: "broken"},
	}
	e.readFn = func(_ context.Context, uri string) ([]wire.ResourceContents, error) {
		switch uri {
		case "data://json":
			return []wire.ResourceContents{{URI: uri, MimeType: "application/json", Text: jsonText}}, nil
		case "data://broken":
			return nil, errors.New(ev("rerr"))
		}
		return []wire.ResourceContents{{URI: ev("rcuri"), MimeType: ev("rcmime"), Text: ev("rctext")},
			{URI: ev("rcblob"), MimeType: "image/png", Blob: "AAAA"}}, nil
	}

	e.prompts[srv] = []wire.Prompt{{Name: ev("gname"), Title: ev("gtitle"), Description: ev("gdesc"),
		Arguments: []wire.PromptArgument{{Name: ev("gargname"), Title: ev("gargtitle"), Description: ev("gargdesc"), Required: true}}}}
	e.getFn = func(string, map[string]string) (*wire.GetPromptResult, error) {
		return &wire.GetPromptResult{Description: ev("gresdesc"), Messages: []wire.PromptMessage{
			{Role: ev("grole"), Content: wire.ContentBlock{Type: "text", Text: ev("gmsg")}},
			{Role: "user", Content: wire.NewBlock("resource_link", wire.BlockDetails{URI: ev("gluri"), Name: ev("glname")})},
		}}, nil
	}

	jk := question.Key{Server: srv, Delivery: question.ServerRequest, RequestID: jsonrpc.StringID(ev("jrid"))}
	e.journal.Record(question.JournalEntry{Key: jk, Server: srv, Kind: question.Withdrawn, Reason: ev("jr"), At: t0,
		Origin: question.Origin{Kind: question.OriginToolCall, Name: ev("jorigin"), CallID: jsonrpc.IntID(4)}})
	e.journal.Record(question.JournalEntry{Key: reqKey(two, 9), Server: two, Kind: question.Decline, At: t0})
}

// evilPrompts are the prompts of the tour, in the order of paneWants.
func evilPrompts(t *testing.T, srv string) []*question.Question {
	t.Helper()
	form1 := mustJSON(t, map[string]any{"type": "object", "properties": map[string]any{
		"a": map[string]any{"type": "string", "title": ev("ptitle"), "description": ev("pdesc")},
		// A property without a title is labelled by its name.
		ev("pname"): map[string]any{"type": "string"},
		"c": map[string]any{"type": "string", "title": "pick", "oneOf": []any{
			map[string]string{"const": "x", "title": ev("otitle")}, map[string]string{"const": "y", "title": "plain"}}},
	}, "required": []string{"c"}})
	form2 := mustJSON(t, map[string]any{"type": "object", "properties": map[string]any{
		"e": map[string]any{"type": "string", "title": ev("etitle"), "enum": []string{"x", "y"}, "enumNames": []string{"fine", ev("ename")}},
		"f": map[string]any{"type": "string", "title": "values", "enum": []string{ev("fval"), "z"}},
		"m": map[string]any{"type": "array", "title": "many", "items": map[string]any{"anyOf": []any{
			map[string]string{"const": "p", "title": ev("mtitle")}, map[string]string{"const": "q", "title": "Q"}}}},
		"b": map[string]any{"type": "boolean", "title": ev("btitle"), "description": ev("bdesc")},
		"n": map[string]any{"type": "number", "title": "n", "description": ev("ndesc")},
	}})

	p1 := formPrompt(t, srv, 1, ev("msg"), form1)
	p1.Key.RequestID = jsonrpc.StringID(ev("rid"))
	p1.Origin.Name = ev("origin")
	p2 := formPrompt(t, srv, 2, ev("msg2"), form2)
	url1 := &question.Question{Key: reqKey(srv, 3), Server: srv, Mode: question.ModeURL, Message: ev("umsg"),
		URL: "https://ex.example/" + ev("url"), ElicitationID: ev("eid"), Arrived: t0}
	// A URL that parses: its user name (percent-encoded RLO) and path are
	// server text the warnings quote.
	url2 := &question.Question{Key: reqKey(srv, 4), Server: srv, Mode: question.ModeURL, Message: ev("umsg2"),
		URL: "http://us%E2%80%AEer@xn--evl-abc.example/p\u202eath?q=\u2066", Arrived: t0}
	task := formPrompt(t, srv, 5, ev("tmsg"), nameSchema)
	task.Key = question.Key{Server: srv, Delivery: question.TaskInput, TaskID: ev("tid"), Input: ev("tin")}
	task.Origin = question.Origin{Kind: question.OriginTask, TaskID: ev("tid"), Name: ev("tname")}
	input := formPrompt(t, srv, 6, ev("imsg"), nameSchema)
	input.Key = question.Key{Server: srv, Delivery: question.InputRequest, CallID: jsonrpc.StringID(ev("cid")), Input: ev("cin")}
	input.Origin = question.Origin{Kind: question.OriginResource, Name: ev("ruuri"), CallID: jsonrpc.StringID(ev("cid"))}
	return []*question.Question{p1, p2, url1, url2, task, input}
}

// evilTraffic records an HTTP exchange whose ids, method, params, URL,
// headers and event id are evil, a server request, a notification, an
// undecodable frame, a cancel and a transport error.
func evilTraffic(br *Bridge, srv string) {
	url := "http://127.0.0.1/" + ev("url")
	enc := func(v any) []byte { b, _ := json.Marshal(v); return b }
	id := ev("fid")
	sent := http.Header{"Mcp-Method": {"tools/call"}, "Mcp-Name": {ev("hname")}}
	received := http.Header{"Mcp-Session-Id": {ev("hdr")}, "X-" + ev("hkey"): {"v"}}
	frames := []client.Frame{
		{Dir: client.Out, Raw: enc(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]string{"name": ev("fname")}}),
			HTTP: &client.HTTPInfo{Method: "POST", URL: url, Header: sent}},
		{Dir: client.In, Raw: enc(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]string{"x": ev("fres")}}),
			HTTP: &client.HTTPInfo{Method: "POST", URL: url, Status: 200, Header: received, EventID: ev("fevid")}},
		{Dir: client.In, Raw: enc(map[string]any{"jsonrpc": "2.0", "id": 7, "method": ev("fmeth"), "params": map[string]string{"p": ev("fparam")}})},
		{Dir: client.In, Raw: enc(map[string]any{"jsonrpc": "2.0", "method": "notifications/message", "params": map[string]string{"data": ev("fdata")}})},
		{Dir: client.In, Raw: []byte(ev("fraw")), Err: errors.New(ev("ferr"))},
		{Dir: client.Out, Err: errors.New(ev("fcancel")), HTTP: &client.HTTPInfo{Method: "POST", URL: url}},
		{Dir: client.In, Err: errors.New(ev("ftrans")), HTTP: &client.HTTPInfo{Method: ev("hmeth"), URL: url, Status: 500, Header: received}},
	}
	for i, f := range frames {
		f.Time = t0.Add(time.Duration(i) * time.Millisecond)
		br.Frame(srv, f)
	}
}

// evilTasks are three tasks whose ids, tools, messages, results and
// errors are evil.
func evilTasks(t *testing.T, srv string) []client.Task {
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	return []client.Task{
		{Server: srv, ID: ev("tkid1"), Tool: ev("tktool"), Design: client.TaskDesignCore, Status: client.TaskWorking,
			StatusMessage: ev("tkmsg"), CreatedAt: at(-3), LastUpdatedAt: at(0), TTL: time.Minute, Polls: 1},
		{Server: srv, ID: ev("tkid2"), Tool: "t", Design: client.TaskDesignCore, Status: client.TaskCompleted, Ended: true,
			ImmediateResponse: ev("tkimm"), CreatedAt: at(-2), LastUpdatedAt: at(0), Polls: 2,
			Result: &wire.CallToolResult{Content: []wire.ContentBlock{{Type: "text", Text: ev("tkres")}},
				StructuredContent: json.RawMessage(mustJSON(t, map[string]string{"k": ev("tksc")}))}},
		{Server: srv, ID: ev("tkid3"), Design: client.TaskDesignCore, Status: client.TaskFailed, Ended: true,
			Err: errors.New(ev("tkerr")), CreatedAt: at(-1), LastUpdatedAt: at(0), Polls: 3},
	}
}
