package ui

import (
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// spinTickMsg advances the spinner; gen drops ticks of an older run.
type spinTickMsg struct{ gen int }

// spinState is one spinner shared by every running call. It ticks only
// while a call runs: armTicks starts it, and a tick with nothing running
// is not re-armed, so an idle UI renders nothing.
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

// spinNeeded reports whether anything on screen spins: a running call
// while the tools view is shown, or a working task while the task view is
// shown. Nothing else shows a spinner, so any other view (say, fifty open
// prompts answered while a storm call runs) costs no redraws; armTicks runs
// after every Update, so switching back starts the spinner again.
func (m *Model) spinNeeded() bool {
	return m.view == viewTools && m.tools.running() > 0 || m.view == viewTasks && m.tasks.working() > 0
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
