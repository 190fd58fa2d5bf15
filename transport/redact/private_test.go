package redact_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/transport/redact"
)

func modeOf(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestPrivateDir: a folder made is 0700; one that is there, open to
// everyone (0777), is closed to 0700; an absent one is only checked.
func TestPrivateDir(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	made := filepath.Join(base, "a", "b")
	if err := redact.PrivateDir(made); err != nil {
		t.Fatal(err)
	}
	if m := modeOf(t, made); m != 0o700 {
		t.Errorf("made %04o, want 0700", m)
	}
	loose := filepath.Join(base, "loose")
	if err := os.Mkdir(loose, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(loose, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := redact.PrivateDir(loose); err != nil {
		t.Fatal(err)
	}
	if m := modeOf(t, loose); m != 0o700 {
		t.Errorf("a 0777 folder is left %04o, want 0700", m)
	}
	absent := filepath.Join(base, "absent")
	if err := redact.CheckPrivateDir(absent); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(absent); !os.IsNotExist(err) {
		t.Errorf("CheckPrivateDir made %s", absent)
	}
}

// TestPrivateFiles: files written or created are 0600, an existing
// file's looser mode is narrowed, and what WritePrivate wrote reads back.
func TestPrivateFiles(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	p := filepath.Join(dir, "tokens.json")
	if err := redact.WritePrivate(p, []byte("secret")); err != nil {
		t.Fatal(err)
	}
	if m, d := modeOf(t, p), modeOf(t, dir); m != 0o600 || d != 0o700 {
		t.Errorf("file %04o in folder %04o, want 0600 in 0700", m, d)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := redact.ReadPrivate(p); err != nil || string(b) != "secret" {
		t.Fatalf("ReadPrivate = %q, %v", b, err)
	}
	if m := modeOf(t, p); m != 0o600 {
		t.Errorf("a 0644 file read is left %04o", m)
	}
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	if err := os.WriteFile(rec, []byte("old"), 0o666); err != nil {
		t.Fatal(err)
	}
	f, err := redact.CreatePrivate(rec)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if m := modeOf(t, rec); m != 0o600 {
		t.Errorf("CreatePrivate over a 0666 file: %04o", m)
	}
	// A device is written as it is (--record /dev/null).
	null, err := redact.CreatePrivate(os.DevNull)
	if err != nil {
		t.Fatalf("CreatePrivate(%s): %v", os.DevNull, err)
	}
	null.Close()
	if m := modeOf(t, os.DevNull); m&0o066 == 0 {
		t.Errorf("%s was narrowed to %04o", os.DevNull, m)
	}
}

// TestPrivateRefusesAnotherUsers: a folder or file of another user's is
// refused with a message that says whose it is, and is not changed.
func TestPrivateRefusesAnotherUsers(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		// Without root no folder of another user's can be made; /tmp is
		// root's (and only checked: refused before any change).
		if err := redact.CheckPrivateDir(os.TempDir()); !errors.Is(err, redact.ErrNotPrivate) {
			t.Fatalf("CheckPrivateDir(%s) = %v", os.TempDir(), err)
		}
		return
	}
	base := t.TempDir()
	dir := filepath.Join(base, "theirs")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "planted.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, file} {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	err := redact.PrivateDir(dir)
	if !errors.Is(err, redact.ErrNotPrivate) || !strings.Contains(err.Error(), "belongs to user 65534") {
		t.Errorf("PrivateDir of another user's folder: %v", err)
	}
	if m := modeOf(t, dir); m != 0o777 {
		t.Errorf("another user's folder was changed to %04o", m)
	}
	if _, err := redact.ReadPrivate(file); !errors.Is(err, redact.ErrNotPrivate) {
		t.Errorf("ReadPrivate of another user's file: %v", err)
	}
	if _, err := redact.CreatePrivate(file); !errors.Is(err, redact.ErrNotPrivate) {
		t.Errorf("CreatePrivate over another user's file: %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "{}" {
		t.Errorf("another user's file was truncated: %q", b)
	}
}
