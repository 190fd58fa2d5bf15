package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/internal/testenv"
)

// tsSkillsServer is the command line of testdata/ts-skills-server.mjs, a
// stdio server on the TypeScript SDK declaring the skills extension.
func tsSkillsServer(t *testing.T, flags ...string) []string {
	t.Helper()
	sdk := testenv.Getenv(t, "ELICIT_TS_SDK", "the @modelcontextprotocol/sdk folder")
	node := testenv.LookPath(t, "node")
	script, err := filepath.Abs("testdata/ts-skills-server.mjs")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"--", node, script, sdk}, flags...)
}

// askedOf are the methods the server's stderr says it was asked.
func askedOf(stderr []byte) []string {
	var out []string
	for _, l := range strings.Split(string(stderr), "\n") {
		if _, m, ok := strings.Cut(l, "method: "); ok {
			out = append(out, m)
		}
	}
	return out
}

func count(list []string, s string) (n int) {
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// elicit skills lists every skill as declared, reads nothing, keeps two
// skills of one name apart by URI, and shows "dynamic" as such; a server
// that did not declare the extension is not asked.
func TestSkillsListsWithoutReading(t *testing.T) {
	t.Parallel()
	code, out, errs := runBinary(t, append([]string{"skills"}, tsSkillsServer(t)...)...)
	var got headless.SkillsOutput
	if code != 0 || json.Unmarshal(out, &got) != nil {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	byURI := map[string]headless.ListedSkill{}
	for _, s := range got.Skills {
		byURI[s.URI] = s
	}
	if len(got.Skills) != 4 || byURI["skill://pdf/SKILL.md"].Name != "pdf" || byURI["skill://other/pdf/SKILL.md"].Name != "pdf" {
		t.Errorf("listed %s", out)
	}
	if !byURI["skill://gen/SKILL.md"].Files.Dynamic || !strings.Contains(string(out), `"files": "dynamic"`) {
		t.Errorf("the dynamic skill: %s", out)
	}
	if f := byURI["skill://pdf/SKILL.md"].Files.Files; len(f) != 3 || f[1].Digest == "" || f[1].Size == 0 || byURI["skill://pdf/SKILL.md"].Server == "" {
		t.Errorf("pdf's files as declared: %+v", f)
	}
	if strings.Contains(string(out), "verified") {
		t.Errorf("a listing calls something verified: %s", out)
	}
	if asked := askedOf(errs); count(asked, "resources/read") != 0 || count(asked, "skills/list") != 1 {
		t.Errorf("listing asked %v", asked)
	}

	code, out, errs = runBinary(t, append([]string{"skills"}, tsSkillsServer(t, "--no-extension")...)...)
	if code != 0 || !strings.Contains(string(out), `"skipped"`) || !strings.Contains(string(out), `"skills": []`) {
		t.Errorf("without the extension: exit %d\n%s", code, out)
	}
	if asked := askedOf(errs); count(asked, "skills/list") != 0 {
		t.Errorf("a server without the extension was asked %v", asked)
	}
}

// elicit skill reads SKILL.md (and only it) and verifies it; --file reads
// one file, a nested SKILL.md is a plain file, a wrong digest exits 6
// without printing the bytes, and a path out of the folder is a usage
// error.
func TestSkillReadsAndVerifies(t *testing.T) {
	t.Parallel()
	run := func(flags []string, args ...string) (int, headless.SkillOutput, []byte, []string) {
		code, out, errs := runBinary(t, append(append([]string{"skill"}, args...), tsSkillsServer(t, flags...)...)...)
		var got headless.SkillOutput
		if len(out) > 0 && json.Unmarshal(out, &got) != nil {
			t.Fatalf("elicit skill %v printed %s", args, out)
		}
		return code, got, errs, askedOf(errs)
	}
	code, got, errs, asked := run(nil, "skill://pdf/SKILL.md")
	if code != 0 || got.SkillMD == nil || got.SkillMD.Check != "verified" || got.SkillMD.Text == nil || !strings.Contains(*got.SkillMD.Text, "forms/FORMS.md") {
		t.Fatalf("skill pdf: exit %d %+v\n%s", code, got.SkillMD, errs)
	}
	if len(got.Files) != 3 || got.Files[0].Check != "verified" || got.Files[1].Check != "not read" {
		t.Errorf("files %+v", got.Files)
	}
	if count(asked, "skills/get") != 1 || count(asked, "resources/read") != 1 {
		t.Errorf("skill asked %v", asked)
	}

	code, got, errs, _ = run(nil, "skill://pdf/SKILL.md", "--file", "sub/SKILL.md")
	if code != 0 || got.File == nil || got.File.Check != "verified" || got.File.Text == nil || !strings.Contains(*got.File.Text, "nested body") {
		t.Errorf("a nested SKILL.md: exit %d %+v\n%s", code, got.File, errs)
	}

	code, got, errs, _ = run(nil, "skill://tampered/SKILL.md", "--file", "data.txt")
	if code != exit.Findings || got.File == nil || got.File.Check != "digest mismatch" || got.File.Text != nil || !strings.Contains(string(errs), "digest mismatch") {
		t.Errorf("a wrong digest: exit %d %+v\n%s", code, got.File, errs)
	}
	if strings.Contains(string(errs), "actually served") {
		t.Error("the unverified bytes reached stderr")
	}

	if code, _, errs, asked := run(nil, "skill://pdf/SKILL.md", "--file", "../tampered/data.txt"); code != exit.Usage || count(asked, "resources/read") != 0 {
		t.Errorf("--file out of the folder: exit %d, asked %v\n%s", code, asked, errs)
	}
	if code, _, _, asked := run([]string{"--no-extension"}, "skill://pdf/SKILL.md"); code != exit.ToolError || count(asked, "skills/get") != 0 {
		t.Errorf("without the extension: exit %d, asked %v", code, asked)
	}
}

// A "dynamic" skill: SKILL.md shown unverifiable; its folder listed by
// resources/directory/read (both pages) only when the server declared
// directoryRead; --file of it refuses to print what it cannot verify.
func TestSkillDynamic(t *testing.T) {
	t.Parallel()
	for _, dir := range []bool{false, true} {
		var flags []string
		if dir {
			flags = []string{"--directory-read"}
		}
		code, out, errs := runBinary(t, append([]string{"skill", "skill://gen/SKILL.md"}, tsSkillsServer(t, flags...)...)...)
		var got headless.SkillOutput
		if code != 0 || json.Unmarshal(out, &got) != nil || got.SkillMD == nil || got.SkillMD.Check != "unverifiable" {
			t.Fatalf("directoryRead %v: exit %d\n%s\n%s", dir, code, out, errs)
		}
		asked := askedOf(errs)
		if n := count(asked, "resources/directory/read"); dir && (n != 2 || len(got.Files) != 2) || !dir && n != 0 {
			t.Errorf("directoryRead %v: asked %v, files %+v", dir, asked, got.Files)
		}
	}
	code, _, errs := runBinary(t, append([]string{"skill", "skill://gen/SKILL.md", "--file", "today.txt"}, tsSkillsServer(t)...)...)
	if code != exit.Findings || !strings.Contains(string(errs), "no digest") {
		t.Errorf("--file of a dynamic skill: exit %d\n%s", code, errs)
	}
}

// Both commands run on a kept session (--session): the hub runs the
// same code on its session.
func TestSkillsOnAKeptSession(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	h.startOn("sk", tsSkillsServer(t))
	code, out, errs := h.run("skills", "--session", "sk")
	if code != 0 || !strings.Contains(string(out), "skill://tampered/SKILL.md") {
		t.Fatalf("skills --session: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = h.run("skill", "skill://tampered/SKILL.md", "--file", "data.txt", "--session", "sk")
	if code != exit.Findings || !strings.Contains(string(out), "digest mismatch") {
		t.Errorf("skill --file --session: exit %d\n%s\n%s", code, out, errs)
	}
}

// The demo ships two skills: release-notes verifies (its nested SKILL.md
// too, as a file), tampered's data.txt fails its digest; in both eras,
// without a finding.
func TestSkillsOfTheDemo(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"2025-11-25", "2026-07-28"} {
		code, out, errs := runBinary(t, "skills", "--demo", "--protocol", p)
		var list headless.SkillsOutput
		if code != 0 || json.Unmarshal(out, &list) != nil || len(list.Skills) != 2 || len(list.Findings) != 0 {
			t.Fatalf("%s: skills --demo: exit %d\n%s\n%s", p, code, out, errs)
		}
		code, out, errs = runBinary(t, "skill", "skill://release-notes/SKILL.md", "--file", "templates/SKILL.md", "--demo", "--protocol", p)
		var got headless.SkillOutput
		if code != 0 || json.Unmarshal(out, &got) != nil || got.File == nil || got.File.Check != "verified" || len(got.Findings) != 0 {
			t.Errorf("%s: the nested SKILL.md: exit %d\n%s\n%s", p, code, out, errs)
		}
		rec := filepath.Join(t.TempDir(), "skill.jsonl")
		code, _, errs = runBinary(t, "skill", "skill://tampered/SKILL.md", "--file", "data.txt", "--demo", "--protocol", p, "--record", rec)
		if code != exit.Findings || !strings.Contains(string(errs), "digest mismatch") {
			t.Errorf("%s: tampered's data.txt: exit %d\n%s", p, code, errs)
		}
		// The recording holds skills/get and the read, which replays.
		code, out, errs = runBinary(t, "replay", rec)
		if code != 0 || !strings.Contains(string(out), "skills/get skill://tampered/SKILL.md") || !strings.Contains(string(out), "1 same, 0 differ, 1 skipped") {
			t.Errorf("%s: replay: exit %d\n%s\n%s", p, code, out, errs)
		}
	}
}
