package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
)

// common holds the flags every command that talks to a server accepts:
// those naming the server (serverspec.Flags) and those of the session.
type common struct {
	serverspec.Flags
	protocol      string
	elicit        string
	sample        string        // --sample: off, decline, echo or FILE.json
	urlWait       time.Duration // --url-wait: a -32042's wait for completion
	promptTimeout time.Duration
	// connectTimeout and requestTimeout always hold a bound: zero is
	// refused, not taken for "no limit" (client.Options would read it as
	// the default, which would surprise whoever typed 0).
	connectTimeout time.Duration
	requestTimeout time.Duration
	// observer, if set, hears the session's events (headless call).
	observer client.Observer
	// record is --record FILE; rec the recording once the session is
	// set up (record.go), recordAs the command it names and answer the
	// --answer policy it notes.
	record   string
	rec      *record.Recorder
	recordAs string
	answer   string
	// findings records the server's spec violations (connectHeadless
	// makes it); the headless results carry them.
	findings *findings.Recorder
	// logLevel is --log-level (headless: loglevel.go); logLevelOut what
	// became of it once connected, for the JSON.
	logLevel    string
	logLevelOut *logLevelOutput
}

func (c *common) register(fs *flag.FlagSet) {
	c.Flags.Register(fs)
	fs.StringVar(&c.protocol, "protocol", "", "pin the MCP protocol version (2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05); default: detect (server/discover, then initialize)")
	fs.StringVar(&c.elicit, "elicit", "both", "elicitation modes to declare: off, form, url or both")
	fs.StringVar(&c.sample, "sample", "decline", "sampling: off (not declared), decline, echo (reply with the last user message) or FILE.json ({\"text\",\"model\",\"stopReason\"}; per tool {\"tools\": {NAME: …}}; in order {\"replies\": […]}); the TUI asks the person unless off")
	fs.DurationVar(&c.urlWait, "url-wait", 10*time.Second, "after every URL elicitation of a -32042 answer was accepted, wait this long for notifications/elicitation/complete, then send the request again once either way (the TUI waits for the person's r unless this is given)")
	fs.DurationVar(&c.promptTimeout, "prompt-timeout", 0, "end an unanswered prompt after this long (default: never)")
	fs.DurationVar(&c.connectTimeout, "connect-timeout", client.DefaultConnectTimeout, "give up connecting when the server has not finished the handshake within this long")
	fs.DurationVar(&c.requestTimeout, "request-timeout", client.DefaultRequestTimeout,
		"fail a request the server has not answered within this long; progress extends it (up to 10 times), and a call waiting on an open prompt never times out")
	fs.StringVar(&c.record, "record", "", recordFlagUsage)
}

// checkTimeouts refuses timeouts that are no bound.
func (c *common) checkTimeouts() error {
	if c.connectTimeout <= 0 {
		return exit.Usagef("--connect-timeout must be positive, got %v (a bound always exists; the default is %v)", c.connectTimeout, client.DefaultConnectTimeout)
	}
	if c.requestTimeout <= 0 {
		return exit.Usagef("--request-timeout must be positive, got %v (a bound always exists; the default is %v)", c.requestTimeout, client.DefaultRequestTimeout)
	}
	return nil
}

var knownProtocols = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// spec validates the flags and returns the server spec.
func (c *common) spec(defaultDemo bool) (serverspec.Server, error) {
	if err := c.CheckOne(); err != nil {
		return serverspec.Server{}, err
	}
	if c.logLevel != "" && !contains(wire.LogLevels(), c.logLevel) {
		return serverspec.Server{}, exit.Usagef("bad --log-level %q: want one of %s (RFC 5424, lowest first)", c.logLevel, strings.Join(wire.LogLevels(), ", "))
	}
	if c.protocol != "" && !contains(knownProtocols, c.protocol) {
		return serverspec.Server{}, exit.Usagef("unknown --protocol %q (known: %s)", c.protocol, strings.Join(knownProtocols, ", "))
	}
	if _, err := parseElicit(c.elicit); err != nil {
		return serverspec.Server{}, err
	}
	if _, _, err := parseSample(c.sample); err != nil {
		return serverspec.Server{}, err
	}
	if c.urlWait <= 0 {
		return serverspec.Server{}, exit.Usagef("--url-wait must be positive, got %v (a bound always exists)", c.urlWait)
	}
	if c.promptTimeout < 0 {
		return serverspec.Server{}, exit.Usagef("--prompt-timeout must not be negative")
	}
	if err := c.checkTimeouts(); err != nil {
		return serverspec.Server{}, err
	}
	return c.Flags.Spec(defaultDemo)
}

func parseElicit(v string) (client.ElicitModes, error) {
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

// parseSample reads --sample: whether sampling is declared, and the
// headless policy that answers it.
func parseSample(v string) (client.SamplingMode, question.Prompter, error) {
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

// splitDashDash separates "CMD ARGS..." after the first "--".
func splitDashDash(args []string) (before, after []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// parseInterleaved parses flags that may come before or after positional
// arguments ("call deploy --args {}" and "call --args {} deploy").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
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

func newFlagSet(name string, stderr io.Writer, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
