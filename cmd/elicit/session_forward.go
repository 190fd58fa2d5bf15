package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
)

// A headless command given --session NAME runs in the session hub, on
// that session: this process only forwards its command line
// (forwardSession) and prints what the hub's run of it printed, exiting
// as it exited. In the hub the command runs as it always does, except
// that connectHeadless hands it the kept session (keptSession) instead
// of starting a server.

// sessionCommands are the commands that take --session.
var sessionCommands = []string{"tools", "call", "resources", "templates", "read", "prompts", "get", "check", "ping"}

// flagValue is the value of --name (or -name, --name=V) among args before
// "--", and whether it was given.
func flagValue(args []string, name string) (string, bool) {
	before, _ := splitDashDash(args)
	for i, a := range before {
		switch {
		case a == "-"+name || a == "--"+name:
			if i+1 < len(before) {
				return before[i+1], true
			}
			return "", true
		case strings.HasPrefix(a, "-"+name+"=") || strings.HasPrefix(a, "--"+name+"="):
			return a[strings.Index(a, "=")+1:], true
		}
	}
	return "", false
}

// flagGiven says whether name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// sessionOf is the session a command line names with --session, when
// this process is to forward it (not when it runs in the hub already).
func sessionOf(ctx context.Context, command string, args []string) (string, bool) {
	if !slices.Contains(sessionCommands, command) || hub.SessionFrom(ctx) != nil {
		return "", false
	}
	return flagValue(args, "session")
}

// forwardSession runs args (the command's name first) on session name in
// the hub and prints what it printed.
func forwardSession(ctx context.Context, name string, args []string, stdout, stderr io.Writer) error {
	if name == "" {
		return usageErr("--session needs a NAME")
	}
	_, noWait := flagValue(args[1:], "no-wait")
	if v, ok := flagValue(args[1:], "no-wait"); ok && (v == "false" || v == "0") {
		noWait = false
	}
	p, err := hub.Locate()
	if err != nil {
		return fail(exitConnect, "%w", err)
	}
	var r hub.RunResult
	err = hub.Request(ctx, p, hub.MethodRun, hub.RunParams{Session: name, Args: hereArgs(args), NoWait: noWait}, &r)
	if err != nil {
		return hubFailure(name, err)
	}
	if r.Call != "" { // --no-wait
		return writeJSON(stdout, struct {
			Call      string             `json:"call"`
			Questions []hub.QuestionInfo `json:"questions"`
		}{r.Call, orEmpty(r.Questions)})
	}
	return printRun(r, stdout, stderr)
}

// printRun prints a command's run in the hub and exits as it did (its
// last line is in its stderr already).
func printRun(r hub.RunResult, stdout, stderr io.Writer) error {
	if _, err := io.WriteString(stdout, r.Stdout); err != nil {
		return err
	}
	io.WriteString(stderr, r.Stderr)
	if r.Exit != 0 {
		return &exitError{code: r.Exit, err: errShown}
	}
	return nil
}

// hubFailure is the error of a command the hub refused or could not run.
func hubFailure(session string, err error) error {
	code := hub.ExitOf(err)
	switch {
	case errors.Is(err, hub.ErrDisconnected): // the hub died, or went while we asked
		return fail(code, "session %s: disconnected: %s", session, hub.Message(err))
	case errors.Is(err, hub.ErrNoHub):
		return fail(code, "no session %s: no session hub runs (elicit session start starts one)", session)
	}
	return fail(code, "%s", hub.Message(err))
}

// hereArgs are args with the paths the hub would read elsewhere made
// absolute: --answer FILE.json.
func hereArgs(args []string) []string {
	out := slices.Clone(args)
	before, _ := splitDashDash(out)
	for i, a := range before {
		switch {
		case (a == "--answer" || a == "-answer") && i+1 < len(before):
			out[i+1] = absPath(out[i+1], isPolicyName)
		case strings.HasPrefix(a, "--answer=") || strings.HasPrefix(a, "-answer="):
			k := strings.Index(a, "=")
			out[i] = a[:k+1] + absPath(a[k+1:], isPolicyName)
		}
	}
	return out
}

// isPolicyName says whether v names an --answer policy, not a file.
func isPolicyName(v string) bool {
	return slices.Contains([]string{"", "accept-defaults", "accept", "decline", "cancel"}, v)
}

// absPath is v made absolute from here, unless keep says it is a word.
func absPath(v string, keep func(string) bool) string {
	if keep(v) || filepath.IsAbs(v) {
		return v
	}
	if a, err := filepath.Abs(v); err == nil {
		return a
	}
	return v
}

// keptSession is connectHeadless in the hub: the session kept there, its
// findings and recording. A command on it names no server of its own.
func keptSession(c *common, k *hub.Session) (*client.Session, func(), error) {
	if c.url != "" || c.demo || len(c.command) > 0 || c.config != "" || c.server != "" {
		return nil, nil, usageErr("--session %s runs on the session's server: give no server (-- CMD, --url, --demo, --config, --server)", k.Name)
	}
	if c.record != "" {
		return nil, nil, usageErr("--record on a session: give it to elicit session start, which records the whole session")
	}
	if err := k.Err(); err != nil {
		return nil, nil, fail(exitConnect, "%w", err)
	}
	c.findings, c.rec = k.Findings(), k.Recorder()
	return k.Client(), func() {}, nil
}

// hubCallOptions tie a tool call of a command running in the hub to its
// hub call (its questions are then known as the call's); nil elsewhere.
func hubCallOptions(ctx context.Context) *client.CallOptions {
	if hc := hub.CallFrom(ctx); hc != nil {
		return &client.CallOptions{OnID: hc.OnID}
	}
	return nil
}

// cwd is the working folder, "" if it cannot be known.
func cwd() string {
	d, _ := os.Getwd()
	return d
}
