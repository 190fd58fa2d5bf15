package skills

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/elicit-dev/elicit/client/wire"
)

// Dynamic is the value of "resources" for a skill whose files are
// generated: the entry declares none, so none can be verified.
const Dynamic = "dynamic"

// Files is an entry's "resources": the files it declares with their
// digests and sizes, or Dynamic.
type Files struct {
	Dynamic bool
	Files   []SkillFile
}

// UnmarshalJSON takes a list of files or the string "dynamic"; any other
// string is refused, so a typo does not pass for a skill with no files.
func (f *Files) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("resources: %w", err)
		}
		if s != Dynamic {
			return fmt.Errorf("resources: %q is neither a list of files nor %q", s, Dynamic)
		}
		*f = Files{Dynamic: true}
		return nil
	}
	var list []SkillFile
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("resources: %w", err)
	}
	*f = Files{Files: list}
	return nil
}

// MarshalJSON writes what was declared: the list, or "dynamic".
func (f Files) MarshalJSON() ([]byte, error) {
	if f.Dynamic {
		return json.Marshal(Dynamic)
	}
	if f.Files == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(f.Files)
}

// Meta is the entry's name and description (its frontmatter's), empty
// when the entry has none or they are not strings.
func (sk Skill) Meta() (name, description string) {
	var fm struct {
		Name        any `json:"name"`
		Description any `json:"description"`
	}
	if json.Unmarshal(sk.Frontmatter, &fm) != nil {
		return "", ""
	}
	name, _ = fm.Name.(string)
	description, _ = fm.Description.(string)
	return name, description
}

// ErrNotDeclared is returned, without asking the server, for a request
// of the extension the server did not declare (capabilities.extensions),
// and for resources/directory/read without its directoryRead: true.
var ErrNotDeclared = errors.New("the server did not declare it")

// declared checks the server's declaration before anything is asked.
func (k *Skills) declared(directoryRead bool) error {
	ok, dir := false, false
	if k.h.Declared != nil {
		ok, dir = k.h.Declared()
	}
	switch {
	case !ok:
		return fmt.Errorf("skills: %w: no capabilities.extensions[%q]", ErrNotDeclared, Ext)
	case directoryRead && !dir:
		return fmt.Errorf("%s: %w: no directoryRead: true in capabilities.extensions[%q]", wire.MethodResourcesDirectoryRead, ErrNotDeclared, Ext)
	}
	return nil
}

// List returns every skill the server lists (skills/list, following
// nextCursor). Nothing of any skill is read.
func (k *Skills) List(ctx context.Context) ([]Skill, error) {
	if err := k.declared(false); err != nil {
		return nil, err
	}
	return k.h.List(ctx)
}

// Get is skills/get: the server's entry for the skill at uri. Nothing of
// the skill is read.
func (k *Skills) Get(ctx context.Context, uri string) (Skill, error) {
	if err := k.declared(false); err != nil {
		return Skill{}, err
	}
	sk, err := k.h.Get(ctx, uri)
	if err != nil {
		return Skill{}, err
	}
	switch sk.URI {
	case "":
		return Skill{}, fmt.Errorf("%s %s: the answer has no skill", wire.MethodSkillsGet, uri)
	case uri:
		return sk, nil
	}
	// Another skill's entry: its files would be taken for this one's.
	return Skill{}, fmt.Errorf("%s %s: the server answered the entry of %s", wire.MethodSkillsGet, uri, sk.URI)
}

// ReadDirectory is resources/directory/read of uri (every page, within
// the list bounds of the session): its direct children, not recursively.
// It is asked only of a server that declared directoryRead: true.
func (k *Skills) ReadDirectory(ctx context.Context, uri string) ([]wire.Resource, error) {
	if err := k.declared(true); err != nil {
		return nil, err
	}
	return k.h.ReadDirectory(ctx, uri)
}
