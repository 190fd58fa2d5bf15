package attach

import (
	"reflect"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// drainInput lets a tea.Program's input reader end after Run has
// returned. bubbletea v2.1.1's reader hands each key to the program on
// an unbuffered channel with no way out (ultraviolet's
// TerminalReader.sendEvents, terminal_reader.go:234): keys that arrive
// as the program quits (a terminal's reply to a query, a key typed as
// the person quits) leave it blocked there for ever, holding the
// program, once per attach in a hub that lives for days. Run's own
// shutdown cannot free it, and the fields involved are unexported, so
// this takes the events off that channel until the reader is done (its
// input is closed by then, so it ends). It reports whether it found the
// fields; TestDrainInputFindsTheReader fails when bubbletea renames
// them.
func drainInput(p *tea.Program) bool {
	v := reflect.ValueOf(p).Elem()
	msgs, done := v.FieldByName("msgs"), v.FieldByName("readLoopDone")
	if !msgs.IsValid() || msgs.Kind() != reflect.Chan || !done.IsValid() || done.Kind() != reflect.Chan {
		return false
	}
	msgs = reflect.NewAt(msgs.Type(), unsafe.Pointer(msgs.UnsafeAddr())).Elem()
	done = reflect.NewAt(done.Type(), unsafe.Pointer(done.UnsafeAddr())).Elem()
	if done.IsNil() {
		return true // no reader was started
	}
	cases := []reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: done}, {Dir: reflect.SelectRecv, Chan: msgs}}
	for {
		if chosen, _, _ := reflect.Select(cases); chosen == 0 {
			return true
		}
	}
}
