package acp

import (
	"fmt"
	"strings"
)

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// UnifiedDiff renders old → new as a unified diff of one hunk: the lines
// between the common head and tail are the change. That is never wrong
// (applying it gives new) and, for the one edit an agent usually makes,
// as short as a minimal diff; it costs linear time on any input.
func UnifiedDiff(name, old, new string, exists bool) string {
	a, b := splitLines(old), splitLines(new)
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var s strings.Builder
	from := "a/" + name
	if !exists {
		from = "/dev/null"
	}
	fmt.Fprintf(&s, "--- %s\n+++ b/%s\n", from, name)
	if head == len(a) && head == len(b) {
		return s.String() // unchanged
	}
	start := max(head-diffContext, 0)
	endA := min(len(a)-tail+diffContext, len(a))
	endB := min(len(b)-tail+diffContext, len(b))
	fmt.Fprintf(&s, "@@ -%s +%s @@\n", hunkRange(start, endA-start), hunkRange(start, endB-start))
	for _, l := range a[start:head] {
		s.WriteString(" " + l + "\n")
	}
	for _, l := range a[head : len(a)-tail] {
		s.WriteString("-" + l + "\n")
	}
	for _, l := range b[head : len(b)-tail] {
		s.WriteString("+" + l + "\n")
	}
	for _, l := range a[len(a)-tail : endA] {
		s.WriteString(" " + l + "\n")
	}
	return s.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
