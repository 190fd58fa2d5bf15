package headless

import (
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"io"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/skills"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
)

// elicit skills and elicit skill: the skills extension (SEP-2640,
// client/skills). Listing reads no file, so nothing is called verified
// there; skill reads SKILL.md (and --file one more) and says of each
// what its check found.

// SkillsUsage is elicit skills -h.
const SkillsUsage = `Usage: elicit skills [flags] [-- CMD ARGS...]

Lists the server's skills (skills/list, all pages) as JSON on stdout:
each with its server, uri, name, description and its files as the entry
declares them (uri, digest, size), or "dynamic". No file is read, so
none is verified here (elicit skill URI reads and verifies).
A server that did not declare the extension under
capabilities.extensions["io.modelcontextprotocol/skills"] is not asked:
the list is empty and "skipped" says why (exit 0).
`

// SkillUsage is elicit skill -h.
const SkillUsage = `Usage: elicit skill URI [--file PATH] [flags] [-- CMD ARGS...]

Gets the skill whose SKILL.md is URI (skills/get), reads its SKILL.md
and checks it against the entry (size, sha256 digest, frontmatter), and
prints JSON: the entry, SKILL.md with its check, and the skill's files
(declared; for a "dynamic" skill, its folder's children when the server
declared directoryRead), each "not read" until read.
--file PATH reads one file instead of SKILL.md, PATH relative to the
skill's folder, and prints it only if its size and digest are the
entry's.
Exit codes: 0 verified, 2 usage, 3 the server could not be started or
reached, 4 a request failed or the server did not declare the extension,
6 a file is not what the entry declares (the message says which check
failed: size, digest, frontmatter; or that a "dynamic" skill's file has
no digest to check): the server broke its own declaration, the class of
failure elicit check exits 6 for.
`

// ListedSkill is one skill as elicit skills prints it: the entry's say,
// nothing read.
type ListedSkill struct {
	Server      string       `json:"server"`
	URI         string       `json:"uri"`
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Files       skills.Files `json:"files"`
}

// SkillsOutput is what elicit skills prints.
type SkillsOutput struct {
	Server   string        `json:"server"`
	Protocol string        `json:"protocol"`
	Era      string        `json:"era"`
	Skills   []ListedSkill `json:"skills"`
	// Skipped says why skills/list was not asked.
	Skipped string `json:"skipped,omitempty"`
	// Duplicates are (server, uri) pairs listed more than once.
	Duplicates []string                   `json:"duplicates,omitempty"`
	Findings   jsonList[findings.Finding] `json:"findings"`
	Repaired   string                     `json:"repaired,omitempty"`
}

func (o *SkillsOutput) SetRepaired(note string) { o.Repaired = note }

// SkillFileOutput is one file of a skill and its check ("not read" until
// it is). Text (or Blob, base64, when not UTF-8) only of a file read.
type SkillFileOutput struct {
	Path   string       `json:"path,omitempty"`
	URI    string       `json:"uri"`
	Digest string       `json:"digest,omitempty"`
	Size   *int64       `json:"size,omitempty"`
	Check  skills.Check `json:"check"`
	Why    string       `json:"why,omitempty"`
	Text   *string      `json:"text,omitempty"`
	Blob   string       `json:"blob,omitempty"`
}

// SkillOutput is what elicit skill prints.
type SkillOutput struct {
	Server   string      `json:"server"`
	Protocol string      `json:"protocol"`
	Era      string      `json:"era"`
	Skill    ListedSkill `json:"skill"`
	// SkillMD is SKILL.md read and checked (without --file).
	SkillMD *SkillFileOutput `json:"skillMd,omitempty"`
	// File is --file's, read and checked.
	File *SkillFileOutput `json:"file,omitempty"`
	// Files are the skill's files: declared, or a dynamic skill's folder
	// as resources/directory/read gave it.
	Files     []SkillFileOutput          `json:"files"`
	Directory string                     `json:"directory,omitempty"`
	Findings  jsonList[findings.Finding] `json:"findings"`
	Failure   *exit.Failure              `json:"failure,omitempty"`
	Repaired  string                     `json:"repaired,omitempty"`
}

func (o *SkillOutput) SetRepaired(note string) { o.Repaired = note }

func listedOf(server string, sk skills.Skill) ListedSkill {
	name, desc := sk.Meta()
	return ListedSkill{Server: server, URI: sk.URI, Name: name, Description: desc, Files: sk.Resources}
}

// Skills is elicit skills.
func (e Env) Skills(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	r, err := e.parse("skills", SkillsUsage, args, stderr, withLogLevel, nil)
	if err != nil {
		return err
	}
	if err := r.noArgs(); err != nil {
		return err
	}
	if err := r.connect(ctx); err != nil {
		return err
	}
	defer r.close()
	sess := r.sess
	out := &SkillsOutput{Server: sess.Name(), Protocol: sess.Protocol(), Era: sess.Era(), Skills: []ListedSkill{}}
	rc := r.rec.Begin(sess.Name(), wire.MethodSkillsList, "", nil, nil)
	list, err := sess.Skills().List(ctx)
	rc.End(list, err)
	if errors.Is(err, skills.ErrNotDeclared) {
		out.Skipped = "the server did not declare the extension " + skills.Ext
		err = nil
	}
	if err != nil {
		return exit.Fail(exit.ToolError, "%w", err)
	}
	var cat skills.Catalog
	for _, d := range cat.Add(sess.Name(), list) {
		out.Duplicates = append(out.Duplicates, d.Error())
	}
	for _, en := range cat.Entries() {
		out.Skills = append(out.Skills, listedOf(en.Server, en.Skill))
	}
	out.Findings = FindingsOf(r.findings)
	return WriteJSON(stdout, out)
}

// Skill is elicit skill.
func (e Env) Skill(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var file string
	r, err := e.parse("skill", SkillUsage, args, stderr, withLogLevel, func(fs *flag.FlagSet) {
		fs.StringVar(&file, "file", "", "read this file of the skill (a path relative to its folder) instead of SKILL.md")
	})
	if err != nil {
		return err
	}
	if len(r.pos) != 1 {
		return exit.Usagef("skill takes 1 argument (the skill's SKILL.md URI), got %d (see elicit skill -h)", len(r.pos))
	}
	if err := r.connect(ctx); err != nil {
		return err
	}
	defer r.close()
	sess := r.sess
	out := &SkillOutput{Server: sess.Name(), Protocol: sess.Protocol(), Era: sess.Era(), Files: []SkillFileOutput{}}
	err = skillRun(ctx, sess, r.rec, r.pos[0], file, out)
	if err != nil && exit.CodeOf(err) == exit.Internal {
		err = exit.Fail(exit.ToolError, "%w", err) // the engine's error names the method
	}
	out.Findings = FindingsOf(r.findings)
	out.Failure = exit.FailureOf(err)
	if werr := WriteJSON(stdout, out); werr != nil {
		return werr
	}
	return err
}

// skillRun fills out: the entry (skills/get), its files, and the one
// file read and checked (SKILL.md, or --file's).
func skillRun(ctx context.Context, sess *client.Session, rec *record.Recorder, uri, rel string, out *SkillOutput) error {
	k := sess.Skills()
	rc := rec.Begin(sess.Name(), wire.MethodSkillsGet, uri, recording.URIParams{URI: uri}, nil)
	sk, err := k.Get(ctx, uri)
	rc.End(sk, err)
	if err != nil {
		return err
	}
	out.Skill = listedOf(sess.Name(), sk)
	target := sk.URI
	if rel != "" {
		if target, err = sk.FileURI(rel); err != nil {
			return exit.Usagef("--file: %w", err)
		}
	}
	if err := skillFiles(ctx, k, sk, out); err != nil {
		return err
	}
	rc = rec.Begin(sess.Name(), wire.MethodResourcesRead, target, recording.URIParams{URI: target}, nil)
	f, err := k.ReadFile(ctx, sk, target)
	rc.End(f.Contents, err)
	if err != nil {
		return err
	}
	fo := fileOutput(sk, f)
	for i := range out.Files {
		if out.Files[i].URI == f.URI {
			out.Files[i].Check, out.Files[i].Why = f.Check, f.Why
		}
	}
	if rel == "" {
		out.SkillMD = &fo
	} else {
		fo.Path = rel
		out.File = &fo
	}
	switch f.Check {
	case skills.Verified:
		return nil
	case skills.Unverifiable:
		if rel == "" && sk.Resources.Dynamic {
			return nil // a dynamic skill's SKILL.md, shown as unverifiable
		}
		fo.Text, fo.Blob = nil, "" // printed only when verified
		if rel == "" {
			out.SkillMD = &fo
		} else {
			out.File = &fo
		}
		return exit.Fail(exit.Findings, "%s: %s: nothing to check it by (elicit read reads it unverified)", f.URI, f.Why)
	default:
		fo.Text, fo.Blob = nil, ""
		if rel == "" {
			out.SkillMD = &fo
		} else {
			out.File = &fo
		}
		return exit.Fail(exit.Findings, "%s: %s: %s", f.URI, f.Check, f.Why)
	}
}

// skillFiles lists the skill's files, none read: the declared ones, or
// a dynamic skill's folder when the server declared directoryRead.
func skillFiles(ctx context.Context, k *skills.Skills, sk skills.Skill, out *SkillOutput) error {
	if !sk.Resources.Dynamic {
		for _, f := range sk.Resources.Files {
			size := f.Size
			out.Files = append(out.Files, SkillFileOutput{URI: f.URI, Digest: f.Digest, Size: &size, Check: skills.NotRead})
		}
		return nil
	}
	children, err := k.ReadDirectory(ctx, sk.Folder())
	if errors.Is(err, skills.ErrNotDeclared) {
		out.Directory = "not listed: the server did not declare directoryRead"
		return nil
	}
	if err != nil {
		return err
	}
	out.Directory = sk.Folder()
	for _, c := range children {
		out.Files = append(out.Files, SkillFileOutput{URI: c.URI, Check: skills.Unverifiable})
	}
	return nil
}

func fileOutput(sk skills.Skill, f skills.File) SkillFileOutput {
	fo := SkillFileOutput{URI: f.URI, Check: f.Check, Why: f.Why}
	for _, d := range sk.Resources.Files {
		if d.URI == f.URI {
			size := d.Size
			fo.Digest, fo.Size = d.Digest, &size
		}
	}
	if utf8.Valid(f.Bytes) {
		s := string(f.Bytes)
		fo.Text = &s
	} else {
		fo.Blob = base64.StdEncoding.EncodeToString(f.Bytes)
	}
	return fo
}
