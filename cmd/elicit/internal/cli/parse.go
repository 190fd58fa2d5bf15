package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// ParseElicit reads --elicit: the elicitation modes to declare.
func ParseElicit(v string) (client.ElicitModes, error) {
	switch v {
	case "off":
		return client.ElicitOff, nil
	case "form":
		return client.ElicitForm, nil
	case "url":
		return client.ElicitURL, nil
	case "both", "":
		return client.ElicitBoth, nil
	}
	return 0, exit.Usagef("bad --elicit %q: want off, form, url or both", v)
}

// ParseSample reads --sample: whether sampling is declared, and the
// headless policy that answers it.
func ParseSample(v string) (client.SamplingMode, question.Prompter, error) {
	switch v {
	case "off":
		return client.SamplingOff, nil, nil
	case "decline", "":
		return client.SamplingOn, question.SampleDecline, nil
	case "echo":
		return client.SamplingOn, question.SampleEcho, nil
	}
	f, err := question.SamplingFile(v)
	if err != nil {
		return 0, nil, exit.Usagef("--sample %s: %v (want off, decline, echo or FILE.json)", v, err)
	}
	return client.SamplingOn, f, nil
}

// SplitDashDash separates "CMD ARGS..." after the first "--".
func SplitDashDash(args []string) (before, after []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// ParseInterleaved parses flags that may come before or after positional
// arguments ("call deploy --args {}" and "call --args {} deploy").
func ParseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			return nil, exit.ErrHelp // the usage is printed; asking for it is no error
		} else if err != nil {
			return nil, exit.Usagef("%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// NewFlagSet is the flag set of command name: its errors and its -h
// (usage, then the flags) go to stderr.
func NewFlagSet(name string, stderr io.Writer, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

// Policy picks the headless Prompter named by --answer.
func Policy(answer string) (question.Prompter, error) {
	switch answer {
	case "accept-defaults", "":
		return question.AcceptDefaults, nil
	case "accept":
		return question.AcceptAll, nil
	case "decline":
		return question.DeclineAll, nil
	case "cancel":
		return question.CancelAll, nil
	}
	p, err := question.AnswerFile(answer)
	if err != nil {
		return nil, exit.Usagef("--answer %s: %v", answer, err)
	}
	return p, nil
}
