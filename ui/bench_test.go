package ui

import (
	"fmt"
	"testing"
)

// benchModel opens n form prompts; the first has focus.
func benchModel(b *testing.B, n int) *driver {
	d := newDriver(b, Options{})
	for i := range n {
		d.open(formPrompt(b, "demo", int64(i+1), "question", nameSchema))
	}
	return d
}

// BenchmarkView shows that rendering costs what is on screen: the focused
// pane and the strip's window, whatever the number of panes.
func BenchmarkView(b *testing.B) {
	for _, n := range []int{1, 20, 200} {
		b.Run(fmt.Sprintf("panes=%d", n), func(b *testing.B) {
			d := benchModel(b, n)
			b.ReportAllocs()
			for b.Loop() {
				_ = d.m.View()
			}
		})
	}
}

// BenchmarkKeystroke is one typed rune: Update plus View, as the program
// does per key (the form's commands are not run).
func BenchmarkKeystroke(b *testing.B) {
	for _, n := range []int{1, 20, 200} {
		b.Run(fmt.Sprintf("panes=%d", n), func(b *testing.B) {
			d := benchModel(b, n)
			k := key1('a')
			b.ReportAllocs()
			for b.Loop() {
				_, _ = d.m.Update(k)
				_ = d.m.View()
			}
		})
	}
}
