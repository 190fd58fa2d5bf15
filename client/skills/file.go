package skills

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/elicit-dev/elicit/client/wire"
)

// Check is what is known of one file of a skill.
type Check string

const (
	// NotRead: nothing is known yet (listing reads no file).
	NotRead Check = "not read"
	// Verified: its size and sha256 are the entry's (and for the skill's
	// own SKILL.md, its frontmatter too).
	Verified Check = "verified"
	// SizeFailed, DigestFailed, FrontmatterFailed: read, and not what the
	// entry declares.
	SizeFailed        Check = "size mismatch"
	DigestFailed      Check = "digest mismatch"
	FrontmatterFailed Check = "frontmatter mismatch"
	// Unverifiable: the entry declares no digest for it ("dynamic").
	Unverifiable Check = "unverifiable"
)

// File is one file of a skill as read: its bytes and its check. Only
// Verified bytes are the entry's; the others are the server's say-so.
type File struct {
	URI   string
	Bytes []byte
	Check Check
	// Why says what differed, when the check failed.
	Why string
	// Contents are resources/read's answer as the server gave it (for a
	// recording of the read).
	Contents []wire.ResourceContents
}

// ErrNotInSkill is returned for a file the skill does not declare (or,
// for a dynamic skill, one outside its folder).
var ErrNotInSkill = errors.New("not a file of the skill")

// Folder is the skill's folder: its SKILL.md's URI without "SKILL.md".
func (sk Skill) Folder() string {
	return strings.TrimSuffix(sk.URI, "SKILL.md")
}

// FileURI is the URI of the file at rel, a path relative to the skill's
// folder; it may not leave the folder.
func (sk Skill) FileURI(rel string) (string, error) {
	clean := path.Clean("/" + rel)
	if rel == "" || strings.HasPrefix(rel, "/") || clean != "/"+rel || strings.Contains(rel, "\\") {
		return "", fmt.Errorf("%q is not a plain path relative to the skill's folder", rel)
	}
	return sk.Folder() + rel, nil
}

// ReadFile reads one file of the skill (resources/read) and checks it
// against the entry: its size, then its sha256, and for the skill's own
// SKILL.md its frontmatter. A nested SKILL.md is a file like any other:
// its frontmatter is not the skill's and is not read as such. A failed
// check is not an error: File.Check says which failed.
func (k *Skills) ReadFile(ctx context.Context, sk Skill, uri string) (File, error) {
	if err := k.declared(false); err != nil {
		return File{}, err
	}
	var declared *SkillFile
	for i, f := range sk.Resources.Files {
		if f.URI == uri {
			declared = &sk.Resources.Files[i]
			break
		}
	}
	switch {
	case declared == nil && !sk.Resources.Dynamic && uri != sk.URI:
		return File{}, fmt.Errorf("%s: %w %s", uri, ErrNotInSkill, sk.URI)
	case declared == nil && sk.Resources.Dynamic && !strings.HasPrefix(uri, sk.Folder()):
		return File{}, fmt.Errorf("%s: %w %s", uri, ErrNotInSkill, sk.URI)
	}
	contents, err := k.h.Read(ctx, uri)
	if err != nil {
		return File{}, fmt.Errorf("read %s: %w", uri, err)
	}
	b, err := skillBytes(uri, contents)
	if err != nil {
		return File{}, err
	}
	out := File{URI: uri, Bytes: b, Check: Verified, Contents: contents}
	if declared == nil {
		// A dynamic skill's file, or a SKILL.md its entry does not list
		// (Load refuses such an entry).
		out.Check, out.Why = Unverifiable, "the entry declares no digest or size for it"
		return out, nil
	}
	// Both are checked, so a failure says all that differs.
	var why []string
	if int64(len(b)) != declared.Size {
		out.Check = SizeFailed
		why = append(why, fmt.Sprintf("it is %d bytes, the entry says %d", len(b), declared.Size))
	}
	if !digestMatches(declared.Digest, b) {
		if out.Check == Verified {
			out.Check = DigestFailed
		} else {
			out.Check = SizeFailed + " and " + DigestFailed
		}
		why = append(why, fmt.Sprintf("its sha256 is not the entry's digest %q", declared.Digest))
	}
	if len(why) > 0 {
		out.Why = strings.Join(why, "; ")
		return out, nil
	}
	if uri == sk.URI {
		if err := verifyFrontmatter(sk, b); err != nil {
			out.Check, out.Why = FrontmatterFailed, err.Error()
		}
	}
	return out, nil
}
