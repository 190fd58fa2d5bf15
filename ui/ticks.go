package ui

import (
	"time"

	"charm.land/bubbles/v2/cursor"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// The tickers. None runs while idle: armTicks runs after every Update and
// starts each only while what it redraws is on screen.

// waitTickMsg refreshes the waiting time of the focused pane.
type waitTickMsg struct{}

// spinTickMsg advances the spinner; gen drops ticks of an older run.
type spinTickMsg struct{ gen int }

// spinState is one spinner shared by every screen that spins (running
// calls, working tasks). armTicks starts it, and a tick with nothing
// spinning on screen is not re-armed.
type spinState struct {
	running bool
	gen     int
	frame   int
}

func (s *spinState) tick() tea.Cmd {
	gen := s.gen
	return tea.Tick(spinner.MiniDot.FPS, func(time.Time) tea.Msg { return spinTickMsg{gen: gen} })
}

func (s *spinState) view() string { return spinner.MiniDot.Frames[s.frame%len(spinner.MiniDot.Frames)] }

// armTicks starts the 1 s waiting-time tick while a waiting time is on
// screen and nothing else redraws it, the spinner while something on
// screen spins, and the focused pane's cursor blink if it was parked while
// hidden.
func (m *Model) armTicks() tea.Cmd {
	var cmds []tea.Cmd
	if !m.ticking && m.waitNeedsTick() {
		m.ticking = true
		cmds = append(cmds, tea.Tick(time.Second, func(time.Time) tea.Msg { return waitTickMsg{} }))
	}
	if !m.spin.running && m.spinNeeded() {
		m.spin.running = true
		m.spin.gen++
		cmds = append(cmds, m.spin.tick())
	}
	if pn := m.prompts.focused(); pn != nil && pn.blinkParked && m.prompts.onScreen(&m.viewCtx, pn) && pn.open() && pn.form != nil {
		pn.blinkParked = false
		cmds = append(cmds, formUpdate(pn, cursor.Blink()))
	}
	return tea.Batch(cmds...)
}

func (m *Model) handleWaitTick() tea.Cmd {
	m.ticking = false // armTicks re-arms it if a pane is still open
	return nil
}

// waitNeedsTick reports whether an open pane's "waiting Ns" is on screen
// with nothing to refresh it: it is only drawn in the prompts view, and a
// focused form whose cursor blinks there redraws every tile twice a second
// already (one wake-up fewer per second for an idle screen; BENCHMARKS.md).
func (m *Model) waitNeedsTick() bool {
	pn := m.prompts.focused()
	if m.view != viewPrompts || pn == nil {
		return false
	}
	if pn.open() && pn.form != nil && !pn.blinkParked && pn.form.Blinking() {
		return false
	}
	return m.prompts.openShown(&m.viewCtx)
}

// spinNeeded reports whether the screen on show spins (a running call in
// the tools view, a working task in the task view). Nothing else shows a
// spinner, so any other view (say, fifty open prompts answered while a
// storm call runs) costs no redraws; armTicks runs after every Update, so
// switching back starts the spinner again.
func (m *Model) spinNeeded() bool {
	s, ok := m.shown.(spins)
	return ok && s.spinning()
}

func (m *Model) handleSpinTick(msg spinTickMsg) tea.Cmd {
	if msg.gen != m.spin.gen || !m.spin.running {
		return nil
	}
	if !m.spinNeeded() {
		m.spin.running = false
		return nil
	}
	m.spin.frame++
	return m.spin.tick()
}
