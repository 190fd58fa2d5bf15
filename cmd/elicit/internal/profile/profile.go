package profile

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// Start starts what the environment asks for, a CPU profile into
// $ELICIT_CPUPROFILE and an execution trace into $ELICIT_TRACE (unset:
// none), and returns what stops both. It unsets them: the demo's agent
// and stdio servers run this binary, and would write over the same
// files. What fails is said on stderr; the run goes on without it.
func Start(stderr io.Writer) (stop func()) {
	stopProfile := startProfile(os.Getenv(ProfileEnv), stderr)
	stopTrace := startTrace(os.Getenv(TraceEnv), stderr)
	_, _ = os.Unsetenv(ProfileEnv), os.Unsetenv(TraceEnv)
	return func() {
		stopTrace()
		stopProfile()
	}
}

// ProfileEnv names a file to write a CPU profile of the whole run to: how
// the idle-CPU and start-up figures of BENCHMARKS.md were taken apart.
const ProfileEnv = "ELICIT_CPUPROFILE"

// startProfile starts a CPU profile into path ("" does nothing) and
// returns what stops it.
func startProfile(path string, stderr io.Writer) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "elicit: %s: %v\n", ProfileEnv, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "elicit: %s: %v\n", ProfileEnv, err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// TraceEnv names a file to write a Go execution trace of the whole run to
// (go tool trace): what woke an idle TUI, and why, is read from it
// (BENCHMARKS.md, "Idle").
const TraceEnv = "ELICIT_TRACE"

// startTrace starts an execution trace into path ("" does nothing) and
// returns what stops it.
func startTrace(path string, stderr io.Writer) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "elicit: %s: %v\n", TraceEnv, err)
		return func() {}
	}
	if err := trace.Start(f); err != nil {
		fmt.Fprintf(stderr, "elicit: %s: %v\n", TraceEnv, err)
		f.Close()
		return func() {}
	}
	return func() {
		trace.Stop()
		f.Close()
	}
}
