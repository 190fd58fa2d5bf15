package skills

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/elicit-dev/elicit/client/wire"
	"go.yaml.in/yaml/v3"
)

// Ext is the skills extension's identifier.
const Ext = "io.modelcontextprotocol/skills"

// Skill is one entry of skills/list.
type Skill struct {
	// URI is the skill's SKILL.md (skill://NAME/SKILL.md).
	URI string `json:"uri"`
	// Frontmatter is the entry's copy of SKILL.md's frontmatter.
	Frontmatter json.RawMessage `json:"frontmatter"`
	// Resources are the files the entry declares, or "dynamic".
	Resources Files `json:"resources"`
}

// SkillFile is one file of a skill, as its entry lists it.
type SkillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"` // "sha256:" and lower-case hex
	Size   int64  `json:"size"`
}

// LoadedSkill is a skill whose files were all read and verified.
type LoadedSkill struct {
	Skill Skill
	// Files are the verified contents, by URI, SKILL.md first in Order.
	Files map[string][]byte
	Order []string
}

// ErrSkillVerification is wrapped by Load's error when a file does
// not match its entry.
var ErrSkillVerification = errors.New("skill file does not match its entry")

// skillLimits: the SEP's bounds on one skill.
const (
	skillMaxFiles = 512
	skillMaxBytes = 16 << 20
)

// Handle is what the skills need of the session.
type Handle struct {
	// Declared is what the server declared under
	// capabilities.extensions[Ext]: whether it did, and directoryRead.
	Declared func() (declared, directoryRead bool)
	// List is skills/list, every page.
	List func(ctx context.Context) ([]Skill, error)
	// Get is skills/get's entry for uri.
	Get func(ctx context.Context, uri string) (Skill, error)
	// ReadDirectory is resources/directory/read of uri, every page.
	ReadDirectory func(ctx context.Context, uri string) ([]wire.Resource, error)
	// Read is resources/read.
	Read func(ctx context.Context, uri string) ([]wire.ResourceContents, error)
}

// Skills are one session's skills, reached through its Handle.
type Skills struct{ h Handle }

// New is the skills of the session h reaches.
func New(h Handle) *Skills { return &Skills{h: h} }

// Load reads the skill's files, SKILL.md first, verifying each against
// the entry; the first that fails ends the load with an error wrapping
// ErrSkillVerification, before any other file is read.
func (k *Skills) Load(ctx context.Context, sk Skill) (*LoadedSkill, error) {
	if err := k.declared(false); err != nil {
		return nil, err
	}
	files, err := skillFiles(sk)
	if err != nil {
		return nil, err
	}
	out := &LoadedSkill{Skill: sk, Files: make(map[string][]byte, len(files))}
	for i, f := range files {
		contents, err := k.h.Read(ctx, f.URI)
		if err != nil {
			return nil, fmt.Errorf("load skill %s: %w", sk.URI, err)
		}
		b, err := skillBytes(f.URI, contents)
		if err != nil {
			return nil, fmt.Errorf("load skill %s: %w", sk.URI, err)
		}
		if err := verifySkillFile(f, b); err != nil {
			return nil, fmt.Errorf("load skill %s: %w", sk.URI, err)
		}
		if i == 0 {
			if err := verifyFrontmatter(sk, b); err != nil {
				return nil, fmt.Errorf("load skill %s: %w", sk.URI, err)
			}
		}
		out.Files[f.URI] = b
		out.Order = append(out.Order, f.URI)
	}
	return out, nil
}

// skillFiles orders the entry's files for loading, SKILL.md (the entry's
// own uri) first, and checks the entry's shape and limits.
func skillFiles(sk Skill) ([]SkillFile, error) {
	if sk.Resources.Dynamic {
		return nil, fmt.Errorf("%w: skill %s has dynamic resources: no digest to check them against", ErrSkillVerification, sk.URI)
	}
	if len(sk.Resources.Files) > skillMaxFiles {
		return nil, fmt.Errorf("skill %s lists %d files (at most %d)", sk.URI, len(sk.Resources.Files), skillMaxFiles)
	}
	var total int64
	var main *SkillFile
	var rest []SkillFile
	seen := map[string]bool{}
	for _, f := range sk.Resources.Files {
		if seen[f.URI] {
			return nil, fmt.Errorf("skill %s lists %s twice", sk.URI, f.URI)
		}
		seen[f.URI] = true
		if f.Size < 0 {
			return nil, fmt.Errorf("skill %s: %s has size %d", sk.URI, f.URI, f.Size)
		}
		total += f.Size
		if f.URI == sk.URI {
			main = &f
		} else {
			rest = append(rest, f)
		}
	}
	if total > skillMaxBytes {
		return nil, fmt.Errorf("skill %s is %d bytes (at most %d)", sk.URI, total, skillMaxBytes)
	}
	if main == nil {
		return nil, fmt.Errorf("skill %s does not list its own SKILL.md among its files", sk.URI)
	}
	return append([]SkillFile{*main}, rest...), nil
}

// skillBytes is the content resources/read gave for uri: text as UTF-8,
// or a blob decoded.
func skillBytes(uri string, contents []wire.ResourceContents) ([]byte, error) {
	for _, c := range contents {
		if c.URI != uri && len(contents) > 1 {
			continue
		}
		if c.Blob != "" {
			b, err := base64.StdEncoding.DecodeString(c.Blob)
			if err != nil {
				return nil, fmt.Errorf("%s: blob: %w", uri, err)
			}
			return b, nil
		}
		return []byte(c.Text), nil
	}
	return nil, fmt.Errorf("resources/read %s returned no content for it", uri)
}

// verifySkillFile checks size, then digest: a size that differs is a
// verification failure whether or not the digest would be.
func verifySkillFile(f SkillFile, b []byte) error {
	if int64(len(b)) != f.Size {
		return fmt.Errorf("%w: %s is %d bytes, the entry says %d", ErrSkillVerification, f.URI, len(b), f.Size)
	}
	if !strings.HasPrefix(f.Digest, "sha256:") {
		return fmt.Errorf("%w: %s: digest %q is not sha256:HEX", ErrSkillVerification, f.URI, f.Digest)
	}
	if !digestMatches(f.Digest, b) {
		return fmt.Errorf("%w: %s: the content's sha256 is not the entry's digest", ErrSkillVerification, f.URI)
	}
	return nil
}

// digestMatches: digest is "sha256:" and b's sha256 in hex.
func digestMatches(digest string, b []byte) bool {
	hexSum, ok := strings.CutPrefix(digest, "sha256:")
	sum := sha256.Sum256(b)
	return ok && strings.EqualFold(hexSum, hex.EncodeToString(sum[:]))
}

// verifyFrontmatter parses SKILL.md's YAML frontmatter and compares it
// field by field with the entry's: the same fields, the same values.
func verifyFrontmatter(sk Skill, skillMD []byte) error {
	fm, err := frontmatter(skillMD)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrSkillVerification, sk.URI, err)
	}
	var fromMD, fromEntry map[string]any
	b, err := json.Marshal(fm)
	if err != nil {
		return fmt.Errorf("%w: %s: frontmatter: %v", ErrSkillVerification, sk.URI, err)
	}
	if err := json.Unmarshal(b, &fromMD); err != nil {
		return fmt.Errorf("%w: %s: frontmatter: %v", ErrSkillVerification, sk.URI, err)
	}
	if err := json.Unmarshal(sk.Frontmatter, &fromEntry); err != nil || fromEntry == nil {
		return fmt.Errorf("%w: %s: the entry's frontmatter is not an object", ErrSkillVerification, sk.URI)
	}
	for k, v := range fromEntry {
		if mv, ok := fromMD[k]; !ok || !reflect.DeepEqual(mv, v) {
			return fmt.Errorf("%w: %s: frontmatter field %q differs from the entry's", ErrSkillVerification, sk.URI, k)
		}
	}
	for k := range fromMD {
		if _, ok := fromEntry[k]; !ok {
			return fmt.Errorf("%w: %s: frontmatter field %q is not in the entry", ErrSkillVerification, sk.URI, k)
		}
	}
	return nil
}

// frontmatter is the YAML between the opening "---" line and the next.
func frontmatter(md []byte) (map[string]any, error) {
	md = bytes.TrimPrefix(md, []byte("\xef\xbb\xbf"))
	rest, ok := bytes.CutPrefix(md, []byte("---\n"))
	if !ok {
		rest, ok = bytes.CutPrefix(md, []byte("---\r\n"))
	}
	if !ok {
		return nil, errors.New("SKILL.md has no frontmatter")
	}
	end := bytes.Index(rest, []byte("\n---"))
	if end < 0 {
		return nil, errors.New("SKILL.md's frontmatter does not end")
	}
	var fm map[string]any
	if err := yaml.Unmarshal(rest[:end+1], &fm); err != nil {
		return nil, fmt.Errorf("frontmatter: %w", err)
	}
	if fm == nil {
		return nil, errors.New("SKILL.md's frontmatter is empty")
	}
	return fm, nil
}
