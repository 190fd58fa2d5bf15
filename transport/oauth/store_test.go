package oauth_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/transport/oauth"
	"github.com/elicit-dev/elicit/transport/redact"
)

// A token store folder that exists already, open to everyone (0777): the
// token is not written into it as it is; the folder is closed to 0700
// first, and the token file is 0600.
func TestStoreClosesALooseFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "elicit", "auth")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	store := &oauth.Store{Dir: dir}
	if _, err := store.Update("https://h/mcp", func(r *oauth.Record) error {
		r.Token = &oauth.Token{AccessToken: "the-access-token"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o700 {
		t.Errorf("the folder is %04o after a token was written into it, want 0700", m)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", f, fi.Mode(), err)
		}
	}
	// Reading is checked too: a loose folder found by Load is closed.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if rec, err := store.Load("https://h/mcp"); err != nil || rec == nil {
		t.Fatalf("Load = %v, %v", rec, err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("Load left the folder %04o", fi.Mode().Perm())
	}
}

// A token store folder of another user's is refused, saying whose it
// is; nothing is written into it.
func TestStoreRefusesAnotherUsersFolder(t *testing.T) {
	dir, owner := filepath.Join(t.TempDir(), "auth"), "65534"
	if os.Getuid() == 0 {
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(dir, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	} else {
		// Without root no folder can be given away; the system's temporary
		// folder is root's (refused before anything is changed in it).
		dir, owner = os.TempDir(), "0"
	}
	store := &oauth.Store{Dir: dir}
	_, err := store.Update("https://h/mcp", func(r *oauth.Record) error {
		r.Token = &oauth.Token{AccessToken: "the-access-token"}
		return nil
	})
	if !errors.Is(err, redact.ErrNotPrivate) || !strings.Contains(err.Error(), "belongs to user "+owner) {
		t.Errorf("Update into another user's folder: %v", err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(files) != 0 && owner != "0" {
		t.Errorf("written into another user's folder: %v", files)
	}
	if _, err := store.Load("https://h/mcp"); !errors.Is(err, redact.ErrNotPrivate) {
		t.Errorf("Load from another user's folder: %v", err)
	}
}
