package forms

import (
	"go/token"
	"image/color"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// driver feeds a Form the way a bubbletea program would, synchronously
// (ui/AGENTS.md, charm v2 facts: update driver): every command is run and
// its messages are fed back in order, until the form is quiet. Cursor
// blinks (which sleep and re-arm forever) are dropped unrun; any other
// command that does not return within cmdTimeout is dropped too. The timeout is generous because a
// loaded machine under -race can take a while to run even NextField.
type driver struct {
	t       testing.TB
	f       *Form
	pending sync.WaitGroup // commands still running after their timeout
}

const cmdTimeout = 2 * time.Second

var teaPkg = reflect.TypeFor[tea.KeyPressMsg]().PkgPath()

// drive starts f at width×60 on a dark background.
func drive(t testing.TB, f *Form, width int) *driver {
	t.Helper()
	d := &driver{t: t, f: f}
	// Blinks end within BlinkSpeed (530 ms); wait for them so that no
	// goroutine outlives its test.
	t.Cleanup(d.pending.Wait)
	d.run(f.Init())
	d.send(tea.BackgroundColorMsg{Color: color.Black})
	d.run(f.SetSize(width, 60))
	return d
}

// send delivers msg and everything it causes.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	queue := []tea.Msg{msg}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			d.t.Fatal("form never went quiet")
		}
		m := queue[0]
		queue = queue[1:]
		queue = append(queue, d.exec(d.f.Update(m))...)
	}
}

// run runs cmd and delivers its messages.
func (d *driver) run(cmd tea.Cmd) {
	d.t.Helper()
	for _, m := range d.exec(cmd) {
		d.send(m)
	}
}

// exec runs cmd and returns its messages in order, unpacking batches and
// sequences and dropping tea's own queries.
func (d *driver) exec(cmd tea.Cmd) []tea.Msg {
	if cmd == nil || isBlink(cmd) {
		return nil
	}
	ch := make(chan tea.Msg, 1) // buffered: a timed-out cmd can still finish
	d.pending.Go(func() { ch <- cmd() })
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(cmdTimeout):
		return nil
	}
	if msg == nil {
		return nil
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, d.exec(c)...)
		}
		return out
	}
	rv := reflect.ValueOf(msg)
	if rv.Kind() == reflect.Slice && rv.Type().Elem() == reflect.TypeFor[tea.Cmd]() {
		var out []tea.Msg
		for i := range rv.Len() {
			out = append(out, d.exec(rv.Index(i).Interface().(tea.Cmd))...)
		}
		return out
	}
	if t := reflect.TypeOf(msg); t.PkgPath() == teaPkg && !token.IsExported(t.Name()) {
		return nil
	}
	return []tea.Msg{msg}
}

// isBlink reports a cursor blink command: it only sleeps for BlinkSpeed
// and re-arms, so the driver drops it unrun instead of waiting it out.
func isBlink(cmd tea.Cmd) bool {
	fn := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer())
	return fn != nil && strings.HasPrefix(fn.Name(), "charm.land/bubbles/v2/cursor.")
}

// typeText types s one key at a time.
func (d *driver) typeText(s string) {
	d.t.Helper()
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// key presses a named key: "enter", "tab", "shift+tab", "down", "up",
// "space", "esc", "ctrl+u", or a single character.
func (d *driver) key(names ...string) {
	d.t.Helper()
	for _, name := range names {
		d.send(keyMsg(name))
	}
}

func keyMsg(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	case "alt+enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}
	}
	r := []rune(name)
	if len(r) != 1 {
		panic("unknown key " + name)
	}
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

// screen is the form's view without colours.
func (d *driver) screen() string { return ansi.Strip(d.f.View()) }

// focused is the key of the focused field.
func (d *driver) focused() string {
	if fl := d.f.Huh().GetFocusedField(); fl != nil {
		return fl.GetKey()
	}
	return ""
}

// fill clears the focused Input and types s into it, without leaving it.
func (d *driver) fill(s string) {
	d.t.Helper()
	d.key("ctrl+u")
	d.typeText(s)
}

// mustShow fails unless the screen shows every one of wants.
func (d *driver) mustShow(wants ...string) {
	d.t.Helper()
	scr := d.screen()
	flat := strings.Join(strings.Fields(scr), " ")
	for _, w := range wants {
		if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
			d.t.Fatalf("screen does not show %q:\n%s", w, scr)
		}
	}
}
