package ui

import (
	"context"
	"image/color"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/themes"
)

// Options configure the Model; the zero value works.
type Options struct {
	// Theme is a theme name for themes.Lookup ("" = charm). An unknown
	// name falls back to charm with a notice.
	Theme string
	// Context is the parent of every call the UI starts; cmd cancels it on
	// quit. nil means context.Background().
	Context context.Context

	// The rest are seams for tests; cmd/elicit leaves them zero.

	// OpenURL opens a URL-mode link in the system browser; nil uses
	// xdg-open (open on macOS). Tests inject a recorder.
	OpenURL func(url string) error
	// Now is the clock; nil means time.Now. Tests fix it.
	Now func() time.Time
	// ArmDelay is how long a prompt must have been on screen before a key
	// may answer it (Enter, Esc, ctrl+x, a click on Decline): 0 means
	// 300 ms; negative, none (tests that answer at once).
	ArmDelay time.Duration
	// ExportDir is where traffic exports go ("" = the working directory).
	ExportDir string
	// StartView names the tab shown first ("" = Questions): cmd/elicit
	// starts on "Agent" when it runs ACP agents and no server.
	StartView string
	// Attached: the TUI is on a session that outlives it (elicit attach):
	// quitting leaves its questions open in the session, so it asks
	// nothing first, and the help says so.
	Attached bool
	// Getenv reads the environment the theme honours (NO_COLOR); nil is
	// os.Getenv. Under elicit attach it is the attaching terminal's.
	Getenv func(string) string
}

// Model is the TUI's only tea.Model. It owns the viewCtx its screens
// share, the registry of screens (tabs) and the prompt panes; Update
// routes every message to a named handler.
type Model struct {
	viewCtx
	bridge *Bridge
	tabs   []tab
	// prompts is tabs[viewPrompts]; the Model opens and ends its panes.
	prompts *promptsView
	view    viewID // the tab on show

	isDark bool
	// notice is what elicit says to the person, on lines of its own
	// above the status bar, since noticeAt (notice.go).
	notice   string
	noticeAt time.Time
	showHelp bool
	// helpScroll is the help overlay's first line shown (renderHelp keeps
	// it in range).
	helpScroll int
	// ticking: the waiting-time tick is armed, due at tickAt; tickGen
	// drops one armed before a sooner one replaced it.
	ticking bool
	tickAt  time.Time
	tickGen int
	// quitAsked: ctrl+c was pressed once with questions open; the next
	// one quits (quit in input.go).
	quitAsked bool
	// readers are the long texts open in a reader, one per tab at most
	// (reader.go).
	readers map[viewID]*reader
}

// New builds the model. bridge must be the Bridge the engine prompts and
// observes through.
func New(engine Engine, bridge *Bridge, opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ArmDelay == 0 {
		opts.ArmDelay = defaultArmDelay
	}
	if opts.OpenURL == nil {
		opts.OpenURL = openInBrowser
	}
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	m := &Model{bridge: bridge, isDark: true}
	m.viewCtx = viewCtx{engine: engine, ctx: ctx, opts: opts, streams: bridge.streams, agentLogs: bridge.agents, keys: newKeyMap(),
		// Dark until the terminal says otherwise, forms too: huh assumes
		// light, and the light palette's text (235) on a dark terminal
		// that never answers (tmux without a client) is near-invisible.
		bg: tea.BackgroundColorMsg{Color: color.Black}}
	if opts.Attached {
		m.keys.Quit.SetHelp("ctrl+c", "detach (the session keeps running, its questions open)")
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	th, err := themes.LookupEnv(opts.Theme, getenv)
	if err != nil {
		th, _ = themes.LookupEnv("", getenv)
		m.notice = err.Error()
	}
	m.theme = th
	m.st = th.Styles(m.isDark)
	m.prompts = newPromptsView()
	m.tasksOpen = m.prompts.taskQuestions
	m.tabs = newTabs(m.prompts)
	m.setView(viewPrompts)
	for i, t := range m.tabs {
		if t.name == opts.StartView {
			m.setView(viewID(i))
		}
	}
	return m
}

// Init asks the terminal for its background (huh starts out assuming a
// light one), loads the server list and what the screens show first.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.loadServers()}
	for _, t := range m.tabs {
		if l, ok := t.screen.(loader); ok {
			cmds = append(cmds, l.load(&m.viewCtx))
		}
	}
	return tea.Batch(cmds...)
}

// setView puts tab v on show without entering it.
func (m *Model) setView(v viewID) {
	m.view, m.shown = v, m.tabs[v].screen
}

// showView shows tab v and lets its screen refresh what it shows.
func (m *Model) showView(v viewID) tea.Cmd {
	m.setView(v)
	return m.shown.enter(&m.viewCtx)
}

// typing reports whether keys go to a form field, in which case plain
// letters (like ?) are text, not commands.
func (m *Model) typing() bool {
	if p := m.openPager(); p != nil && p.typingQuery() {
		return true
	}
	if m.readers[m.view] != nil {
		return false // the reader covers the screen's fields
	}
	t, ok := m.shown.(typist)
	return ok && t.typing()
}
