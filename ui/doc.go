// Package ui is elicit's terminal interface: one bubbletea Model that shows
// every open elicitation prompt as its own pane, the tools of each server
// and the calls made from them, the wire traffic, the journal of outcomes,
// the servers' logs, each server's resources and prompt templates
// (called templates here, so they are not confused with the prompts a
// server puts to the person), every task of every server, and the ACP
// agents: each one's session (its turns streaming in, tool calls, plan),
// with its permission requests and questions as prompt panes.
//
// Traffic rows of HTTP transports show the HTTP method, status and SSE
// event id; a row's detail shows the URL and every MCP header sent and
// received. Whether a tool's call runs as a task is client.TaskChoice's
// answer; where it leaves the choice, the person makes it. Prompt
// arguments and resource template variables list the server's
// suggestions (completion/complete) as they are typed.
//
// Each view is a screen in its own file, listed once in the registry
// (tabs.go), which gives its tab, F-key and help line; screens share a
// viewCtx and never see the Model (AGENTS.md, Screens).
//
// It uses client's data types but calls the engine only through [Engine],
// from tea.Cmds; it must not import transport (client re-exports Frame).
// Server text reaches the screen only through untrusted.Text and
// untrusted.Line.
//
// # Usage
//
//	bridge := ui.NewBridge(ui.BridgeOptions{})
//	// build the engine with bridge as its Prompter and Observer, and
//	// bridge.Frame / bridge.Stderr as its transport observer
//	m := ui.New(engine, bridge, ui.Options{Theme: "charm", Context: ctx})
//	p := tea.NewProgram(m)
//	bridge.Attach(p.Send)
//	_, err := p.Run()
//	cancel() // open prompts end as cancelled/abandoned in the engine
//	bridge.Close()
//
// A session that outlives its TUI (elicit attach) detaches the Bridge
// when the program ends (bridge.Detach) and attaches the next program to
// the same Bridge: its open prompts and rings are still there.
//
// # Concurrency
//
// Background work reaches the Model through the Bridge in three lanes
// (see AGENTS.md): prompts block their goroutine until answered; state
// events are delivered in order, never dropped; traffic and logs go into
// bounded rings and cause at most one redraw per ~33 ms. Only the Model's
// Update touches its state.
package ui
