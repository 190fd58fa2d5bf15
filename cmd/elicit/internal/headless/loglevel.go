package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// --log-level on the headless commands that talk to a server: after the
// handshake, logging/setLevel (in 2026-07-28 the level rides every
// request's _meta) when the server declared logging, and the server's
// notifications/message lines on stderr as they come. Not in the JSON:
// a log is diagnostics, as the server's own stderr (also on ours) is; it
// can be long, and a script reading stdout wants one document about the
// command, not a log to sift, while a person watching a slow call wants
// the lines while it runs, not after.

// logLevelFlagUsage is --log-level's help.
var logLevelFlagUsage = "ask the server for its log messages at LEVEL and above (logging/setLevel after the handshake; " +
	strings.Join(wire.LogLevels(), ", ") + "); they are printed on stderr"

// LogLevelOutput is what became of --log-level, in the command's JSON.
type LogLevelOutput struct {
	Level string `json:"level"`
	// Skipped says why no level was asked for: the server did not
	// declare logging.
	Skipped string `json:"skipped,omitempty"`
	// Error is the server's answer to logging/setLevel when it failed;
	// the command goes on without the level.
	Error string `json:"error,omitempty"`
}

// applyLogLevel sends --log-level (level) to sess, if given, and says what became
// of it (nil when not given). A server that did not declare logging is not
// asked; a refused or unanswered request is a warning, not the command's
// failure: the logs were asked for beside what the command does.
func applyLogLevel(ctx context.Context, level string, rec *record.Recorder, sess *client.Session, stderr io.Writer) *LogLevelOutput {
	if level == "" {
		return nil
	}
	out := &LogLevelOutput{Level: level}
	if !sess.ServerCapabilities().Logging {
		out.Skipped = "the server did not declare logging"
		fmt.Fprintf(stderr, "elicit: warning: --log-level %s: not sent, %s did not declare logging\n", level, untrusted.Line(sess.Name()))
		return out
	}
	rc := rec.Begin(sess.Name(), wire.MethodLoggingSetLevel, "", recording.SetLevelParams{Level: level}, nil)
	err := sess.SetLogLevel(ctx, level)
	rc.End(nil, err)
	if err != nil {
		out.Error = err.Error()
		fmt.Fprintf(stderr, "elicit: warning: --log-level %s: %s\n", level, untrusted.Line(err.Error()))
	}
	return out
}

// logPrinter prints the server's notifications/message on stderr, one
// line each, through untrusted.Line, and passes every event on.
type logPrinter struct {
	name   string
	stderr io.Writer
	next   client.Observer
}

func (p logPrinter) Event(e client.Event) {
	if m, ok := e.(client.LogMessage); ok {
		fmt.Fprintln(p.stderr, logLine(p.name, m))
	}
	if p.next != nil {
		p.next.Event(e)
	}
}

// logLine is m as one line: "[server] log LEVEL (LOGGER): DATA", data as
// its text when it is a JSON string, else its JSON.
func logLine(name string, m client.LogMessage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] log %s", untrusted.Line(name), untrusted.Line(m.Level))
	if m.Logger != "" {
		fmt.Fprintf(&b, " (%s)", untrusted.Line(m.Logger))
	}
	data := string(m.Data)
	var text string
	if json.Unmarshal(m.Data, &text) == nil {
		data = text
	}
	fmt.Fprintf(&b, ": %s", untrusted.Line(data))
	if m.Dropped > 0 {
		fmt.Fprintf(&b, " (%d log messages dropped before this one)", m.Dropped)
	}
	return b.String()
}
