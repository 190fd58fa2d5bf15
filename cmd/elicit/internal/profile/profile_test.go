package profile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestStartWritesBothAndHidesThemFromChildren: with both variables set,
// the profile and the trace are written once stopped, and the variables
// are gone from the environment the run's children inherit.
func TestStartWritesBothAndHidesThemFromChildren(t *testing.T) {
	dir := t.TempDir()
	prof, tr := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "run.trace")
	t.Setenv(ProfileEnv, prof)
	t.Setenv(TraceEnv, tr)
	var stderr bytes.Buffer
	stop := Start(&stderr)
	if _, ok := os.LookupEnv(ProfileEnv); ok {
		t.Errorf("%s still set for the children", ProfileEnv)
	}
	if _, ok := os.LookupEnv(TraceEnv); ok {
		t.Errorf("%s still set for the children", TraceEnv)
	}
	stop()
	for _, p := range []string{prof, tr} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v, want it written", p, err)
		}
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// TestStartSaysWhatFails: a file that cannot be created is said on
// stderr, naming the variable, and the run goes on.
func TestStartSaysWhatFails(t *testing.T) {
	t.Setenv(ProfileEnv, filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.prof"))
	t.Setenv(TraceEnv, "")
	var stderr bytes.Buffer
	Start(&stderr)()
	if !bytes.Contains(stderr.Bytes(), []byte("elicit: "+ProfileEnv+": ")) {
		t.Errorf("stderr %q, want it to name %s", stderr.String(), ProfileEnv)
	}
}
