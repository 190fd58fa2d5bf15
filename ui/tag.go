package ui

import (
	"reflect"

	tea "charm.land/bubbletea/v2"
)

// teaPkg is bubbletea's package path: messages of that package (window
// size queries, exec, quit, clipboard) belong to the program, not a form.
var teaPkg = reflect.TypeFor[tea.KeyPressMsg]().PkgPath()

var cmdType = reflect.TypeFor[tea.Cmd]()

// tag wraps a form's command so that its result comes back as a routedMsg
// for form id. huh moves focus with untagged messages (nextFieldMsg…), so
// without tags a result produced for pane A would be applied to whichever
// pane has focus when it arrives (AGENTS.md, charm v2 facts: tagging).
// Batches are tagged element by element; tea.Sequence's unexported
// sequenceMsg is found by reflection (a slice of tea.Cmd) and rebuilt with
// tagged elements so its order is kept.
func tag(id int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		msg := cmd()
		if msg == nil {
			return nil
		}
		if b, ok := msg.(tea.BatchMsg); ok {
			out := make(tea.BatchMsg, 0, len(b))
			for _, c := range b {
				out = append(out, tag(id, c))
			}
			return out
		}
		if rv := reflect.ValueOf(msg); rv.Kind() == reflect.Slice && rv.Type().Elem() == cmdType {
			cmds := make([]tea.Cmd, rv.Len())
			for i := range cmds {
				c, _ := rv.Index(i).Interface().(tea.Cmd)
				cmds[i] = tag(id, c)
			}
			return tea.Sequence(cmds...)()
		}
		if reflect.TypeOf(msg).PkgPath() == teaPkg {
			return msg
		}
		return routedMsg{id: id, msg: msg}
	}
}
