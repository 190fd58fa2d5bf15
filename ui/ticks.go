package ui

import (
	"context"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// The tickers. None runs while idle: armTicks runs after every Update and
// starts each only while what it redraws is on screen.

// waitTickMsg refreshes the waiting times on screen; gen drops a tick a
// sooner one replaced.
type waitTickMsg struct{ gen int }

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

// armTicks starts the waiting-time tick while a waiting time is on screen
// and the spinner while something on screen spins. Nothing else ticks: a
// form's cursor blink never reaches the screen and ends in forms.Form
// (TestHuhNeverShowsABlink), so a hidden pane and a focused one alike
// arm one blink when their cursor moves and none after.
func (m *Model) armTicks() tea.Cmd {
	var cmds []tea.Cmd
	if m.waitNeedsTick() {
		// A tick a minute away is replaced when a time that reads in
		// seconds comes on screen (a new question, another tile).
		in := m.waitTickIn()
		if due := m.now().Add(in); !m.ticking || due.Before(m.tickAt) {
			m.ticking, m.tickAt = true, due
			m.tickGen++
			gen := m.tickGen
			cmds = append(cmds, untilDone(m.ctx, in, waitTickMsg{gen: gen}))
		}
	}
	if !m.spin.running && m.spinNeeded() {
		m.spin.running = true
		m.spin.gen++
		cmds = append(cmds, m.spin.tick())
	}
	return tea.Batch(cmds...)
}

// untilDone is tea.Tick for a tick that waits long (a waiting time's,
// up to a minute): its goroutine ends with the program's context instead
// of outliving it by up to that long.
func untilDone(ctx context.Context, d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return msg
		case <-ctx.Done():
			return nil
		}
	}
}

func (m *Model) handleWaitTick(msg waitTickMsg) tea.Cmd {
	if msg.gen != m.tickGen {
		return nil // replaced by a sooner one, still armed
	}
	m.ticking = false // armTicks re-arms it if a pane is still open
	return nil
}

// waitNeedsTick reports whether an open pane's "waiting Ns" is on screen:
// it is only drawn in the prompts view, by an open pane (the focused one
// or a tile).
func (m *Model) waitNeedsTick() bool {
	if m.view != viewPrompts || m.prompts.focused() == nil {
		return false
	}
	return m.prompts.openShown(&m.viewCtx)
}

// waitTickIn is when the waiting times on screen next read differently:
// at the next ten seconds of one under a minute (waited), else at the next
// whole minute of any of them (at most one per tile), so a question left
// open costs six redraws in its first minute and one a minute after.
func (m *Model) waitTickIn() time.Duration {
	now, next := m.now(), time.Duration(0)
	for _, tl := range m.prompts.tiling(&m.viewCtx).tiles {
		if !tl.pn.open() {
			continue
		}
		d := max(now.Sub(tl.pn.p.Arrived), 0)
		step := time.Minute
		if d < time.Minute {
			step = waitStep
		}
		in := step - d%step
		if next == 0 || in < next {
			next = in
		}
	}
	if next == 0 {
		return time.Second
	}
	return next
}

// spinNeeded reports whether the screen on show spins (a running call in
// the tools view, a working task in the task view). Nothing else shows a
// spinner, so any other view (say, fifty open prompts answered while a
// storm call runs) costs no redraws; armTicks runs after every Update, so
// switching back starts the spinner again.
func (m *Model) spinNeeded() bool {
	s, ok := m.shown.(spins)
	return ok && s.spinning(&m.viewCtx)
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
