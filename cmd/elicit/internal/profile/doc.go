// Package profile writes a CPU profile (ELICIT_CPUPROFILE=FILE) or a Go
// execution trace (ELICIT_TRACE=FILE) of a whole elicit run: how the
// start-up and idle figures of BENCHMARKS.md were taken apart.
package profile
