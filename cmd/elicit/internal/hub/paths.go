package hub

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Paths are the hub's files, all in one folder only the user can enter.
type Paths struct {
	Dir    string
	Socket string // the control socket (0600)
	Log    string // the hub's log (0600)
	// Spawn is held (flock) by whoever checks for a hub and starts one,
	// so two starts never make two hubs; Live is held by the hub for its
	// whole life, so a second hub started anyway steps aside.
	Spawn, Live string
}

// Locate finds the hub's folder without creating it: under
// $XDG_RUNTIME_DIR when that is set and ours (a folder of our own, no
// one else's to enter), else under the user's cache folder.
func Locate() (Paths, error) {
	dir := ""
	if x := os.Getenv("XDG_RUNTIME_DIR"); x != "" && filepath.IsAbs(x) && private(x) == nil {
		dir = filepath.Join(x, "elicit")
	} else {
		c, err := os.UserCacheDir()
		if err != nil {
			return Paths{}, fmt.Errorf("hub: no folder for the socket: %w", err)
		}
		dir = filepath.Join(c, "elicit", "hub")
	}
	return Paths{Dir: dir, Socket: filepath.Join(dir, "hub.sock"), Log: filepath.Join(dir, "hub.log"),
		Spawn: filepath.Join(dir, "spawn.lock"), Live: filepath.Join(dir, "hub.lock")}, nil
}

// Ensure creates the folder (0700) if it is missing, and refuses one that
// is not a folder of ours that only we can enter: a socket in it would be
// reachable by others.
func (p Paths) Ensure() error {
	if err := os.MkdirAll(filepath.Dir(p.Dir), 0o700); err != nil {
		return fmt.Errorf("hub: %w", err)
	}
	if err := os.Mkdir(p.Dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("hub: %w", err)
	}
	return p.Check()
}

// Check refuses the folder unless it is a real folder (not a link), ours,
// with no permission for group or others.
func (p Paths) Check() error {
	if err := private(p.Dir); err != nil {
		return fmt.Errorf("hub: refusing %s: %w", p.Dir, err)
	}
	return nil
}

// private says why dir is not a folder only we can enter (nil if it is).
func private(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return errors.New("not a folder (a link or a file)")
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("its permissions are %04o, wider than 0700", perm)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("it belongs to uid %d, not to us (%d)", st.Uid, os.Getuid())
	}
	return nil
}
