// Command elicit is a terminal client for MCP servers that gets their
// questions (elicitation) exactly right. See README.md for usage.
package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/profile"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/tui"
	"github.com/elicit-dev/elicit/transport/redact"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	args := os.Args[1:]
	// SIGHUP (the terminal closed) ends the run as SIGTERM does: the TUI
	// restores the terminal and the servers' process groups are stopped,
	// instead of the process dying where it stands.
	// Its stop is never called: os.Exit comes right after run, and
	// signal.Stop would first wait for the signal goroutine to go idle
	// (0.1-0.3 ms of every run, BENCHMARKS.md).
	ctx := context.Background()
	if !printsOnly(args) {
		ctx, _ = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	}
	stopProfiles := profile.Start(os.Stderr)
	code := run(ctx, args, os.Stdin, os.Stdout, os.Stderr)
	stopProfiles()
	os.Exit(code)
}

// printsOnly says that args only print a text (the version, the top
// usage) and start nothing a signal would have to stop. Those runs do not
// install the handlers: os/signal starts three threads for them (its
// locked signal thread, the runtime's template thread and the receiving
// loop's), 0.7–1.0 ms of an 8 ms start (BENCHMARKS.md, "Third
// pass"). Flags before the command ("--theme x version") still install
// them: that is only a slower way to the same line.
func printsOnly(args []string) bool {
	if len(args) == 0 {
		return false
	}
	c, ok := lookupCommand(args[0])
	return ok && c.printsOnly
}

// run is main without the process: tests call it directly.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runSecrets(ctx, args, stdin, stdout, stderr, redact.NewSecrets())
}

// runSecrets is run with the run's secrets: a new set, or a hub
// session's for a command run on it.
func runSecrets(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, sec *redact.Secrets) int {
	// The run's secrets, masked in all it prints on stderr; the writer
	// carries them down to every command (serverspec/secrets.go).
	errw := sec.Writer(stderr)
	defer errw.Flush()
	err := dispatch(ctx, args, stdin, stdout, errw)
	if err != nil && !errors.Is(err, exit.ErrHelp) && !errors.Is(err, errShown) {
		exit.Print(errw, err)
	}
	if errors.Is(err, exit.ErrHelp) {
		return exit.OK
	}
	return exit.CodeOf(err)
}

// errShown: the command's last line was printed already (by the hub that
// ran it).
var errShown = errors.New("shown")

// commands are the subcommands' names (commandTable), for hoistCommand
// and suggestions.
func commands() []string {
	var names []string
	for _, c := range commandTable() {
		names = append(names, c.name)
	}
	return names
}

// hoistCommand lets flags come before the subcommand: "elicit --theme
// dracula demo" runs as "elicit demo --theme dracula". Only flags the TUI
// knows are looked past; anything else is left for the usual error.
func hoistCommand(args []string) []string {
	if len(args) == 0 || !strings.HasPrefix(args[0], "-") {
		return args
	}
	fs := flag.NewFlagSet("elicit", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	(&tui.Flags{}).Register(fs)
	before, _ := cli.SplitDashDash(args)
	if fs.Parse(before) != nil {
		return args
	}
	rest := fs.Args()
	if len(rest) == 0 || !slices.Contains(commands(), rest[0]) {
		return args
	}
	i := len(before) - len(rest) // where the command stands
	out := append([]string{args[i]}, args[:i]...)
	return append(out, args[i+1:]...)
}

// nearestCommand is the subcommand closest to word by edit distance, if
// it is close enough to be a slip ("" otherwise).
func nearestCommand(word string) string {
	best, bestD := "", 3
	for _, c := range commands() {
		if d := editDistance(word, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// stdoutForScripts says that the command name (run with args) writes to a
// stdout that is neither the TUI's terminal nor a protocol stream.
func stdoutForScripts(name string, args []string) bool {
	switch name {
	case "demo":
		return false // the TUI's terminal, or demo --serve stdio's protocol
	case "acp":
		return !tui.ACPWantsTUI(args[1:])
	}
	return true
}

// dispatch runs the command args name (commandTable), or the TUI.
func dispatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return runTUI(ctx, nil, stdin, stdout, stderr)
	}
	if args[0] == hubCommand { // hidden: the session hub (hub_serve.go)
		return runHub(ctx, args[1:], stderr)
	}
	// help is looked for before flags are hoisted: "elicit -h" is the
	// top help, never a flag error.
	if c, ok := lookupCommand(args[0]); ok && c.name == "help" {
		return c.run(ctx, args[1:], stdin, stdout, stderr)
	}
	args = hoistCommand(args)
	c, ok := lookupCommand(args[0])
	if !ok {
		return runTUI(ctx, args, stdin, stdout, stderr)
	}
	if stdoutForScripts(c.name, args) {
		// Its stdout is text and JSON for scripts and logs: it gets the
		// run's secrets masked too.
		outw := serverspec.SecretsOf(stderr).Writer(stdout)
		defer outw.Flush()
		stdout = outw
	}
	run := c.run
	if name, ok := sessionOf(ctx, c.name, args[1:]); ok {
		run = func(ctx context.Context, _ []string, _ io.Reader, stdout, stderr io.Writer) error {
			return forwardSession(ctx, name, args, stdout, stderr) // session_forward.go
		}
	}
	if c.headless {
		return headless.WithFailureJSON(stdout, func(w io.Writer) error { return run(ctx, args[1:], stdin, w, stderr) })
	}
	return run(ctx, args[1:], stdin, stdout, stderr)
}
