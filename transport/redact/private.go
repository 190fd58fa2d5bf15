package redact

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Files that hold secrets (tokens, recordings, state) are private to the
// person running elicit: created 0600, in a folder elicit makes 0700. A
// folder that exists already is checked: it must be the person's own (a
// folder of another user's could be read, or swapped, by them), and one
// open to others (0777, say) is closed to 0700 before a secret goes in.
// A file that exists already gets 0600 as well, and must be the
// person's own.

// ErrNotPrivate: a folder or file for secrets belongs to another user,
// or cannot be made private.
var ErrNotPrivate = errors.New("not private to you")

// PrivateDir makes dir (and its missing parents) with mode 0700, or
// checks the one that is there: owned by this user, else ErrNotPrivate;
// open to group or others, then chmod 0700.
func PrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("make %s: %w", dir, err)
	}
	return checkDir(dir)
}

// CheckPrivateDir is PrivateDir for a folder that need not exist: an
// absent one is fine (nothing is in it), and is not made.
func CheckPrivateDir(dir string) error {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return checkDir(dir)
}

func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("check %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	return private(dir, fi, 0o700, func(m fs.FileMode) error { return os.Chmod(dir, m) })
}

// private checks that fi (of path) is this user's own and gives it mode
// when group or others have any access.
func private(path string, fi fs.FileInfo, mode fs.FileMode, chmod func(fs.FileMode) error) error {
	if uid, me, ok := owner(fi); ok && uid != me {
		return fmt.Errorf("%w: %s belongs to user %d, not to you (%d); elicit keeps secrets only in a folder of yours "+
			"(remove it, or set XDG_STATE_HOME elsewhere)", ErrNotPrivate, path, uid, me)
	}
	if fi.Mode().Perm()&0o077 == 0 {
		return nil
	}
	if err := chmod(mode); err != nil {
		return fmt.Errorf("%w: %s has mode %04o and cannot be made %04o: %v", ErrNotPrivate, path, fi.Mode().Perm(), mode, err)
	}
	return nil
}

// CreatePrivate creates (or truncates) the file at path for writing, mode
// 0600 (an existing file's mode is narrowed too), in a folder that must
// exist. A file of another user's is refused; a pipe or a device is
// written as it is.
func CreatePrivate(path string) (*os.File, error) {
	// Truncated only once judged: another user's file is left whole.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && fi.Mode().IsRegular() {
		// A pipe or a device (--record /dev/stdout) is not a file kept:
		// its mode and owner are the system's.
		err = private(path, fi, 0o600, f.Chmod)
		if err == nil {
			err = f.Truncate(0)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// WritePrivate writes data to path atomically (a temporary file in the
// same folder, renamed over it), mode 0600, in a folder made or checked
// by PrivateDir: a crash never leaves half a file.
func WritePrivate(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := PrivateDir(dir); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after the rename, a no-op
	// CreateTemp makes 0600 already; said again, as it is the point.
	err = f.Chmod(0o600)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Rename(tmp, path)
}

// ReadPrivate reads the file at path, refusing one of another user's
// (planted in a folder that was open to them) and narrowing a looser
// mode to 0600. A missing file is fs.ErrNotExist.
func ReadPrivate(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := private(path, fi, 0o600, f.Chmod); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return b, nil
}
