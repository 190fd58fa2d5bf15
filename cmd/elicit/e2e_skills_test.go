package main

import (
	"strings"
	"testing"
)

// TestTUISkillsView: the real binary on the demo: alt+l lists its skills
// unread; Enter shows release-notes' SKILL.md verified; tampered's
// data.txt is shown as a digest mismatch, its bytes not shown.
func TestTUISkillsView(t *testing.T) {
	dir := t.TempDir()
	tm := newTmux(t, dir, "--demo", "--protocol", "2025-11-25")
	tm.waitText("ready")
	tm.press("M-l")
	tm.waitText("skill://tampered/SKILL.md")
	tm.press("Enter")
	tm.waitFor("SKILL.md verified", func(s string) bool {
		return strings.Contains(s, "Skill file skill://release-notes/SKILL.md  verified") && strings.Contains(s, "List the merged changes")
	})
	tm.press("Escape")
	tm.waitText("not read yet")
	tm.press("Escape")
	tm.waitText("Skills of")
	tm.press("Down", "Enter")
	tm.waitText("Skill file skill://tampered/SKILL.md")
	tm.press("Escape")
	tm.waitText("skill://tampered/data.txt")
	tm.press("Down", "Enter")
	s := tm.waitText("digest mismatch")
	if strings.Contains(s, "These are not the bytes") {
		t.Errorf("a file that failed its digest is shown:\n%s", s)
	}
	tm.press("Escape")
	tm.waitFor("the files with their checks", func(s string) bool {
		return strings.Contains(s, "verified") && strings.Contains(s, "digest mismatch")
	})
}
