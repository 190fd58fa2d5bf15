package cli

import (
	"flag"
	"slices"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
)

// Flags are the flags every command that talks to an MCP server takes:
// those naming the server (serverspec.Flags, embedded) and those of the
// session: the protocol, what the client declares, the bounds, --record.
type Flags struct {
	serverspec.Flags
	Protocol      string
	Elicit        string
	Sample        string        // --sample: off, decline, echo or FILE.json
	URLWait       time.Duration // --url-wait: a -32042's wait for completion
	PromptTimeout time.Duration
	// ConnectTimeout and RequestTimeout always hold a bound: zero is
	// refused, not taken for "no limit" (client.Options would read it as
	// the default, which would surprise whoever typed 0).
	ConnectTimeout time.Duration
	RequestTimeout time.Duration
	// Record is --record FILE (package recording).
	Record string
}

// Register adds the flags of the server (serverspec.Flags.Register) and
// of the session.
func (c *Flags) Register(fs *flag.FlagSet) {
	c.Flags.Register(fs)
	fs.StringVar(&c.Protocol, "protocol", "", "pin the MCP protocol version (2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05); default: detect (server/discover, then initialize)")
	fs.StringVar(&c.Elicit, "elicit", "both", "elicitation modes to declare: off, form, url or both")
	fs.StringVar(&c.Sample, "sample", "decline", "sampling: off (not declared), decline, echo (reply with the last user message) or FILE.json ({\"text\",\"model\",\"stopReason\"}; per tool {\"tools\": {NAME: …}}; in order {\"replies\": […]}); the TUI asks the person unless off")
	fs.DurationVar(&c.URLWait, "url-wait", 10*time.Second, "after every URL elicitation of a -32042 answer was accepted, wait this long for notifications/elicitation/complete, then send the request again once either way (the TUI waits for the person's r unless this is given)")
	fs.DurationVar(&c.PromptTimeout, "prompt-timeout", 0, "end an unanswered prompt after this long (default: never)")
	fs.DurationVar(&c.ConnectTimeout, "connect-timeout", client.DefaultConnectTimeout, "give up connecting when the server has not finished the handshake within this long")
	fs.DurationVar(&c.RequestTimeout, "request-timeout", client.DefaultRequestTimeout,
		"fail a request the server has not answered within this long; progress extends it (up to 10 times), and a call waiting on an open prompt never times out")
	fs.StringVar(&c.Record, "record", "", recording.FlagUsage)
}

// CheckTimeouts refuses timeouts that are no bound.
func (c *Flags) CheckTimeouts() error {
	if c.ConnectTimeout <= 0 {
		return exit.Usagef("--connect-timeout must be positive, got %v (a bound always exists; the default is %v)", c.ConnectTimeout, client.DefaultConnectTimeout)
	}
	if c.RequestTimeout <= 0 {
		return exit.Usagef("--request-timeout must be positive, got %v (a bound always exists; the default is %v)", c.RequestTimeout, client.DefaultRequestTimeout)
	}
	return nil
}

var knownProtocols = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// Spec validates the flags and returns the server they name; with none
// given, the demo when defaultDemo, else a usage error.
func (c *Flags) Spec(defaultDemo bool) (serverspec.Server, error) {
	if err := c.CheckOne(); err != nil {
		return serverspec.Server{}, err
	}
	if c.Protocol != "" && !slices.Contains(knownProtocols, c.Protocol) {
		return serverspec.Server{}, exit.Usagef("unknown --protocol %q (known: %s)", c.Protocol, strings.Join(knownProtocols, ", "))
	}
	if _, err := ParseElicit(c.Elicit); err != nil {
		return serverspec.Server{}, err
	}
	if _, _, err := ParseSample(c.Sample); err != nil {
		return serverspec.Server{}, err
	}
	if c.URLWait <= 0 {
		return serverspec.Server{}, exit.Usagef("--url-wait must be positive, got %v (a bound always exists)", c.URLWait)
	}
	if c.PromptTimeout < 0 {
		return serverspec.Server{}, exit.Usagef("--prompt-timeout must not be negative")
	}
	if err := c.CheckTimeouts(); err != nil {
		return serverspec.Server{}, err
	}
	return c.Flags.Spec(defaultDemo)
}

// RecordSettings are the settings line of a recording of a session of
// specs that command runs with these flags.
func (c *Flags) RecordSettings(command string, specs []serverspec.Server, urlWait time.Duration, answer string) record.Settings {
	return recording.Settings(command, c.Protocol, c.Elicit, c.Sample, specs, urlWait, answer)
}
