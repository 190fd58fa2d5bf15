package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/themes"
)

// viewID names the main views.
type viewID int

const (
	viewPrompts viewID = iota
	viewTools
	viewTraffic
	viewJournal
	viewLogs
	viewResources
	viewTemplates
	viewTasks
)

// viewNames label the tabs; tab i is key F(i+4).
var viewNames = [...]string{"Prompts", "Tools", "Traffic", "Journal", "Logs", "Resources", "Templates", "Tasks"}

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
	// EndedLinger is how long an ended prompt's notice stays (5 s).
	EndedLinger time.Duration
	// ExportDir is where traffic exports go ("" = the working directory).
	ExportDir string
}

// Model is the TUI's only tea.Model. Its children (panes, views) are plain
// structs with methods; Update routes every message to a named handler.
type Model struct {
	engine Engine
	bridge *Bridge
	opts   Options
	ctx    context.Context
	keys   keyMap

	theme  *themes.Theme
	st     *themes.Styles
	isDark bool
	bg     tea.Msg // the last BackgroundColorMsg, for forms created later
	notice string  // one-line message on the status bar

	width, height int
	view          viewID
	showHelp      bool

	panes   []*pane // arrival order
	byKey   map[client.PromptKey]*pane
	byID    map[int]*pane
	focus   int // id of the pane with focus, 0 = none
	nextID  int
	ticking bool // the 1 s waiting-time tick is armed

	servers []ServerStatus
	tools   toolsView
	traffic trafficView
	journal journalView
	logs    logView
	spin    spinState

	resources resourcesView
	templates templatesView
	tasks     tasksView
}

// New builds the model. bridge must be the Bridge the engine prompts and
// observes through.
func New(engine Engine, bridge *Bridge, opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.EndedLinger <= 0 {
		opts.EndedLinger = 5 * time.Second
	}
	if opts.OpenURL == nil {
		opts.OpenURL = openInBrowser
	}
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	m := &Model{
		engine: engine,
		bridge: bridge,
		opts:   opts,
		ctx:    ctx,
		keys:   newKeyMap(),
		byKey:  map[client.PromptKey]*pane{},
		byID:   map[int]*pane{},
		isDark: true,
	}
	th, err := themes.Lookup(opts.Theme)
	if err != nil {
		th, _ = themes.Lookup("")
		m.notice = err.Error()
	}
	m.theme = th
	m.st = th.Styles(m.isDark)
	m.tools.init()
	m.resources.init()
	m.templates.init()
	m.tasks.init()
	m.traffic.follow = true
	return m
}

// Init asks the terminal for its background (huh starts out assuming a
// light one) and loads the server list and journal.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, m.loadServers(), m.loadJournal(), m.tasks.load(m))
}

func (m *Model) now() time.Time { return m.opts.Now() }

// newID returns a fresh id for a pane or a tool-argument form; the two
// share one space so tag() routing never confuses them.
func (m *Model) newID() int {
	m.nextID++
	return m.nextID
}

func (m *Model) focused() *pane { return m.byID[m.focus] }

// typing reports whether keys go to a form field, in which case plain
// letters (like ?) are text, not commands.
func (m *Model) typing() bool {
	switch m.view {
	case viewPrompts:
		p := m.focused()
		return p != nil && p.open() && p.form != nil
	case viewTools:
		return m.tools.typing()
	case viewTemplates:
		return m.templates.typing()
	}
	return false
}
