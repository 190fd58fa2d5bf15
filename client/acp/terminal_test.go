package acp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
)

// runAllowed allows every terminal the agent asks for.
var runAllowed = answer(question.Outcome{Kind: question.Accept, Option: acp.TerminalAllow})

type termReport struct {
	Output    string         `json:"output"`
	Truncated bool           `json:"truncated"`
	Exit      acp.ExitStatus `json:"exit"`
}

func termReports(t *testing.T, message string) []termReport {
	t.Helper()
	var out []termReport
	for _, line := range strings.Split(message, "\n") {
		var r termReport
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// TestTerminalRuns: a terminal runs in a PTY in the session's cwd with
// the request's env; outputByteLimit cuts from the beginning at a
// character boundary and says truncated; the exit code comes back; each
// create was asked first.
func TestTerminalRuns(t *testing.T) {
	c := start(t, "plain", runAllowed, func(o *acp.Options) { tsAgent(t)(o); o.AllowTerminal = true })
	ctx := bounded(t)
	dir := t.TempDir()
	sid, err := c.NewSession(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Prompt(ctx, sid, "terminal")
	if err != nil {
		t.Fatal(err)
	}
	rs := termReports(t, res.Message)
	if len(rs) != 3 {
		t.Fatalf("reports %+v", rs)
	}
	if rs[0].Output != "hi-env\r\n"+mustReal(t, dir)+"\r\n" || rs[0].Truncated || rs[0].Exit.ExitCode == nil || *rs[0].Exit.ExitCode != 0 {
		t.Errorf("env and cwd: %+v", rs[0])
	}
	if rs[1].Output != "cd" || !rs[1].Truncated {
		t.Errorf("limit 3 of \"abécd\": %+v", rs[1])
	}
	if rs[2].Exit.ExitCode == nil || *rs[2].Exit.ExitCode != 3 {
		t.Errorf("exit 3: %+v", rs[2])
	}
	es := c.Journal().Entries()
	if len(es) != 3 || es[0].Key.Delivery != question.TerminalCreate || es[0].Sent != "created" || es[0].Bucket != question.OptionAllowOnce {
		t.Errorf("journal %+v", es)
	}
}

// TestTerminalRefused: a create the person refuses is answered -32603
// and nothing runs.
func TestTerminalRefused(t *testing.T) {
	c := start(t, "plain", answer(question.Outcome{Kind: question.Decline}), func(o *acp.Options) { tsAgent(t)(o); o.AllowTerminal = true })
	ctx := bounded(t)
	sid, err := c.NewSession(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Prompt(ctx, sid, "orphan")
	if err != nil || res.Message != "create: error -32603" {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	if e := c.Journal().Entries()[0]; e.Sent != "error -32603" || e.Bucket != question.OptionRejectOnce {
		t.Errorf("entry %+v", e)
	}
	for _, a := range c.Actions() {
		if strings.HasPrefix(a.Method, "terminal") {
			t.Errorf("a refused terminal acted: %+v", a)
		}
	}
}

// TestTerminalKilledByPerson: the person kills a running terminal; the
// agent's wait_for_exit ends with the signal, and the action says who.
func TestTerminalKilledByPerson(t *testing.T) {
	started := make(chan string, 1)
	c := start(t, "plain", runAllowed, func(o *acp.Options) {
		tsAgent(t)(o)
		o.AllowTerminal = true
		o.OnAction = func(a acp.Action) {
			if a.Method == acp.MethodTerminalCreate && a.Ended == "started" {
				started <- strings.Fields(a.Subject)[0]
			}
		}
	})
	ctx := bounded(t)
	sid, err := c.NewSession(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan acp.TurnResult, 1)
	go func() {
		res, _ := c.Prompt(ctx, sid, "sleeper")
		done <- res
	}()
	select {
	case id := <-started:
		if !c.KillTerminal(id) {
			t.Fatal("KillTerminal found nothing running")
		}
	case <-ctx.Done():
		t.Fatal("no terminal started")
	}
	res := <-done
	rs := termReports(t, res.Message)
	if rs[0].Exit.Signal == nil || *rs[0].Exit.Signal != "SIGKILL" {
		t.Errorf("report %+v", rs)
	}
	if !hasAction(c, "terminal", acp.KilledByPerson) {
		t.Errorf("actions %+v", c.Actions())
	}
}

// TestTerminalKilledAtTurnEnd: a terminal the agent leaves running is
// killed when the turn ends.
func TestTerminalKilledAtTurnEnd(t *testing.T) {
	ended := make(chan acp.Action, 4)
	c := start(t, "plain", runAllowed, func(o *acp.Options) {
		tsAgent(t)(o)
		o.AllowTerminal = true
		o.OnAction = func(a acp.Action) { ended <- a }
	})
	ctx := bounded(t)
	sid, err := c.NewSession(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Prompt(ctx, sid, "orphan")
	if err != nil || !strings.HasPrefix(res.Message, "started term_") {
		t.Fatalf("turn %+v, %v", res, err)
	}
	for {
		select {
		case a := <-ended:
			if a.Method == "terminal" {
				if a.Ended != acp.KilledAtTurnEnd {
					t.Errorf("ended %+v", a)
				}
				return
			}
		case <-ctx.Done():
			t.Fatal("the terminal was not killed at the end of the turn")
		}
	}
}

// TestTerminalNotDeclared: without AllowTerminal the capability is
// false and the agent is told so.
func TestTerminalNotDeclared(t *testing.T) {
	c := start(t, "plain", runAllowed, tsAgent(t))
	res, err := turn(t, c, "terminal")
	if err != nil || res.Message != "terminal: not offered by the client." {
		t.Errorf("turn %+v, %v", res, err)
	}
}

func hasAction(c *acp.Client, method, ended string) bool {
	for _, a := range c.Actions() {
		if a.Method == method && a.Ended == ended {
			return true
		}
	}
	return false
}

func mustReal(t *testing.T, dir string) string {
	t.Helper()
	r, err := realPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTerminalCancelRequest: $/cancel_request for a terminal/create still
// asked, or for a wait_for_exit, is answered -32800 (ACP: always
// answered); the withdrawn create is journalled withdrawn.
func TestTerminalCancelRequest(t *testing.T) {
	t.Run("create", func(t *testing.T) {
		c := start(t, "plain", hold, func(o *acp.Options) { tsAgent(t)(o); o.AllowTerminal = true })
		res, err := turn(t, c, "withdrawterm")
		if err != nil || res.Message != "Withdrawn; the client answered error -32800." {
			t.Fatalf("turn %+v, %v", res, err)
		}
		if e := onlyEntry(t, c); e.Kind != question.Withdrawn || e.Sent != "error -32800" || e.Key.Delivery != question.TerminalCreate {
			t.Errorf("entry %+v", e)
		}
	})
	t.Run("wait_for_exit", func(t *testing.T) {
		c := start(t, "plain", runAllowed, func(o *acp.Options) { tsAgent(t)(o); o.AllowTerminal = true })
		res, err := turn(t, c, "waitcancel")
		if err != nil || res.Message != "wait: error -32800" {
			t.Fatalf("turn %+v, %v", res, err)
		}
		if !hasAction(c, "terminal", acp.Released) {
			t.Errorf("actions %+v", c.Actions())
		}
	})
}

// TestTerminalDemoScene: the demo agent's terminal scene runs through
// create (asked), wait_for_exit, output and release, and says what
// came of it; without AllowTerminal it is told terminals are not
// offered.
func TestTerminalDemoScene(t *testing.T) {
	c := start(t, "plain", runAllowed, func(o *acp.Options) { o.AllowTerminal = true })
	res, err := turn(t, c, "terminal")
	if err != nil || res.Message != `exit {"exitCode":0,"signal":null}; output "hello from a terminal\r\nhi-env\r\n"` {
		t.Errorf("turn %+v, %v", res, err)
	}
	if e := onlyEntry(t, c); e.Key.Delivery != question.TerminalCreate || e.Sent != "created" {
		t.Errorf("entry %+v", e)
	}
	c = start(t, "plain", runAllowed, nil)
	if res, err := turn(t, c, "terminal"); err != nil || res.Message != "terminal: not offered by the client." {
		t.Errorf("undeclared: %+v, %v", res, err)
	}
}

// TestTerminalsBounded: an agent holds at most MaxTerminals terminals at
// once; a create past them, allowed, is answered -32603 and runs
// nothing; all are killed when the turn ends.
func TestTerminalsBounded(t *testing.T) {
	killed := make(chan struct{}, 64)
	c := start(t, "plain", runAllowed, func(o *acp.Options) {
		tsAgent(t)(o)
		o.AllowTerminal = true
		o.OnAction = func(a acp.Action) {
			if a.Method == "terminal" && a.Ended == acp.KilledAtTurnEnd {
				killed <- struct{}{}
			}
		}
	})
	res, err := turn(t, c, "manyterms")
	want := "created 32; refused 8 (error -32603)"
	if err != nil || res.Message != want {
		t.Fatalf("turn %+v, %v; want %q", res, err, want)
	}
	ctx := bounded(t)
	for i := range acp.MaxTerminals {
		select {
		case <-killed:
		case <-ctx.Done():
			t.Fatalf("%d of %d terminals killed at the end of the turn", i, acp.MaxTerminals)
		}
	}
}
