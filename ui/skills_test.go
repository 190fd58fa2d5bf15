package ui

import (
	"encoding/json"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/elicit-dev/elicit/client/skills"
)

var keyAltL = tea.KeyPressMsg{Code: 'l', Mod: tea.ModAlt}

func withSkills(e *fakeEngine) {
	fm, _ := json.Marshal(map[string]string{"name": "notes", "description": "Take notes" + hostile})
	e.skills = map[string][]skills.Skill{"demo": {
		{URI: "skill://notes/SKILL.md", Frontmatter: fm,
			Resources: skills.Files{Files: []skills.SkillFile{
				{URI: "skill://notes/SKILL.md", Digest: "sha256:aaaaaaaaaaaaaaaaaaaa", Size: 20},
				{URI: "skill://notes/bad.txt", Digest: "sha256:bbbbbbbbbbbbbbbbbbbb", Size: 5},
				{URI: "skill://notes/later.txt", Digest: "sha256:cccccccccccccccccccc", Size: 5},
			}}},
		{URI: "skill://gen/SKILL.md", Frontmatter: json.RawMessage(`{"name":"gen","description":"Generated"}`), Resources: skills.Files{Dynamic: true}},
	}}
	e.skillFiles = map[string]SkillFileRead{
		"skill://notes/SKILL.md": {URI: "skill://notes/SKILL.md", Check: skills.Verified, Text: "---\nname: notes\n---\nWrite it down." + hostile},
		"skill://notes/bad.txt":  {URI: "skill://notes/bad.txt", Check: skills.DigestFailed, Why: "its sha256 is not the entry's digest"},
	}
}

// The Skills view lists a server's skills without reading a file; Enter
// reads SKILL.md into the pager; Esc shows the files, each with its
// check (verified, digest mismatch, not read yet); a failed file is
// said to have failed, its bytes not shown.
func TestSkillsViewChecksEachFile(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withSkills)
		d.keys(keyAltL)
		mustShow(t, d, "Skills of demo", "notes", "skill://notes/SKILL.md", "3 file(s)", "gen", "dynamic")
		assertNoHostile(t, d.m.View().Content)
		if len(d.eng.reads) != 0 {
			t.Fatalf("listing read %q", d.eng.reads)
		}
		d.keys(keyEnter)
		mustShow(t, d, "Skill file skill://notes/SKILL.md", "verified", "Write it down.")
		assertNoHostile(t, d.m.View().Content)

		d.keys(keyEsc)
		mustShow(t, d, "Skill notes", "skill://notes/bad.txt", "not read yet")
		d.keys(keyDown, keyEnter)
		mustShow(t, d, "digest mismatch", "not shown: it is not what the skill's entry declares")
		d.keys(keyEsc)
		mustShow(t, d, "verified", "digest mismatch", "not read yet")
		if want := []string{"demo skill://notes/SKILL.md", "demo skill://notes/bad.txt"}; !cmp.Equal(d.eng.reads, want) {
			t.Errorf("reads = %q, want %q", d.eng.reads, want)
		}
		d.keys(keyEsc, keyDown, keyEnter)
		mustShow(t, d, "Skill file skill://gen/SKILL.md")
		d.keys(keyEsc)
		mustShow(t, d, "dynamic: the entry declares no files, so none can be verified")
	})
}

// A server that did not declare the extension is not asked, and the view
// says so.
func TestSkillsViewUndeclared(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, func(e *fakeEngine) { e.skillsErr = skills.ErrNotDeclared })
		d.keys(keyAltL)
		mustShow(t, d, "did not declare the skills extension")
	})
}

// TestReaderHeadNeverCutsItsHint: a reader whose title line and scroll
// hint do not fit one line gets the hint on a line of its own (the skill
// file's title, with its server, ended "/ sea" at 100 columns).
func TestReaderHeadNeverCutsItsHint(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withSkills)
		d.send(tea.WindowSizeMsg{Width: 72, Height: 24})
		d.keys(keyAltL, keyEnter)
		mustShow(t, d, "Skill file skill://notes/SKILL.md", "/ search · y copy", "Write it down.")
	})
}
