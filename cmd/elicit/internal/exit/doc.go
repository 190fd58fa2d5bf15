// Package exit holds elicit's exit codes and the error that carries one
// up to main: every command returns an error, and its code (CodeOf) is
// what the process exits with. The codes are part of the CLI's contract
// (README, "Exit codes"); a headless command prints a non-zero one as
// the failure object (Failure) so a CI step can read why.
package exit
