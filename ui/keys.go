package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// keyMap holds every binding, so a key that is not here does not exist;
// the help overlay names each (helpSections), and TestHelpNamesEveryBinding
// walks the fields to hold that.
//
// Global keys work while a form field has focus, so they avoid everything
// huh, textinput and textarea use (tab, enter, ctrl+n/p/k/j/u/d/a/e/w/b/f/
// h/v/t/g): F-keys, ctrl+o, ctrl+x, alt+digits and ctrl+c (AGENTS.md, charm
// v2 facts: free keys). ctrl+r, ctrl+l and ctrl+s are the tool argument
// form's, for the same reason; ctrl+s and ctrl+l are also the questions
// view's (tiles, clear ended), which has no such form.
type keyMap struct {
	// Global; the F-keys of the views come from the registry (tabs.go).
	Quit, Help, NextPane, PrevPane, JumpPane key.Binding

	// The questions view: tiles or one pane, clear every ended pane.
	Tiles, ClearEnded key.Binding
	// A form prompt; SaveMedia only on a sampling one.
	Submit, Decline, Cancel, Dismiss, SaveMedia key.Binding
	// A prompt whose body does not fit its frame: its window moves.
	PaneMore key.Binding
	// A URL prompt.
	OpenURL, CopyURL, Consent key.Binding
	// An accepted URL elicitation of a -32042: done in the browser, retry.
	URLDone key.Binding

	// Lists (only when no field has focus).
	Up, Down, PageUp, PageDown, Top, Bottom, Select, Back, HelpQ key.Binding
	// The tools, resources and prompt templates lists.
	ListFilter key.Binding
	// Tools and calls; ToolsCalls moves between the tools and the calls.
	CancelCall, Reconnect, NextServer, ToolDetails, CallAgain, EditCall, ToolsCalls key.Binding
	// OpenApp hosts the selected tool's MCP App (elicit app's host).
	OpenApp key.Binding
	// The argument form of a tool: its arguments as JSON text, and the
	// call from there (Enter is a new line in it).
	ArgsJSON, SendJSON key.Binding
	// Traffic.
	Filter, Export, Follow key.Binding
	// Logs.
	LogLevel key.Binding
	// Resources and server prompt templates.
	ReadResource, GetPrompt, Subscribe key.Binding
	// The suggestions (completion/complete) listed under a prompt's
	// arguments or a template's variables, while the list is shown: the
	// keys a one-line field would use are taken back from it only then.
	CompleteNext, CompletePrev, CompleteTake, CompleteClose key.Binding
	// Tasks, and running a tool as one.
	CancelTask, TaskPrompt, ListTasks, TaskToggle key.Binding
	// The agent view (its footer and the permission pane's say them too).
	AgentSend, AgentStop, AgentNext, AgentRestart, AgentSettings, AgentKillTerm, AgentSessions, AgentTermPanes key.Binding
	// The roots view.
	RootAdd, RootAddAll, RootRemove, RootRename key.Binding
	// The findings view: the selected finding's frame, in the traffic view.
	ShowFrame key.Binding
	// The pager (pager.go) and a reader's way out (reader.go), besides
	// the list keys above.
	Search, MatchNext, MatchPrev, Wrap, Left, Right, CopyShown, CopyAll, PageBack, PageFwd, CloseReader key.Binding
}

func newKeyMap() keyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		Quit:     b("ctrl+c", "quit (asks first if prompts are open)", "ctrl+c"),
		Help:     b("F1 / ?", "this help (? only outside fields)", "f1"),
		NextPane: b("F2 / ctrl+o", "next prompt", "f2", "ctrl+o"),
		PrevPane: b("F3", "previous prompt", "f3"),
		JumpPane: b("alt+1…9", "jump to prompt n (or click the strip)",
			"alt+1", "alt+2", "alt+3", "alt+4", "alt+5", "alt+6", "alt+7", "alt+8", "alt+9"),

		// ctrl+s: split the screen; ctrl+l: clear, as in a shell.
		Tiles:      b("ctrl+s", "tiles (up to four) or one at a time", "ctrl+s"),
		ClearEnded: b("ctrl+l", "clear every ended prompt", "ctrl+l"),

		Submit:   b("enter", "next field / accept on the last one", "enter"),
		Decline:  b("ctrl+x", "decline (say no)", "ctrl+x"),
		Cancel:   b("esc", "cancel (a filter closes first)", "esc"),
		Dismiss:  b("enter / ctrl+w", "clear an ended prompt", "enter", "ctrl+w"),
		PaneMore: b("pgup / pgdn", "a prompt that says more ↓: scroll it (the wheel too)", "pgup", "pgdown"),
		// alt+w (write): no view, huh field, textinput or textarea uses it.
		SaveMedia: b("alt+w", "sampling: save its images, audio", "alt+w"),

		OpenURL: b("o", "open the URL in the browser", "o"),
		CopyURL: b("c", "copy the URL (OSC 52)", "c"),
		Consent: b("enter", "accept (consent only)", "enter"),
		URLDone: b("r", "accepted -32042: done, send it again", "r"),

		Up:       b("↑ / k", "up", "up", "k"),
		Down:     b("↓ / j", "down", "down", "j"),
		PageUp:   b("pgup", "page up", "pgup"),
		PageDown: b("pgdn", "page down", "pgdown"),
		Top:      b("home / g", "first", "home", "g"),
		Bottom:   b("end / G", "last (traffic: follow)", "end", "G"),
		Select:   b("enter", "open / call / show", "enter"),
		Back:     b("esc", "back / close", "esc"),
		HelpQ:    b("?", "help", "?"),

		ListFilter: b("/", "filter the list (esc clears)", "/"),

		CancelCall:  b("x", "cancel the selected running call", "x"),
		Reconnect:   b("r", "reconnect the selected server", "r"),
		NextServer:  b("s", "next server (traffic, logs: filter)", "s"),
		ToolDetails: b("d", "the tool's details, schemas", "d"),
		CallAgain:   b("a", "call again, same arguments", "a"),
		EditCall:    b("e", "calls list: change the call's arguments, call", "e"),
		ToolsCalls:  b("tab", "the tools list ⇄ the calls list", "tab"),
		OpenApp:     b("o", "open the tool's MCP App (a local page, $BROWSER)", "o"),
		// Free in huh fields and the textarea (AGENTS.md: free keys).
		ArgsJSON: b("ctrl+l", "arguments as JSON, and back", "ctrl+l"),
		SendJSON: b("ctrl+s", "call with the JSON arguments", "ctrl+s"),

		Filter: b("/", "filter traffic by method", "/"),
		Export: b("e", "export traffic to a JSONL file", "e"),
		Follow: b("f", "follow new traffic", "f"),

		LogLevel: b("l", "set a server's log level (setLevel)", "l"),

		ReadResource: b("enter", "read the resource (resources/read)", "enter"),
		GetPrompt:    b("enter", "fill in its arguments (prompts/get)", "enter"),
		Subscribe:    b("u", "(un)subscribe (resources/subscribe)", "u"),

		// While a list is shown only: tab and enter are the form's again
		// when nothing is highlighted, esc then closes the form.
		CompleteNext:  b("↓ / ctrl+n", "next suggestion", "down", "ctrl+n"),
		CompletePrev:  b("↑ / ctrl+p", "previous suggestion", "up", "ctrl+p"),
		CompleteTake:  b("tab / enter", "take the highlighted suggestion", "tab", "enter"),
		CompleteClose: b("esc", "close the suggestions", "esc"),

		CancelTask: b("x", "cancel the task (tasks/cancel)", "x"),
		TaskPrompt: b("p", "go to the task's open prompt", "p"),
		ListTasks:  b("r", "tasks/list on every server", "r"),
		// ctrl+r in the argument form, where t is text.
		TaskToggle: b("t / ctrl+r", "run as a task or not (optional ones)", "t", "ctrl+r"),

		AgentSend: b("enter", "send the prompt (tab: a /command)", "enter"),
		AgentStop: b("esc", "stop the turn; twice: stop waiting", "esc"),
		AgentNext: b("ctrl+s", "the next agent", "ctrl+s"),
		// ctrl+r: free in the prompt box, as in the argument form.
		AgentRestart:  b("ctrl+r", "start it again (a new session)", "ctrl+r"),
		AgentSettings: b("alt+m", "its mode and config options", "alt+m"),
		AgentKillTerm: b("alt+k", "kill its newest running terminal", "alt+k"),
		AgentSessions: b("alt+h", "its sessions (history): load, resume, delete", "alt+h"),
		// In the panes: tab/←→ the next one, k kills it, esc goes back.
		AgentTermPanes: b("alt+o", "its terminals as panes (k kills one)", "alt+o"),

		RootAdd:    b("a", "add a root (a path) to this server", "a"),
		RootAddAll: b("A", "add a root to every server", "A"),
		RootRemove: b("d", "remove the selected root", "d"),
		RootRename: b("e", "rename the selected root", "e"),

		ShowFrame: b("enter", "its frame in traffic (paused)", "enter"),

		Search:      b("/", "search", "/"),
		MatchNext:   b("n", "next match", "n"),
		MatchPrev:   b("N", "previous match", "N"),
		Wrap:        b("w", "wrap on/off", "w"),
		Left:        b("←", "sideways, unwrapped", "left"),
		Right:       b("→", "sideways, unwrapped", "right"),
		CopyShown:   b("y", "copy what is shown (OSC 52)", "y"),
		CopyAll:     b("Y", "copy all of it (OSC 52)", "Y"),
		PageBack:    b("b", "page up", "b"),
		PageFwd:     b("space", "page down", "space"),
		CloseReader: b("q", "back from reading", "q"),
	}
}

// helpSections groups the help overlay's lines; tabs are the views'
// keys (tabs.go). Every binding of the keyMap is named by a line here:
// TestHelpNamesEveryBinding walks them all, so a key added without a
// help line fails it.
func (k *keyMap) helpSections(tabs []*key.Binding) []helpSection {
	everywhere := []helpLine{one(&k.Quit), line("F1 / ?", k.Help.Help().Desc, &k.Help, &k.HelpQ),
		line("F2 / ctrl+o, F3", "next, previous prompt", &k.NextPane, &k.PrevPane), one(&k.JumpPane)}
	// The last two tabs (alt keys only: findings, skills) share a line,
	// so that the help still fits 120×56 in two columns.
	n := len(tabs)
	if n >= 2 && altOnly(tabs[n-2]) && altOnly(tabs[n-1]) {
		n -= 2
	}
	for _, t := range tabs[:n] {
		everywhere = append(everywhere, one(t))
	}
	if n < len(tabs) {
		a, b := tabs[n].Help(), tabs[n+1].Help()
		everywhere = append(everywhere, line(a.Key+" · "+b.Key, a.Desc+" · "+b.Desc, tabs[n], tabs[n+1]))
	}
	return []helpSection{
		{"Everywhere", everywhere},
		{"Form prompt", []helpLine{one(&k.Submit), one(&k.Decline), one(&k.Cancel), one(&k.Dismiss),
			one(&k.ClearEnded), one(&k.Tiles), one(&k.SaveMedia)}},
		{"URL prompt", []helpLine{one(&k.OpenURL), one(&k.CopyURL), one(&k.Consent), one(&k.URLDone)}},
		{"Lists", []helpLine{line("↑↓ / k j", "up, down", &k.Up, &k.Down),
			line("pgup pgdn", "page up, down; a prompt's more ↓", &k.PageUp, &k.PageDown, &k.PaneMore),
			line("home/g end/G", "first, last (traffic: follow)", &k.Top, &k.Bottom),
			one(&k.Select), one(&k.Back), one(&k.ListFilter), one(&k.NextServer)}},
		{"Tools (F5)", []helpLine{one(&k.CancelCall), one(&k.Reconnect), one(&k.TaskToggle), one(&k.ToolsCalls),
			line("d · a · e · o", "details · call again · edit, call · its app", &k.ToolDetails, &k.CallAgain, &k.EditCall, &k.OpenApp),
			line("ctrl+l · ctrl+s", "arguments as JSON · call with them", &k.ArgsJSON, &k.SendJSON)}},
		{"Traffic (F6)", []helpLine{one(&k.Filter), one(&k.Export), one(&k.Follow)}},
		{"Reading (results, frames, logs, resources)", []helpLine{
			line("/ n N", "search, next, previous match", &k.Search, &k.MatchNext, &k.MatchPrev),
			line("w ← →", "wrap on/off, sideways", &k.Wrap, &k.Left, &k.Right),
			line("space b", "page down, up", &k.PageFwd, &k.PageBack),
			line("y / Y", "copy what is shown / all (OSC 52)", &k.CopyShown, &k.CopyAll),
			line("esc / q", "back", &k.Back, &k.CloseReader)}},
		// enter is Select there.
		{"Logs (F8)", []helpLine{line("enter", "read the whole log", &k.Select), one(&k.LogLevel)}},
		{"Resources (F9)", []helpLine{one(&k.ReadResource), one(&k.Subscribe)}},
		// The suggestions are in a template's variables too.
		{"Prompts (F10: MCP prompts/list)", []helpLine{one(&k.GetPrompt),
			line("↓↑ ctrl+n/p", "move in a list of suggested values", &k.CompleteNext, &k.CompletePrev),
			line("tab/enter · esc", "take the highlighted · close list", &k.CompleteTake, &k.CompleteClose)}},
		{"Tasks (F11)", []helpLine{one(&k.CancelTask), one(&k.TaskPrompt), one(&k.ListTasks)}},
		{"Roots (alt+r)", []helpLine{one(&k.RootAdd), one(&k.RootAddAll), one(&k.RootRemove), one(&k.RootRename)}},
		{"Agent (alt+a)", []helpLine{one(&k.AgentSend), one(&k.AgentStop), one(&k.AgentNext), one(&k.AgentRestart),
			// Paired, so that the help still fits 120×40.
			line("alt+m · alt+h", "mode, config · sessions", &k.AgentSettings, &k.AgentSessions),
			line("alt+k · alt+o", "kill a terminal · panes", &k.AgentKillTerm, &k.AgentTermPanes)}},
		// One section for the two alt-only views, so that the help still
		// fits 120×56; the skills view's keys are Select and Back.
		{"Findings (alt+i) · Skills (alt+l)", []helpLine{one(&k.ShowFrame),
			line("enter · esc", "a skill: read SKILL.md · its files", &k.Select, &k.Back)}},
	}
}

type helpSection struct {
	title string
	lines []helpLine
}

// helpLine is one line of the help: what it says, and the bindings it
// stands for (one line may name several keys).
type helpLine struct {
	key, desc string
	of        []*key.Binding
}

// one is a binding's own help line.
func one(b *key.Binding) helpLine {
	h := b.Help()
	return helpLine{key: h.Key, desc: h.Desc, of: []*key.Binding{b}}
}

// altOnly: the binding has no F-key.
func altOnly(b *key.Binding) bool {
	for _, k := range b.Keys() {
		if !strings.HasPrefix(k, "alt+") {
			return false
		}
	}
	return true
}

// line is one help line for several bindings.
func line(keys, desc string, of ...*key.Binding) helpLine {
	return helpLine{key: keys, desc: desc, of: of}
}
