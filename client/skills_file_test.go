package client_test

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/elicit-dev/elicit/client/skills"
)

// ReadFile checks each file on its own: size and digest both, SKILL.md's
// frontmatter only for the skill's own; a nested SKILL.md whose
// frontmatter is another skill's is a verified file, not a second entry.
func TestSkillFilesCheckedOneByOne(t *testing.T) {
	const nested = "---\nname: other\ndescription: not this skill's\n---\nnested\n"
	const wrong = "served bytes\n"
	files := map[string]string{
		"skill://pdf/SKILL.md":         skillMD,
		"skill://pdf/sub/SKILL.md":     nested,
		"skill://pdf/wrong-digest.txt": wrong,
		"skill://pdf/wrong-size.txt":   wrong,
	}
	entry := map[string]any{
		"uri":         "skill://pdf/SKILL.md",
		"frontmatter": json.RawMessage(`{"name":"pdf-processing","description":"Extract PDF text"}`),
		"resources": []map[string]any{
			{"uri": "skill://pdf/SKILL.md", "digest": sha(skillMD), "size": len(skillMD)},
			{"uri": "skill://pdf/sub/SKILL.md", "digest": sha(nested), "size": len(nested)},
			{"uri": "skill://pdf/wrong-digest.txt", "digest": sha("declared bytes"), "size": len(wrong)},
			{"uri": "skill://pdf/wrong-size.txt", "digest": sha(wrong), "size": len(wrong) + 1},
		},
	}
	eb, _ := json.Marshal(map[string]any{"skills": []any{entry}})
	s, seen := extPeer(t, "2026-07-28", skillsCaps, map[string]func(json.RawMessage) string{
		"skills/list": func(json.RawMessage) string { return string(eb) },
		"resources/read": func(p json.RawMessage) string {
			var q struct{ URI string }
			_ = json.Unmarshal(p, &q)
			b, _ := json.Marshal(map[string]any{"contents": []map[string]string{{"uri": q.URI, "text": files[q.URI]}}})
			return string(b)
		},
	})
	k := s.Skills()
	list, err := k.List(t.Context())
	if err != nil || len(list) != 1 {
		t.Fatalf("List: %v, %v", list, err)
	}
	sk := list[0]
	for rel, want := range map[string]skills.Check{
		"SKILL.md":         skills.Verified,
		"sub/SKILL.md":     skills.Verified,
		"wrong-digest.txt": skills.DigestFailed,
		"wrong-size.txt":   skills.SizeFailed,
	} {
		uri, err := sk.FileURI(rel)
		if err != nil {
			t.Fatal(err)
		}
		f, err := k.ReadFile(t.Context(), sk, uri)
		if err != nil || f.Check != want || string(f.Bytes) != files[uri] {
			t.Errorf("%s: %q (%s), %v; want %q", rel, f.Check, f.Why, err, want)
		}
	}
	if _, err := k.ReadFile(t.Context(), sk, "skill://pdf/undeclared.txt"); !errors.Is(err, skills.ErrNotInSkill) {
		t.Errorf("an undeclared file: %v, want ErrNotInSkill", err)
	}
	if slices.Contains(seen(), "skills/get") {
		t.Error("ReadFile asked skills/get")
	}
	for _, rel := range []string{"../other/SKILL.md", "/abs", "a/../../x", "", "a//b"} {
		if u, err := sk.FileURI(rel); err == nil {
			t.Errorf("FileURI(%q) = %q, want refused", rel, u)
		}
	}
}

// Skills are keyed by (server, uri): two of one name are both kept, and
// a (server, uri) listed twice is reported, not silently replaced.
func TestSkillCatalogNeverShadows(t *testing.T) {
	a := skills.Skill{URI: "skill://pdf/SKILL.md", Frontmatter: json.RawMessage(`{"name":"pdf"}`)}
	b := skills.Skill{URI: "skill://x/pdf/SKILL.md", Frontmatter: json.RawMessage(`{"name":"pdf"}`)}
	var c skills.Catalog
	if errs := c.Add("one", []skills.Skill{a, b}); errs != nil {
		t.Fatal(errs)
	}
	if errs := c.Add("two", []skills.Skill{a, a}); len(errs) != 1 {
		t.Errorf("a skill listed twice: %v", errs)
	}
	if n := len(c.Named("pdf")); n != 3 {
		t.Errorf("%d skills named pdf, want 3", n)
	}
	if _, ok := c.Find(skills.Key{Server: "two", URI: a.URI}); !ok {
		t.Error("(two, a) not found")
	}
	if _, ok := c.Find(skills.Key{Server: "three", URI: a.URI}); ok {
		t.Error("(three, a) found")
	}
}
