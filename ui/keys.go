package ui

import "charm.land/bubbles/v2/key"

// keyMap holds every binding; the help overlay is generated from it, so a
// key that is not here does not exist.
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
	// A URL prompt.
	OpenURL, CopyURL, Consent key.Binding
	// An accepted URL elicitation of a -32042: done in the browser, retry.
	URLDone key.Binding

	// Lists (only when no field has focus).
	Up, Down, PageUp, PageDown, Top, Bottom, Select, Back, HelpQ key.Binding
	// The tools, resources and prompt templates lists.
	ListFilter key.Binding
	// Tools and calls.
	CancelCall, Reconnect, NextServer, ToolDetails, CallAgain, EditCall key.Binding
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
	// The agent view. The help has no room
	// for them: the agent's tab line says enter and esc, the view's and
	// the permission pane's footers say the rest.
	AgentSend, AgentStop, AgentNext, AgentRestart key.Binding

	// Help-only lines that stand for several list keys at once.
	helpMove, helpPage, helpEnds, helpToolKeys, helpJSON key.Binding
	// The suggestions' keys (CompleteNext… above), two to a line.
	helpSuggest, helpSuggestTake key.Binding
	// F2 and F3 on one help line: with the agent and findings tabs the
	// help is one line over 48 rows otherwise.
	helpPanes key.Binding
	// The pager's keys (pager.go), for the help overlay.
	helpSearch, helpWrap, helpCopy, helpReadLog key.Binding
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

		Submit:  b("enter", "next field / accept on the last one", "enter"),
		Decline: b("ctrl+x", "decline (say no)", "ctrl+x"),
		Cancel:  b("esc", "cancel (a select's filter closes first)", "esc"),
		Dismiss: b("enter / ctrl+w", "clear an ended prompt", "enter", "ctrl+w"),
		// alt+w (write): no view, huh field, textinput or textarea uses it.
		SaveMedia: b("alt+w", "sampling: write its images and audio to files", "alt+w"),

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
		// Free in huh fields and the textarea (AGENTS.md: free keys).
		ArgsJSON: b("ctrl+l", "arguments as JSON, and back", "ctrl+l"),
		SendJSON: b("ctrl+s", "call with the JSON arguments", "ctrl+s"),

		Filter: b("/", "filter traffic by method", "/"),
		Export: b("e", "export traffic to a JSONL file", "e"),
		Follow: b("f", "follow new traffic", "f"),

		LogLevel: b("l", "set a server's log level (setLevel)", "l"),

		ReadResource: b("enter", "read the resource (resources/read)", "enter"),
		GetPrompt:    b("enter", "fill in arguments, get it (prompts/get)", "enter"),
		Subscribe:    b("u", "subscribe / unsubscribe (resources/subscribe)", "u"),

		// While a list is shown only: tab and enter are the form's again
		// when nothing is highlighted, esc then closes the form.
		CompleteNext:  b("↓ / ctrl+n", "next suggestion", "down", "ctrl+n"),
		CompletePrev:  b("↑ / ctrl+p", "previous suggestion", "up", "ctrl+p"),
		CompleteTake:  b("tab / enter", "take the highlighted suggestion", "tab", "enter"),
		CompleteClose: b("esc", "close the suggestions", "esc"),

		CancelTask: b("x", "cancel the selected task (tasks/cancel)", "x"),
		TaskPrompt: b("p", "go to the task's open prompt", "p"),
		ListTasks:  b("r", "tasks/list on every server", "r"),
		// ctrl+r in the argument form, where t is text.
		TaskToggle: b("t / ctrl+r", "run as a task or not (optional ones)", "t", "ctrl+r"),

		AgentSend: b("enter", "agent: send the prompt", "enter"),
		AgentStop: b("esc", "agent: stop the turn (session/cancel)", "esc"),
		AgentNext: b("ctrl+s", "agent: the next agent", "ctrl+s"),
		// ctrl+r: free in the prompt box, as in the argument form.
		AgentRestart: b("ctrl+r", "agent: start it again (a new session)", "ctrl+r"),

		helpMove:        key.NewBinding(key.WithHelp("↑↓ / k j", "up, down")),
		helpPage:        key.NewBinding(key.WithHelp("pgup pgdn", "page up, down")),
		helpEnds:        key.NewBinding(key.WithHelp("home/g end/G", "first, last (traffic: follow)")),
		helpToolKeys:    key.NewBinding(key.WithHelp("d · a · e", "details · call again · edit, call")),
		helpJSON:        key.NewBinding(key.WithHelp("ctrl+l · ctrl+s", "arguments as JSON · call with them")),
		helpPanes:       key.NewBinding(key.WithHelp("F2 / ctrl+o, F3", "next, previous prompt")),
		helpSuggest:     key.NewBinding(key.WithHelp("↓↑ ctrl+n/p", "move in a list of suggested values")),
		helpSuggestTake: key.NewBinding(key.WithHelp("tab/enter · esc", "take the highlighted · close list")),

		helpSearch:  key.NewBinding(key.WithHelp("/ n N", "search, next, previous match")),
		helpWrap:    key.NewBinding(key.WithHelp("w ← →", "wrap on/off, sideways; esc/q back")),
		helpCopy:    key.NewBinding(key.WithHelp("y / Y", "copy what is shown / all (OSC 52)")),
		helpReadLog: key.NewBinding(key.WithHelp("enter", "read the whole log")),
	}
}

// helpSections groups the bindings for the help overlay; tabs are the
// views' F-keys.
func (k keyMap) helpSections(tabs []key.Binding) []helpSection {
	return []helpSection{
		{"Everywhere", append([]key.Binding{k.Quit, k.Help, k.helpPanes, k.JumpPane}, tabs...)},
		// SaveMedia is not listed (the overlay must fit 80×24): each image
		// or audio line of a sampling pane names it.
		{"Form prompt", []key.Binding{k.Submit, k.Decline, k.Cancel, k.Dismiss, k.ClearEnded, k.Tiles}},
		{"URL prompt", []key.Binding{k.OpenURL, k.CopyURL, k.Consent, k.URLDone, k.Decline}},
		{"Lists", []key.Binding{k.helpMove, k.helpPage, k.helpEnds, k.Select, k.Back, k.HelpQ, k.ListFilter}},
		{"Tools", []key.Binding{k.CancelCall, k.Reconnect, k.NextServer, k.TaskToggle, k.helpToolKeys, k.helpJSON}},
		{"Traffic", []key.Binding{k.Filter, k.Export, k.Follow, k.NextServer}},
		{"Reading (results, frames, logs, resources)", []key.Binding{k.helpSearch, k.helpWrap, k.helpCopy}},
		{"Logs", []key.Binding{k.helpReadLog, k.LogLevel, k.NextServer}},
		{"Resources", []key.Binding{k.ReadResource, k.Subscribe, k.Back, k.NextServer}},
		// esc and s are the Lists' and Resources' above; the suggestions
		// are in a template's variables too.
		{"Prompts (MCP prompts/list)", []key.Binding{k.GetPrompt, k.helpSuggest, k.helpSuggestTake}},
		{"Tasks", []key.Binding{k.Select, k.CancelTask, k.TaskPrompt, k.ListTasks}},
	}
}

type helpSection struct {
	title    string
	bindings []key.Binding
}
