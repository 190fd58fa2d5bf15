package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/themes"
)

// screen is one view: the prompt panes, the tools, the traffic… Each is a
// plain struct in its own file with one line in the registry (tabs.go).
// A screen never sees the Model: it reads what it needs from the viewCtx
// and asks for everything else (a notice, another view, engine work) by
// returning a tea.Cmd.
type screen interface {
	// enter runs when the screen is shown (its key was pressed): it
	// refreshes or loads what it shows.
	enter(c *viewCtx) tea.Cmd
	// key handles a key the global bindings did not take.
	key(c *viewCtx, k tea.KeyPressMsg) tea.Cmd
	// render draws the body; the Model fits it to the body's size.
	render(c *viewCtx) string
}

// The optional parts of a screen. The Model asks for each with a type
// assertion, so a screen implements only those it needs.
type (
	// typist is a screen where a form field may have the keys: plain
	// letters such as ? are then text, not commands.
	typist interface{ typing() bool }
	// router owns forms: it takes the routed messages of its own forms'
	// commands (tag.go) and reports whether msg was for one of them.
	router interface {
		routed(c *viewCtx, msg routedMsg) (tea.Cmd, bool)
	}
	// paster takes a paste while it is shown.
	paster interface {
		paste(c *viewCtx, msg tea.PasteMsg) tea.Cmd
	}
	// backgrounder passes the terminal's background to its forms (huh
	// assumes a light one until told).
	backgrounder interface {
		background(c *viewCtx, msg tea.BackgroundColorMsg) tea.Cmd
	}
	// resizer sizes its forms after the window changed size.
	resizer interface{ resize(c *viewCtx) tea.Cmd }
	// updater takes messages, whether shown or not: its own (screenMsg),
	// and, after the Model has applied them, lane-2 events (eventMsg), the
	// server list (serversMsg) and the news that lane 3 grew
	// (streamsChangedMsg). It ignores the rest.
	updater interface {
		update(c *viewCtx, msg tea.Msg) tea.Cmd
	}
	// loader loads what the screen shows before it is first shown (the
	// task count on its tab), when the program starts.
	loader interface{ load(c *viewCtx) tea.Cmd }
	// spins shows the shared spinner while spinning says so and it is on
	// screen.
	spins interface{ spinning(c *viewCtx) bool }
	// badger puts a count on its tab, when not zero.
	badger interface{ badge() int }
	// fitted draws a body that is already exactly the body's size (a
	// framed pane), so the Model does not fit it again.
	fitted interface{ fitted() bool }
)

// screenMsg marks a message of one screen's own (a list it loaded, a call
// that ended). Update hands it to every updater; the screen it is for
// takes it, the others ignore it.
type screenMsg interface{ screenMsg() }

// viewCtx is what every screen may use, like a shared "common" of
// components: the engine and the context its calls run in, the options,
// the lane-3 store, keys, styles, size, the servers, which screen is
// shown, and the spinner. The Model embeds it, so its own code reads the
// same fields; only the Model writes them, except newID.
type viewCtx struct {
	engine  Engine
	ctx     context.Context
	opts    Options
	streams *streamStore
	// agentLogs are the ACP agents' transcripts (lane 3, agent_store.go).
	agentLogs *agentStore
	keys      keyMap

	theme *themes.Theme
	st    *themes.Styles
	bg    tea.Msg // the last BackgroundColorMsg, for forms opened later

	width, height int
	// noticeRows are the rows the notice takes above the status bar
	// (notice.go); the body has the rest.
	noticeRows int
	servers    []ServerStatus
	agents     []AgentStatus
	// openBy counts the open prompt panes per server or agent (the agent
	// view says when its agent waits on the person).
	openBy map[string]int
	// askingCalls counts, per server and tool (id ""), the calls of ours
	// with a question open (countOpen), so the tools view can say a call
	// waits on the person.
	askingCalls map[askingCall]int
	shown       screen // the screen on show
	spin        spinState
	// selves is how each server last named itself (selfName), kept when
	// it disconnects: the engine's status then has no serverInfo, and a
	// pane it opened should still say who asked.
	selves map[string]string

	nextID int
	// tasksOpen gives a task's open questions (the Model's panes), read
	// only: the task view lists them in a task's details.
	tasksOpen func(t *client.Task) []*question.Question
}

// taskQuestions are the questions of task t open now.
func (c *viewCtx) taskQuestions(t *client.Task) []*question.Question {
	if c.tasksOpen == nil {
		return nil
	}
	return c.tasksOpen(t)
}

func (c *viewCtx) now() time.Time { return c.opts.Now() }

// newID returns a fresh id for a pane or an argument form; the two share
// one space so tag() routing never confuses them.
func (c *viewCtx) newID() int {
	c.nextID++
	return c.nextID
}

// selfName is how server name names itself: its serverInfo title, else
// its name, as it said last (also after a disconnect); "" when it never
// said.
func (c *viewCtx) selfName(name string) string { return c.selves[name] }

// noteSelves keeps how each connected server names itself (selfName).
func (c *viewCtx) noteSelves() {
	for _, s := range c.servers {
		self := s.Info.Title
		if self == "" {
			self = s.Info.Name
		}
		if self == "" {
			continue // not connected: keep what it said before
		}
		if c.selves == nil {
			c.selves = map[string]string{}
		}
		c.selves[s.Name] = self
	}
}

// onScreen reports whether s is the screen on show.
func (c *viewCtx) onScreen(s screen) bool { return c.shown == s }

// bodyHeight is the rows between the strip and the status bar that the
// notice leaves (notice.go).
func (c *viewCtx) bodyHeight() int { return max(c.height-chrome-c.noticeRows, 1) }

// notice puts text on the status bar. It is a command, so a screen says
// something without writing the Model.
func notice(text string) tea.Cmd {
	return func() tea.Msg { return noticeMsg(text) }
}

// askingCall names a call of ours by its server, tool and request id
// (jsonrpc.ID.Raw), or, with id "", all the calls of that tool.
type askingCall struct{ server, tool, id string }
