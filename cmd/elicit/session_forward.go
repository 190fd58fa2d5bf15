package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
)

// A headless command given --session NAME runs in the session hub, on
// that session: this process only forwards its command line
// (forwardSession) and prints what the hub's run of it printed, exiting
// as it exited. In the hub the command runs as it always does, except
// that its connect hands it the kept session (headless/session.go)
// instead of starting a server.

// sessionCommand says whether command takes --session.
func sessionCommand(command string) bool {
	switch command {
	case "tools", "call", "resources", "templates", "read", "prompts", "get", "check", "ping", "skills", "skill":
		return true
	}
	return false
}

// flagValue is the value of --name (or -name, --name=V) among args before
// "--", and whether it was given.
func flagValue(args []string, name string) (string, bool) {
	before, _ := cli.SplitDashDash(args)
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

// sessionOf is the session a command line names with --session, when
// this process is to forward it (not when it runs in the hub already).
func sessionOf(ctx context.Context, command string, args []string) (string, bool) {
	if !sessionCommand(command) || hub.SessionFrom(ctx) != nil {
		return "", false
	}
	return flagValue(args, "session")
}

// forwardSession runs args (the command's name first) on session name in
// the hub and prints what it printed.
func forwardSession(ctx context.Context, name string, args []string, stdout, stderr io.Writer) error {
	if name == "" {
		return exit.Usagef("--session needs a NAME")
	}
	_, noWait := flagValue(args[1:], "no-wait")
	if v, ok := flagValue(args[1:], "no-wait"); ok && (v == "false" || v == "0") {
		noWait = false
	}
	p, err := hub.Locate()
	if err != nil {
		return exit.Fail(exit.Connect, "%w", err)
	}
	var r hub.RunResult
	err = hub.Request(ctx, p, hub.MethodRun, hub.RunParams{Session: name, Args: hereArgs(args), NoWait: noWait}, &r)
	if err != nil {
		return hubFailure(name, err)
	}
	if r.Call != "" { // --no-wait
		return headless.WriteJSON(stdout, struct {
			Call      string             `json:"call"`
			Questions []hub.QuestionInfo `json:"questions"`
		}{r.Call, questionsOrEmpty(r.Questions)})
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
		return &exit.Error{Code: r.Exit, Err: errShown}
	}
	return nil
}

// hubFailure is the error of a command the hub refused or could not run.
func hubFailure(session string, err error) error {
	code := hub.ExitOf(err)
	switch {
	case errors.Is(err, hub.ErrDisconnected): // the hub died, or went while we asked
		return exit.Fail(code, "session %s: disconnected: %s", session, hub.Message(err))
	case errors.Is(err, hub.ErrNoHub):
		return exit.Fail(code, "no session %s: no session hub runs (elicit session start starts one)", session)
	}
	return exit.Fail(code, "%s", hub.Message(err))
}

// hereArgs are args with the paths the hub would read elsewhere made
// absolute: --answer FILE.json.
func hereArgs(args []string) []string {
	out := slices.Clone(args)
	before, _ := cli.SplitDashDash(out)
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

// cwd is the working folder, "" if it cannot be known.
func cwd() string {
	d, _ := os.Getwd()
	return d
}

// questionsOrEmpty is qs, [] for none (a script reads [] as "none").
func questionsOrEmpty(qs []hub.QuestionInfo) []hub.QuestionInfo {
	if qs == nil {
		return []hub.QuestionInfo{}
	}
	return qs
}
