package acp_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/elicit-dev/elicit/client/acp"
)

// signIn makes the TypeScript agent require sign-in (its mark kept in
// dir) and picks method.
func signIn(t *testing.T, dir, method string, terminal func(context.Context, *exec.Cmd) error) func(*acp.Options) {
	ts := tsAgent(t)
	return func(o *acp.Options) {
		ts(o)
		o.Env = []string{"ELICIT_TS_AUTH_DIR=" + dir}
		o.TerminalAuth = terminal
		o.ChooseAuth = func(context.Context, []acp.AuthMethod) (string, error) { return method, nil }
	}
}

// TestAuthBothKinds: an agent method goes to authenticate; a terminal
// method, offered only when the client declares auth.terminal, runs the
// agent's command with the method's args and env (exit 0: signed in)
// and never goes to authenticate.
func TestAuthBothKinds(t *testing.T) {
	run := func(_ context.Context, cmd *exec.Cmd) error { return cmd.Run() }
	t.Run("agent", func(t *testing.T) {
		c := start(t, "plain", nil, signIn(t, t.TempDir(), "agent-login", nil))
		if len(c.Info().AuthMethods) != 1 {
			t.Errorf("without auth.terminal the agent offered %+v", c.Info().AuthMethods)
		}
		if _, err := c.NewSession(bounded(t), t.TempDir()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("terminal", func(t *testing.T) {
		dir := t.TempDir()
		c := start(t, "plain", nil, signIn(t, dir, "term-login", run))
		ms := c.Info().AuthMethods
		if len(ms) != 2 || ms[1].Type != acp.AuthTerminal || ms[1].Args[0] != "--login" || ms[1].Env["ELICIT_TS_LOGIN"] != "yes" {
			t.Fatalf("methods %+v", ms)
		}
		if _, err := c.NewSession(bounded(t), t.TempDir()); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "signed-in")); err != nil {
			t.Errorf("the terminal login left no mark: %v", err)
		}
		if !hasAction(c, "auth terminal", "ok") {
			t.Errorf("actions %+v", c.Actions())
		}
	})
	t.Run("terminal failed", func(t *testing.T) {
		fail := func(_ context.Context, cmd *exec.Cmd) error {
			cmd.Env = append(cmd.Env, "ELICIT_TS_LOGIN=no")
			return cmd.Run()
		}
		c := start(t, "plain", nil, signIn(t, t.TempDir(), "term-login", fail))
		_, err := c.NewSession(bounded(t), t.TempDir())
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("session/new after a failed login: %v", err)
		}
	})
}

// TestAuthBeforeEverySessionMethod: an agent may want the sign-in for
// session/list, load, resume and delete as for session/new (codex-acp
// 0.16.0 answers session/list -32000 before it); the client signs in as
// for session/new, once, and tries again.
func TestAuthBeforeEverySessionMethod(t *testing.T) {
	for _, method := range []string{"list", "load", "resume", "delete"} {
		t.Run(method, func(t *testing.T) {
			var chosen int
			c := start(t, "plain", nil, func(o *acp.Options) {
				signIn(t, t.TempDir(), "agent-login", nil)(o)
				o.ChooseAuth = func(context.Context, []acp.AuthMethod) (string, error) { chosen++; return "agent-login", nil }
			})
			ctx := bounded(t)
			var err error
			switch method {
			case "list":
				var list []acp.SessionInfo
				list, err = c.ListSessions(ctx, "")
				if err == nil && len(list) != 3 {
					t.Errorf("listed %+v", list)
				}
			case "load":
				_, err = c.OpenSession(ctx, acp.SessionParams{Cwd: t.TempDir(), Load: "ts_old_1"})
			case "resume":
				_, err = c.OpenSession(ctx, acp.SessionParams{Cwd: t.TempDir(), Resume: "ts_old_1"})
			case "delete":
				err = c.DeleteSession(ctx, "ts_old_1")
			}
			if err != nil {
				t.Fatalf("session/%s before a sign-in: %v", method, err)
			}
			if chosen != 1 {
				t.Errorf("the sign-in was asked %d times", chosen)
			}
		})
	}
}
