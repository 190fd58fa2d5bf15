package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// underCI reports whether the tests run under CI, which sets CI=true (as
// GitHub Actions, GitLab and most others do) and installs every peer.
func underCI() bool { return os.Getenv("CI") == "true" }

// Missing ends a test that cannot run without a peer or tool: a skip, or
// under CI a failure. Skips for other reasons (-short, another platform)
// are not this.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if underCI() {
		t.Fatalf("CI=true needs every peer and tool: "+format, args...)
	}
	t.Skipf(format, args...)
}

// MissingPart is Missing for a part of a test (one of several peers it
// plays against): the test goes on without that part, and under CI fails
// at its end.
func MissingPart(t testing.TB, format string, args ...any) {
	t.Helper()
	if underCI() {
		t.Errorf("CI=true needs every peer and tool: "+format, args...)
		return
	}
	t.Logf("left out: "+format, args...)
}

// Getenv returns the environment variable name, which names a peer (a
// path .ci/run exports); unset, the test is Missing it.
func Getenv(t testing.TB, name, what string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		Missing(t, "%s not set (%s); .ci/run sets it", name, what)
	}
	return v
}

// LookPath returns the path of the program file, or the test is Missing
// it.
func LookPath(t testing.TB, file string) string {
	t.Helper()
	p, err := exec.LookPath(file)
	if err != nil {
		Missing(t, "%s is not installed: %v", file, err)
	}
	return p
}

// Lacks reports, as a message for Missing or MissingPart, which of the
// programs files are not installed; "" when all are.
func Lacks(files ...string) string {
	for _, f := range files {
		if _, err := exec.LookPath(f); err != nil {
			return fmt.Sprintf("%s is not installed", f)
		}
	}
	return ""
}
