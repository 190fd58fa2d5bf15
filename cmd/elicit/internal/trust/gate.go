package trust

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// Gate decides whether the launches a file names may run.
type Gate struct {
	File string
	// Whose says what the file is to the person ("the recording's
	// content, not yours"); How, how to go on without confirming.
	Whose, How string
	Trusted    bool // --trust-recorded-command
	// Stdin nil is a command that never asks (a headless one).
	Stdin  io.Reader
	Stderr io.Writer
}

// Allow returns nil when launches may run: none, the flag given, or the
// person confirmed on a terminal. Else a usage error saying how.
func (g Gate) Allow(ctx context.Context, launches []Launch) error {
	if len(launches) == 0 {
		return nil
	}
	var shown strings.Builder
	for _, l := range launches {
		for _, s := range l.Lines() {
			shown.WriteString("  " + s + "\n")
		}
	}
	file := untrusted.Line(g.File)
	if g.Trusted {
		fmt.Fprintf(g.Stderr, "elicit replay: --trust-recorded-command: running what %s names:\n%s", file, shown.String())
		return nil
	}
	in, ok := TerminalIn(g.Stdin, g.Stderr)
	if !ok {
		orAsk := "; or run it on a terminal to confirm"
		if g.Stdin == nil {
			orAsk = "" // a command that never asks
		}
		return exit.Usagef("%s names what to run (%s), and elicit runs only what you name or confirm:\n%sNothing was run. To go on, %s%s",
			file, g.Whose, shown.String(), g.How, orAsk)
	}
	question := "Run it? [y/N] "
	if len(launches) > 1 {
		question = "Run them? [y/N] "
	}
	fmt.Fprintf(g.Stderr, "%s names what to run (%s: check it):\n%s%s", file, g.Whose, shown.String(), question)
	answer, err := ReadLine(ctx, in)
	if ctx.Err() != nil {
		return exit.Fail(exit.Internal, "interrupted before anything ran")
	}
	if err != nil {
		return fmt.Errorf("the answer to run what %s names: %w", file, err)
	}
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes":
		return nil
	}
	return exit.Usagef("not confirmed: nothing was run. To go on, %s", g.How)
}

// TerminalIn is stdin when both stdin and stderr are terminals: a person
// is there to read the question and answer it.
func TerminalIn(stdin io.Reader, stderr io.Writer) (*os.File, bool) {
	in, ok := stdin.(*os.File)
	if !ok || !term.IsTerminal(in.Fd()) {
		return nil, false
	}
	out, ok := FileOf(stderr)
	if !ok || !term.IsTerminal(out.Fd()) {
		return nil, false
	}
	return in, true
}

// FileOf is the file w writes to, looking through writers that wrap
// another (the run's secrets masking stderr).
func FileOf(w io.Writer) (*os.File, bool) {
	for {
		switch v := w.(type) {
		case *os.File:
			return v, true
		case interface{ Unwrap() io.Writer }:
			w = v.Unwrap()
		default:
			return nil, false
		}
	}
}

// ReadLine reads one line of in; ctx ending (Ctrl+C) ends the wait. A
// person answering has no time limit. The reader is left blocked when ctx
// ends: the process is on its way out (it runs only on a terminal, never
// in the in-process tests).
func ReadLine(ctx context.Context, in io.Reader) (string, error) {
	type line struct {
		s   string
		err error
	}
	got := make(chan line, 1)
	go func() {
		s, err := bufio.NewReader(in).ReadString('\n')
		if err == io.EOF {
			err = nil // Ctrl+D: no answer, which is no
		}
		got <- line{s, err}
	}()
	select {
	case l := <-got:
		return l.s, l.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Permit asks the person whether the answers the file gives for them
// (lines) may be given. Unlike Allow, no terminal and no flag is a no
// (said on stderr), not an error: nothing the file names runs.
func (g Gate) Permit(ctx context.Context, lines []string) (bool, error) {
	var shown strings.Builder
	for _, s := range lines {
		shown.WriteString("  " + untrusted.Line(s) + "\n")
	}
	file := untrusted.Line(g.File)
	if g.Trusted {
		fmt.Fprintf(g.Stderr, "elicit replay: --trust-recorded-command: answering as %s recorded:\n%s", file, shown.String())
		return true, nil
	}
	in, ok := TerminalIn(g.Stdin, g.Stderr)
	if !ok {
		fmt.Fprintf(g.Stderr, "elicit replay: %s allows for you what may change things (%s); without your word each is rejected:\n%s"+
			"To answer them as recorded, pass --trust-recorded-command, or run the replay on a terminal to confirm.\n", file, g.Whose, shown.String())
		return false, nil
	}
	fmt.Fprintf(g.Stderr, "%s answers for you (%s: check it):\n%sAnswer so? [y/N] ", file, g.Whose, shown.String())
	answer, err := ReadLine(ctx, in)
	if ctx.Err() != nil {
		return false, exit.Fail(exit.Internal, "interrupted before anything ran")
	}
	if err != nil {
		return false, fmt.Errorf("the answer to allow what %s allows: %w", file, err)
	}
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes":
		return true, nil
	}
	fmt.Fprintf(g.Stderr, "elicit replay: not confirmed: the recorded allows are rejected\n")
	return false, nil
}
