package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The tab bar: each tab's key and name, its count, and "F1 help". It
// says everything where the width allows and gives up the least useful
// parts first, a step at a time (tabLayout), so every tab's key stays
// with a name at 80 columns:
//  1. the padding between tabs;
//  2. the full names, from the bar's end, the shown tab's too: an F-key
//     tab's label does not change with the view on show (the highlight
//     says which one it is); a tab without an F-key, on the bar because
//     it is shown, goes short last (after "F1 help", in step 4);
//  3. the tabs without an F-key that are neither shown nor counting
//     (the status bar names the agent's key);
//     the names are whole again and go short from the end once more;
//  4. the space before each count ("Tsk(1)"), then "F1 help" (F1 and ?
//     still open it; the empty questions screen says so) with the space
//     back;
//  5. under 80 columns: the names of the tabs not shown, from the bar's
//     end, with "F1 help" back, so that every key is still there;
//  6. the shown tab's key (the person is there): its full name alone,
//     then its short one.
//
// Only then is the bar cut at its end, with "…".

// tabLayout is one step of giving up.
type tabLayout struct {
	tabs   []viewID // the tabs on the bar, in registry order
	short  []bool   // per entry of tabs: its short name
	bare   []bool   // per entry of tabs: its key alone
	tight  bool     // no padding left of the tabs not shown
	noHelp bool     // no "F1 help"
	// tightCount: a count without the space before it, "Tsk(1)"
	tightCount bool
	shownCut   int // the shown tab: 0 as is, 1 short name, 2 no key, 3 short and no key
}

func (m *Model) renderTabs() string {
	l := tabLayout{tabs: m.barTabs(true)}
	l.short, l.bare = make([]bool, len(l.tabs)), make([]bool, len(l.tabs))
	// Each step is measured unstyled (the styles only pad); only the one
	// that fits is drawn.
	fits := func() bool { return m.width == 0 || ansi.StringWidth(m.drawTabs(l, true)) <= m.width }
	steps := []func(){func() { l.tight = true }}
	// The short names go from the bar's end whichever tab is shown, so
	// an F-key tab has the same label in every view; a tab on the bar
	// only because it is shown (no F-key) goes short last.
	shorten := func(tabs []viewID) (shown func()) {
		for i := len(tabs) - 1; i >= 0; i-- {
			if tabs[i] == m.view && m.tabs[tabs[i]].fkey == 0 {
				shown = func() { l.short[i] = true }
				continue
			}
			steps = append(steps, func() { l.short[i] = true })
		}
		return shown
	}
	if last := shorten(l.tabs); last != nil {
		steps = append(steps, last)
	}
	// Without the idle tabs, the names are whole again and go short
	// from the end once more.
	busy := m.barTabs(false)
	steps = append(steps, func() {
		l.tabs = busy
		l.short, l.bare = make([]bool, len(l.tabs)), make([]bool, len(l.tabs))
	})
	last := shorten(busy)
	steps = append(steps, func() { l.tightCount = true }, func() { l.noHelp, l.tightCount = true, false })
	if last != nil {
		steps = append(steps, last)
	}
	for i := len(l.tabs) - 1; i >= 0; i-- {
		steps = append(steps, func() {
			if i < len(l.bare) && l.tabs[i] != m.view {
				l.noHelp, l.bare[i] = false, true
			}
		})
	}
	steps = append(steps,
		func() { l.shownCut = 2 },
		func() { l.shownCut = 3 },
	)
	ok := fits()
	for _, step := range steps {
		if ok {
			break
		}
		step()
		ok = fits()
	}
	if ok {
		return m.drawTabs(l, false)
	}
	return ansi.Truncate(m.drawTabs(l, false), m.width, "…")
}

// barTabs are the tabs on the bar: every one with an F-key, and those
// without one while shown or counting, or idle too when withIdle (the
// agent's while there is an agent).
func (m *Model) barTabs(withIdle bool) []viewID {
	out := make([]viewID, 0, len(m.tabs))
	for i, t := range m.tabs {
		on := t.fkey > 0 || viewID(i) == m.view || hasBadge(t) ||
			withIdle && t.idle != nil && t.idle(&m.viewCtx)
		if on {
			out = append(out, viewID(i))
		}
	}
	return out
}

// drawTabs draws the bar at one layout; plain, without styles but as
// wide (the styles' padding as spaces).
func (m *Model) drawTabs(l tabLayout, plain bool) string {
	inactive, help := m.st.Tabs.Inactive, "  F1 help"
	if l.tight {
		// The tab before it ends in its padding.
		inactive, help = inactive.PaddingLeft(0), "F1 help"
	}
	render := func(st lipgloss.Style, label string) string {
		if !plain {
			return st.Render(label)
		}
		_, r, _, lf := st.GetPadding()
		return strings.Repeat(" ", lf) + label + strings.Repeat(" ", r)
	}
	parts := make([]string, 0, len(l.tabs)+1)
	for j, id := range l.tabs {
		t := m.tabs[id]
		name, key := t.name, t.keyLabel()
		shown := id == m.view
		switch {
		case shown && l.shownCut == 2:
			key = ""
		case shown && l.shownCut == 3:
			name, key = t.short, ""
		case shown && l.shownCut == 1, l.short[j]:
			name = t.short
		}
		if !shown && l.bare[j] {
			name = ""
		}
		label := strings.TrimSpace(key + " " + name)
		if n := badgeOf(t); n > 0 && l.tightCount {
			label += fmt.Sprintf("(%d)", n)
		} else if n > 0 {
			label += fmt.Sprintf(" (%d)", n)
		}
		if shown {
			parts = append(parts, render(m.st.Tabs.Active, label))
		} else {
			parts = append(parts, render(inactive, label))
		}
	}
	if !l.noHelp {
		parts = append(parts, render(m.st.Muted, help))
	}
	return strings.Join(parts, "")
}

// badgeOf is t's count, 0 when it has none.
func badgeOf(t tab) int {
	if b, ok := t.screen.(badger); ok {
		return b.badge()
	}
	return 0
}

// hasBadge reports whether t's screen has a count to show.
func hasBadge(t tab) bool { return badgeOf(t) > 0 }
