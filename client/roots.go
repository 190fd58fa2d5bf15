package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Roots: the directories (or files) the client offers a server as its
// workspace. Options.Roots declares the capability: "roots":{"listChanged":
// true} in the stateful era, where the server asks with roots/list and
// SetRoots tells it of a change with notifications/roots/list_changed;
// "roots":{} in every 2026-07-28 request, where a server asks through a
// roots/list entry of inputRequests (MRTR, or a task's) and gets the list
// as it stands then, with no notification (the spec removed it: a
// stateless server asks again whenever it needs them). A roots/list needs
// no person: it is answered from the list at once.

// Root is one root offered to servers: a file:// URI and an optional
// name for people.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// ErrRootsNotDeclared is wrapped by SetRoots when the session declared no
// roots capability (Options.Roots was nil when it connected): the list is
// kept, but the server cannot be told until the next connection.
var ErrRootsNotDeclared = errors.New("the session declared no roots capability")

// RootFor makes a Root of a path or a file:// URI. A relative path is taken
// from base, or from the working directory when base is "" (flags); a
// config file's entries pass its directory. A leading "~/" is the home
// directory. Whether the path exists is not checked here (see Root.Path).
func RootFor(pathOrURI, base, name string) (Root, error) {
	p := strings.TrimSpace(pathOrURI)
	if p == "" {
		return Root{}, errors.New("root: empty path")
	}
	if strings.HasPrefix(p, "file:") {
		r := Root{URI: p, Name: name}
		path, err := r.Path()
		if err != nil {
			return Root{}, err
		}
		return Root{URI: fileURI(path), Name: name}, nil
	}
	if scheme, _, ok := strings.Cut(p, "://"); ok && !strings.ContainsAny(scheme, `/\`) {
		return Root{}, fmt.Errorf("root %q: only file:// URIs and paths can be roots", p)
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok || p == "~" {
		home, err := os.UserHomeDir()
		if err != nil {
			return Root{}, fmt.Errorf("root %q: %w", p, err)
		}
		p = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(p) {
		// From base, and base (when relative: a config found as
		// ./.vscode/mcp.json) from the working directory.
		abs, err := filepath.Abs(filepath.Join(base, p))
		if err != nil {
			return Root{}, fmt.Errorf("root %q: %w", p, err)
		}
		p = abs
	}
	return Root{URI: fileURI(filepath.Clean(p)), Name: name}, nil
}

// fileURI is the file:// URI of an absolute, clean path, percent-encoded
// where a URI needs it ("/a b" is file:///a%20b).
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// Path is the local path a root's file:// URI names. It fails for a URI
// that is not file://, names another host, is relative, or is not clean
// (".." segments: the spec asks clients to guard against traversal).
func (r Root) Path() (string, error) {
	u, err := url.Parse(r.URI)
	switch {
	case err != nil:
		return "", fmt.Errorf("root %q: %w", r.URI, err)
	case u.Scheme != "file":
		return "", fmt.Errorf("root %q: roots must be file:// URIs", r.URI)
	case u.Host != "" && u.Host != "localhost":
		return "", fmt.Errorf("root %q: a file URI of another host (%s)", r.URI, u.Host)
	case u.Opaque != "" || !strings.HasPrefix(u.Path, "/"):
		return "", fmt.Errorf("root %q: not an absolute path", r.URI)
	}
	if p := strings.TrimSuffix(u.Path, "/"); p != "" && filepath.Clean(p) != p {
		return "", fmt.Errorf("root %q: the path is not clean (. or .. segments)", r.URI)
	}
	return filepath.FromSlash(u.Path), nil
}

// checkRoots refuses a list with a root that is no clean file:// URI, or
// names the same URI twice.
func checkRoots(roots []Root) error {
	seen := map[string]bool{}
	for _, r := range roots {
		if _, err := r.Path(); err != nil {
			return err
		}
		if seen[r.URI] {
			return fmt.Errorf("root %q is listed twice", r.URI)
		}
		seen[r.URI] = true
	}
	return nil
}

// RootsInfo is where a session's roots stand.
type RootsInfo struct {
	// Roots are the roots offered now, in order.
	Roots []Root
	// Declared: the session declared the roots capability (Options.Roots
	// was not nil when it connected).
	Declared bool
	// ListChanged: a change is sent as notifications/roots/list_changed
	// (declared, in the stateful era; 2026-07-28 has no such notification).
	ListChanged bool
	// Asked counts the server's roots/list requests (or inputs), and
	// LastAsked is when the last one came.
	Asked     int
	LastAsked time.Time
}

// rootsState is a session's roots, under its own lock; declared is fixed
// by newSession.
type rootsState struct {
	declared bool

	mu        sync.Mutex
	list      []Root
	asked     int
	lastAsked time.Time
}

// Roots reports the session's roots.
func (s *Session) Roots() RootsInfo {
	info := s.roots.info()
	info.ListChanged = info.Declared && !s.stateless()
	return info
}

// info is where the roots stand, but for ListChanged (the era's).
func (r *rootsState) info() RootsInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	return RootsInfo{
		Roots:     slices.Clone(r.list),
		Declared:  r.declared,
		Asked:     r.asked,
		LastAsked: r.lastAsked,
	}
}

// SetRoots replaces the roots offered to the server. When the session
// declared roots in the stateful era, the server is told with
// notifications/roots/list_changed (and asks again with roots/list); a
// 2026-07-28 server gets the new list the next time it asks. A list with a
// root that is no clean file:// URI is refused whole. If the session
// declared no roots, the list is kept and the error wraps
// ErrRootsNotDeclared.
func (s *Session) SetRoots(ctx context.Context, roots []Root) error {
	if err := checkRoots(roots); err != nil {
		return fmt.Errorf("set roots on %s: %w", s.name, err)
	}
	if !s.roots.set(roots) {
		return fmt.Errorf("set roots on %s: %w", s.name, ErrRootsNotDeclared)
	}
	s.mu.Lock()
	notify := s.life.up() && s.neg.kind != eraStateless
	s.mu.Unlock()
	if !notify {
		return nil
	}
	n, err := jsonrpc.NewNotification(wire.NotifyRootsListChanged, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", wire.NotifyRootsListChanged, err)
	}
	if err := s.peer.WriteContext(ctx, n); err != nil {
		return fmt.Errorf("%s to %s: %w", wire.NotifyRootsListChanged, s.name, err)
	}
	return nil
}

// set makes roots the list offered, and reports whether roots are
// declared at all (a list set without is kept for nothing).
func (r *rootsState) set(roots []Root) (declared bool) {
	r.mu.Lock()
	r.list = slices.Clone(roots)
	r.mu.Unlock()
	return r.declared
}

// declare declares roots when Options.Roots is set: with listChanged
// in the stateful era, as {} in 2026-07-28 (listChanged is gone there).
func (r *rootsState) declare(v string) (string, any, bool) {
	switch {
	case !r.declared:
		return "", nil, false
	case wire.Stateless(v):
		return "roots", struct{}{}, true
	}
	return "roots", map[string]any{"listChanged": true}, true
}

// result is the ListRootsResult of the list as it stands, counting the
// ask; ok is false when the session declared no roots.
func (r *rootsState) result() (json.RawMessage, bool) {
	if !r.declared {
		return nil, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked++
	r.lastAsked = time.Now()
	list := r.list
	if list == nil {
		list = []Root{} // "roots": [], never null
	}
	return wire.MustJSON(struct {
		Roots []Root `json:"roots"`
	}{list}), true
}

// serve answers the server's roots/list (stateful era).
func (r *rootsState) serve() (json.RawMessage, *jsonrpc.Error) {
	res, ok := r.result()
	if !ok {
		return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, unservedRoots, nil)
	}
	return res, nil
}

// autoInput answers an inputRequests entry that needs no person (a
// roots/list, when we declared roots) from what the client holds; ok is
// false for every other entry, which goes to the ask path.
func (r *rootsState) autoInput(raw json.RawMessage) (json.RawMessage, bool) {
	var e inputEntry
	if json.Unmarshal(raw, &e) != nil || e.Method != wire.MethodRootsList {
		return nil, false
	}
	return r.result()
}
