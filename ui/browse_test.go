package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
)

var (
	keyF9     = tea.KeyPressMsg{Code: tea.KeyF9}
	keyF10    = tea.KeyPressMsg{Code: tea.KeyF10}
	keyPgDown = tea.KeyPressMsg{Code: tea.KeyPgDown}
)

// twoServers gives the fake engine a second server.
func twoServers(e *fakeEngine) {
	e.servers = append(e.servers, ServerStatus{Name: "two", State: client.StateReady, Protocol: "2025-06-18"})
}

func withResources(e *fakeEngine) {
	size := int64(8)
	e.resources["demo"] = []wire.Resource{
		{URI: "file:///notes.txt", Name: "notes", Title: "Notes", MimeType: "text/plain"},
		{URI: "mem://logo", Name: "logo", MimeType: "image/png", Size: &size},
		{URI: "data://cfg", Name: "cfg", MimeType: "application/json"},
		{URI: "file:///long.txt", Name: "long", MimeType: "text/plain"},
	}
	e.resources["two"] = []wire.Resource{{URI: "two://only", Name: "only-on-two"}}
	long := make([]string, 100)
	for i := range long {
		long[i] = fmt.Sprintf("row %03d", i+1)
	}
	e.contents = map[string][]wire.ResourceContents{
		"file:///notes.txt": {{URI: "file:///notes.txt", MimeType: "text/plain", Text: "line one\n" + hostile}},
		"mem://logo":        {{URI: "mem://logo", MimeType: "image/png", Blob: "iVBORw0KGgo="}},
		"data://cfg":        {{URI: "data://cfg", MimeType: "application/json", Text: `{"a":1,"b":[true]}`}},
		"file:///long.txt":  {{URI: "file:///long.txt", MimeType: "text/plain", Text: strings.Join(long, "\n")}},
	}
}

func mustShow(t *testing.T, d *driver, wants ...string) {
	t.Helper()
	s := d.screen()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("screen lacks %q:\n%s", w, s)
		}
	}
}

func TestResourcesListAndRead(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, twoServers, withResources)
		d.keys(keyF9)
		mustShow(t, d, "F9 Resources", "Resources of demo", "notes — Notes", "file:///notes.txt", "text/plain",
			"mem://logo", "image/png", "8 B")

		d.keys(keyEnter)
		mustShow(t, d, "resources/read file:///notes.txt", "line one")
		assertNoHostile(t, d.m.View().Content)

		d.keys(keyEsc, keyDown, keyEnter)
		mustShow(t, d, "[resource mem://logo image/png] binary, 8 B")
		if strings.Contains(d.screen(), "iVBORw0KGgo=") {
			t.Error("blob shown raw")
		}

		d.keys(keyEsc, keyDown, keyEnter)
		mustShow(t, d, `"a": 1,`, `"b": [`)

		// A long text pages.
		d.keys(keyEsc, keyDown, keyEnter)
		mustShow(t, d, "row 001", "lines 1–")
		if strings.Contains(d.screen(), "row 100") {
			t.Fatal("a 100-line text fits a 40-row screen?")
		}
		d.keys(tea.KeyPressMsg{Code: tea.KeyEnd})
		mustShow(t, d, "row 100", "of 101")
		if strings.Contains(d.screen(), "row 001") {
			t.Error("end did not scroll")
		}

		d.keys(keyEsc, key1('s'))
		mustShow(t, d, "Resources of two", "only-on-two")
		want := []string{"demo file:///notes.txt", "demo mem://logo", "demo data://cfg", "demo file:///long.txt"}
		if !cmp.Equal(d.eng.reads, want) {
			t.Fatalf("reads = %q, want %q", d.eng.reads, want)
		}
	})
}

func TestResourcesReloadOnListChanged(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withResources)
		d.keys(keyF9)
		d.eng.mu.Lock()
		d.eng.resources["demo"] = []wire.Resource{{URI: "new://one", Name: "fresh"}}
		d.eng.mu.Unlock()
		d.send(eventMsg{e: client.ListChanged{Server: "demo", What: "resources"}})
		mustShow(t, d, "fresh", "new://one")
		if n := strings.Count(strings.Join(d.eng.lists, "|"), "resources demo"); n != 2 {
			t.Fatalf("resources/list calls = %d, want 2", n)
		}
	})
}

// TestResourceReadCancelledOnBack: leaving a read that is still running
// cancels it, and its late result is not shown.
func TestResourceReadCancelledOnBack(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		cancelled := make(chan string, 1)
		d := newDriver(t, Options{}, withResources, func(e *fakeEngine) {
			e.readFn = func(ctx context.Context, uri string) ([]wire.ResourceContents, error) {
				<-ctx.Done()
				cancelled <- uri
				return []wire.ResourceContents{{URI: uri, Text: "too late"}}, nil
			}
		})
		d.keys(keyF9, keyEnter)
		mustShow(t, d, "reading…")
		d.keys(keyEsc)
		if got := recv(t, cancelled, "read cancellation"); got != "file:///notes.txt" {
			t.Fatalf("cancelled %q", got)
		}
		d.awaitLate(func(msg tea.Msg) bool { _, ok := msg.(resourceReadMsg); return ok })
		if s := d.screen(); strings.Contains(s, "too late") || !strings.Contains(s, "Resources of demo") {
			t.Fatalf("stale read shown:\n%s", s)
		}
	})
}

func withTemplates(e *fakeEngine) {
	e.prompts["demo"] = []wire.Prompt{
		{Name: "greet", Description: "Say hello", Arguments: []wire.PromptArgument{
			{Name: "name", Title: "Your name", Required: true},
			{Name: "style", Description: "formal or casual"},
		}},
		{Name: "plain", Title: "No arguments"},
	}
	e.getFn = func(name string, args map[string]string) (*wire.GetPromptResult, error) {
		return &wire.GetPromptResult{Description: "greeting " + hostile, Messages: []wire.PromptMessage{
			{Role: "user", Content: wire.ContentBlock{Type: "text", Text: "Hello, " + args["name"] + "!"}},
			{Role: "assistant", Content: wire.NewBlock("image", wire.BlockDetails{MimeType: "image/png", Data: "AAAA"})},
		}}, nil
	}
}

func TestTemplatesArgumentFormAndGet(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withTemplates)
		d.keys(keyF10)
		mustShow(t, d, "F10 Prompts", "Prompts of demo", "greet", "(name*, style)", "Say hello",
			"plain — No arguments")

		d.keys(keyEnter)
		mustShow(t, d, "arguments for greet", "Your name *", "style", "formal or casual")
		if !d.m.typing() {
			t.Fatal("the argument form does not take keys")
		}
		d.keys(keyEnter) // the required name is empty: refused
		if len(d.eng.gets) != 0 {
			t.Fatalf("prompts/get ran without its required argument: %+v", d.eng.gets)
		}
		d.typeText("Ann?")
		d.keys(keyEnter, keyEnter) // name, then the empty optional style
		want := []fakeGet{{"demo", "greet", map[string]string{"name": "Ann?"}}}
		if !cmp.Equal(d.eng.gets, want, cmp.AllowUnexported(fakeGet{})) {
			t.Fatalf("gets = %+v, want %+v", d.eng.gets, want)
		}
		mustShow(t, d, "prompts/get greet", "[user]", "Hello, Ann?!", "[assistant]", "[image image/png, 3 B]")
		assertNoHostile(t, d.m.View().Content)

		d.keys(keyEsc, keyDown, keyEnter) // no arguments: got at once
		if len(d.eng.gets) != 2 || d.eng.gets[1].name != "plain" || len(d.eng.gets[1].args) != 0 {
			t.Fatalf("gets = %+v", d.eng.gets)
		}
		mustShow(t, d, "prompts/get plain")
	})
}

func TestTemplatesFormEscAndF9Cycle(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withTemplates, withResources)
		d.keys(keyF9, keyF9) // F9 twice reaches the templates, for terminals that keep F10
		if d.m.viewName() != "Prompts" {
			t.Fatalf("view = %v after F9 F9", d.m.viewName())
		}
		d.keys(keyEnter)
		d.typeText("x")
		// A prompt arriving meanwhile does not take the keyboard away.
		p := formPrompt(t, "demo", 1, "q", nameSchema)
		d.open(p)
		if d.m.viewName() != "Prompts" {
			t.Fatal("a new prompt switched views while an argument form was being typed in")
		}
		d.keys(keyEsc)
		if d.templates().args != nil || len(d.eng.gets) != 0 {
			t.Fatalf("Esc did not close the form (gets %+v)", d.eng.gets)
		}
		d.noReply(p.Key)
	})
}

// TestHelpFitsAndListsNewViews: every section of the help overlay is on
// a 120×56 screen, in two columns (smaller ones scroll:
// TestHelpScrollsAt80x24, TestHelpNamesEveryBinding).
func TestHelpFitsAndListsNewViews(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		d.send(tea.WindowSizeMsg{Width: 120, Height: 56})
		d.keys(keyF1)
		s := d.screen()
		if strings.Contains(s, "scroll") {
			t.Errorf("the help scrolls at 120×56:\n%s", s)
		}
		for _, sec := range d.m.keys.helpSections(d.m.tabBindings()) {
			if !strings.Contains(s, sec.title) {
				t.Errorf("help lacks section %q", sec.title)
			}
			last := sec.lines[len(sec.lines)-1].desc
			if !strings.Contains(s, last) {
				t.Errorf("help cut off: %q of %q not shown", last, sec.title)
			}
		}
		for _, want := range []string{"F9", "F10", "resources/read", "prompts/get", "Skills (alt+l)"} {
			if !strings.Contains(s, want) {
				t.Errorf("help lacks %q", want)
			}
		}
	})
}

// TestHelpScrollsAt80x24: at 80×24 the help is one column that fits the
// screen and scrolls to its end; any other key closes it.
func TestHelpScrollsAt80x24(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		d.keys(keyF1)
		s := d.screen()
		if n := strings.Count(s, "\n") + 1; n > 24 {
			t.Fatalf("the help is %d rows at 80×24:\n%s", n, s)
		}
		for _, l := range strings.Split(s, "\n") {
			if ansi.StringWidth(l) > 80 {
				t.Fatalf("a help row is %d wide: %q", ansi.StringWidth(l), l)
			}
		}
		if !strings.Contains(s, "scroll") {
			t.Fatalf("the help does not say it scrolls:\n%s", s)
		}
		secs := d.m.keys.helpSections(d.m.tabBindings())
		last := secs[len(secs)-1].lines[len(secs[len(secs)-1].lines)-1].desc
		seen := strings.Contains(s, last)
		for range 40 {
			d.keys(tea.KeyPressMsg{Code: tea.KeyPgDown})
			seen = seen || strings.Contains(d.screen(), last)
		}
		if !seen {
			t.Errorf("scrolling never reached the help's last line %q:\n%s", last, d.screen())
		}
		if !d.m.showHelp {
			t.Fatal("scrolling closed the help")
		}
		d.keys(key1('x'))
		if d.m.showHelp {
			t.Error("another key did not close the help")
		}
	})
}
