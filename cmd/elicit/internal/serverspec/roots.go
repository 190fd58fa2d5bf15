package serverspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// Roots from the command line and the config file. --root PATH is
// repeatable and relative to the working directory; a config's "roots"
// (top level, for every server, or a server's own, which replaces the top
// level's for it) are relative to the config file's directory. Each entry
// is a path or a file:// URI, or {"path"|"uri": …, "name": …}. A root is
// named after its last path element unless it says otherwise. Every
// server gets the --root ones, then its config ones.
//
// A --root that does not exist is a usage error (a slip of the hand); a
// config entry that does not exist is a warning, since a config is shared
// between machines. The TUI always declares roots (its roots view may add
// some); a headless command only when it was given some.

// RootFlags is --root, repeatable.
type RootFlags []string

func (r *RootFlags) String() string     { return strings.Join(*r, ", ") }
func (r *RootFlags) Set(v string) error { *r = append(*r, v); return nil }

// Roots resolves the --root flags, each of which must exist.
func (r RootFlags) Roots() ([]client.Root, error) {
	var out []client.Root
	for _, p := range r {
		root, err := client.RootFor(p, "", "")
		if err != nil {
			return nil, exit.Usagef("--root %s: %v", p, err)
		}
		if err := rootExists(root); err != nil {
			return nil, exit.Usagef("--root %s: %v", p, err)
		}
		out = append(out, named(root))
	}
	return out, nil
}

// named gives a root without a name its last path element.
func named(r client.Root) client.Root {
	if r.Name == "" {
		if p, err := r.Path(); err == nil {
			if b := filepath.Base(p); b != string(filepath.Separator) && b != "." {
				r.Name = b
			}
		}
	}
	return r
}

// rootExists says whether what a root names is there.
func rootExists(r client.Root) error {
	p, err := r.Path()
	if err != nil {
		return err
	}
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s does not exist", p)
	} else if err != nil {
		return err
	}
	return nil
}

// configRoot is one entry of a config's "roots" in its object form.
type configRoot struct {
	Path string `json:"path"`
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// parseConfigRoots reads a "roots" member (nil: absent), relative to base.
// Entries that do not exist come back as warnings, kept all the same.
func parseConfigRoots(raw json.RawMessage, base string) (roots []client.Root, warnings []string, err error) {
	if raw == nil {
		return nil, nil, nil
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil || entries == nil {
		return nil, nil, errors.New(`"roots" must be a list of paths, file:// URIs or {"path": …, "name": …}`)
	}
	roots = []client.Root{} // present, even if empty: it replaces the top level's
	seen := map[string]bool{}
	for i, e := range entries {
		var c configRoot
		if t := bytes.TrimSpace(e); len(t) > 0 && t[0] == '"' {
			err = json.Unmarshal(e, &c.Path)
		} else {
			err = json.Unmarshal(e, &c)
		}
		where := c.Path
		if where == "" {
			where = c.URI
		}
		switch {
		case err != nil:
			return nil, nil, fmt.Errorf("roots[%d]: %w", i, err)
		case c.Path != "" && c.URI != "":
			return nil, nil, fmt.Errorf(`roots[%d]: give "path" or "uri", not both`, i)
		case where == "":
			return nil, nil, fmt.Errorf(`roots[%d]: needs a path or a "uri"`, i)
		}
		r, rerr := client.RootFor(where, base, c.Name)
		if rerr != nil {
			return nil, nil, fmt.Errorf("roots[%d]: %w", i, rerr)
		}
		if seen[r.URI] {
			continue
		}
		seen[r.URI] = true
		if werr := rootExists(r); werr != nil {
			warnings = append(warnings, fmt.Sprintf("root %s: %v (kept)", where, werr))
		}
		roots = append(roots, named(r))
	}
	return roots, warnings, nil
}

// WithRoots puts first before spec's own roots, dropping repeats; the
// result is nil only when both are (no roots declared).
func WithRoots(first, own []client.Root) []client.Root {
	if first == nil && own == nil {
		return nil
	}
	out := []client.Root{}
	seen := map[string]bool{}
	for _, r := range append(append([]client.Root{}, first...), own...) {
		if !seen[r.URI] {
			seen[r.URI] = true
			out = append(out, r)
		}
	}
	return out
}
