package acp_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/acp"
)

// tsAgent is the agent on the official TypeScript SDK, which declares
// every session method of stable v1 (cmd/elicit/testdata/acp-ts-agent.mjs).
func tsAgent(t *testing.T) func(*acp.Options) {
	t.Helper()
	mod := engineAgents(t)["ts"]
	if mod == nil {
		t.Skip("the TypeScript agent is missing (said above)")
	}
	return mod
}

// rowAgent is an agent the rows of stable v1's client methods run
// against, with the names of its sessions: those it starts with (old
// plus 1..3) and the first new one.
type rowAgent struct {
	mod       func(*acp.Options)
	old, sess string
}

// forAgents runs f against the demo agent and the TypeScript one.
func forAgents(t *testing.T, f func(t *testing.T, ag rowAgent)) {
	t.Helper()
	for name, mod := range engineAgents(t) {
		ag := rowAgent{mod: mod, old: "old_", sess: "sess_1"}
		if name == "ts" {
			ag.old, ag.sess = "ts_old_", "ts_sess_1"
		}
		t.Run(name, func(t *testing.T) { f(t, ag) })
	}
}

func (ag rowAgent) with(f func(*acp.Options)) func(*acp.Options) {
	return func(o *acp.Options) {
		if ag.mod != nil {
			ag.mod(o)
		}
		f(o)
	}
}

func bounded(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestCapabilitiesDecoded: what the agent declares is read by exact
// name; the minimal demo agent declares none of the optional ones.
func TestCapabilitiesDecoded(t *testing.T) {
	forAgents(t, func(t *testing.T, ag rowAgent) {
		got := start(t, "plain", nil, ag.mod).Capabilities()
		want := acp.AgentCapabilities{LoadSession: true, Image: true, List: true, Resume: true, Close: true, Delete: true,
			AdditionalDirectories: true, Logout: true}
		if got != want {
			t.Errorf("ts agent: %+v, want %+v", got, want)
		}
		if got := start(t, "minimal", nil, nil).Capabilities(); got != (acp.AgentCapabilities{}) {
			t.Errorf("minimal demo agent: %+v", got)
		}
	})
}

// TestListSessionsEveryPage: session/list is followed through
// nextCursor to the last page.
func TestListSessionsEveryPage(t *testing.T) {
	forAgents(t, func(t *testing.T, ag rowAgent) {
		c := start(t, "plain", nil, ag.mod)
		ctx := bounded(t)
		if _, err := c.NewSession(ctx, t.TempDir()); err != nil {
			t.Fatal(err)
		}
		list, err := c.ListSessions(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, s := range list {
			ids = append(ids, s.SessionID)
		}
		if got := strings.Join(ids, ","); got != ag.old+"1,"+ag.old+"2,"+ag.old+"3,"+ag.sess {
			t.Errorf("sessions %s", got)
		}
		var pages int
		for _, a := range c.Actions() {
			if a.Method == acp.MethodSessionList && a.Ended == "ok" {
				pages++
			}
		}
		if pages != 2 {
			t.Errorf("%d pages asked, want 2: %+v", pages, c.Actions())
		}
	})
}

// TestLoadSessionReplaysHistory: session/load's replayed updates are the
// session's history, kept in Session.History, and the session is ours
// afterwards (a prompt runs in it).
func TestLoadSessionReplaysHistory(t *testing.T) {
	forAgents(t, func(t *testing.T, ag rowAgent) {
		var heard []string
		c := start(t, "plain", nil, func(o *acp.Options) {
			ag.with(func(*acp.Options) {})(o)
			o.OnUpdate = func(u acp.Update) {
				if u.Content != nil {
					heard = append(heard, u.Kind+":"+u.Content.Text)
				}
			}
		})
		ctx := bounded(t)
		s, err := c.OpenSession(ctx, acp.SessionParams{Cwd: t.TempDir(), Load: ag.old + "2"})
		if err != nil {
			t.Fatal(err)
		}
		// The person's prompts are history too (user_message_chunk).
		if s.History == nil || s.History.User != "old prompt 2" {
			t.Errorf("history without the person's prompt: %+v", s.History)
		}
		if s.History == nil || s.History.Message != "old answer 2" || s.Modes == nil || s.Modes.CurrentModeID != "ask" || len(s.ConfigOptions) != 2 {
			t.Fatalf("session %+v history %+v", s, s.History)
		}
		if strings.Join(heard, "|") != "user_message_chunk:old prompt 2|agent_message_chunk:old answer 2" {
			t.Errorf("heard %q", heard)
		}
		res, err := c.Prompt(ctx, s.ID, "hello again")
		if err != nil || res.Message != "You said: hello again" {
			t.Errorf("turn after load: %+v, %v", res, err)
		}
		// Loaded again, each of the person's prompts is a line of its own.
		s, err = c.OpenSession(ctx, acp.SessionParams{Cwd: t.TempDir(), Load: ag.old + "2"})
		if err != nil || s.History == nil || s.History.User != "old prompt 2\nhello again" ||
			s.History.Message != "old answer 2\nYou said: hello again" {
			t.Errorf("loaded again: %+v, %v", s.History, err)
		}
	})
}

// TestLoadUnknownSession: a load the agent refuses ends as its error, in
// the actions, and the session is not ours.
func TestLoadUnknownSession(t *testing.T) {
	forAgents(t, func(t *testing.T, ag rowAgent) {
		c := start(t, "plain", nil, ag.mod)
		ctx := bounded(t)
		_, err := c.OpenSession(ctx, acp.SessionParams{Cwd: t.TempDir(), Load: "nope"})
		var re *acp.RPCError
		if !errors.As(err, &re) || re.Err.Code != acp.CodeResourceNotFound {
			t.Fatalf("load: %v", err)
		}
		acts := c.Actions()
		if len(acts) != 1 || acts[0].Method != acp.MethodSessionLoad || acts[0].SessionID != "nope" || !strings.HasPrefix(acts[0].Ended, "error -32002") {
			t.Errorf("actions %+v", acts)
		}
		if _, err := c.Prompt(ctx, "nope", "hi"); err == nil {
			t.Error("a prompt in the refused session went through")
		}
	})
}

// TestResumeCloseDelete: resume opens without history; close ends the
// session on the agent's side (a prompt then is refused); delete takes
// it off the list.
func TestResumeCloseDelete(t *testing.T) {
	forAgents(t, func(t *testing.T, ag rowAgent) {
		c := start(t, "plain", nil, ag.mod)
		ctx := bounded(t)
		s, err := c.OpenSession(ctx, acp.SessionParams{Cwd: t.TempDir(), Resume: ag.old + "1"})
		if err != nil || s.History != nil || s.Modes == nil {
			t.Fatalf("resume: %+v, %v", s, err)
		}
		if res, err := c.Prompt(ctx, s.ID, "hi"); err != nil || res.StopReason != acp.StopEndTurn {
			t.Fatalf("turn: %+v, %v", res, err)
		}
		if err := c.CloseSession(ctx, s.ID); err != nil {
			t.Fatal(err)
		}
		if err := c.DeleteSession(ctx, ag.old+"3"); err != nil {
			t.Fatal(err)
		}
		list, err := c.ListSessions(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range list {
			if i.SessionID == ag.old+"3" {
				t.Error("deleted session still listed")
			}
		}
		err = c.DeleteSession(ctx, ag.old+"3")
		var re *acp.RPCError
		if !errors.As(err, &re) || re.Err.Code != acp.CodeResourceNotFound {
			t.Errorf("second delete: %v", err)
		}
	})
}

// TestNotDeclaredNotSent: a method the agent does not declare is not
// sent, and says which capability is missing.
func TestNotDeclaredNotSent(t *testing.T) {
	c := start(t, "minimal", nil, nil)
	ctx := bounded(t)
	for name, call := range map[string]func() error{
		"load":   func() error { _, err := c.OpenSession(ctx, acp.SessionParams{Cwd: ".", Load: "x"}); return err },
		"resume": func() error { _, err := c.OpenSession(ctx, acp.SessionParams{Cwd: ".", Resume: "x"}); return err },
		"list":   func() error { _, err := c.ListSessions(ctx, ""); return err },
		"close":  func() error { return c.CloseSession(ctx, "x") },
		"delete": func() error { return c.DeleteSession(ctx, "x") },
		"logout": func() error { return c.Logout(ctx) },
		"dirs": func() error {
			_, err := c.OpenSession(ctx, acp.SessionParams{Cwd: ".", AdditionalDirectories: []string{"/tmp"}})
			return err
		},
		"image": func() error {
			_, err := c.PromptBlocks(ctx, "x", []acp.ContentBlock{{Type: "image", MimeType: "image/png", Data: "AA=="}})
			return err
		},
	} {
		if err := call(); !errors.Is(err, acp.ErrNotDeclared) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestModeAndConfig: set_mode is confirmed by current_mode_update, and
// set_config_option sets a select and a boolean (type "boolean"), the
// agent's config_option_update decoded.
func TestModeAndConfig(t *testing.T) {
	forAgents(t, func(t *testing.T, ag rowAgent) {
		var updates []acp.Update
		c := start(t, "plain", nil, func(o *acp.Options) {
			ag.with(func(*acp.Options) {})(o)
			o.OnUpdate = func(u acp.Update) { updates = append(updates, u) }
		})
		ctx := bounded(t)
		sid, err := c.NewSession(ctx, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if err := c.SetMode(ctx, sid, "code"); err != nil {
			t.Fatal(err)
		}
		opts, err := c.SetConfigOption(ctx, sid, "verbose", true)
		if err != nil || len(opts) != 2 || string(opts[1].CurrentValue) != "true" {
			t.Fatalf("verbose: %+v, %v", opts, err)
		}
		opts, err = c.SetConfigOption(ctx, sid, "model", "large")
		if err != nil || string(opts[0].CurrentValue) != `"large"` {
			t.Fatalf("model: %+v, %v", opts, err)
		}
		var re *acp.RPCError
		if _, err := c.SetConfigOption(ctx, sid, "model", true); !errors.As(err, &re) || re.Err.Code != -32602 {
			t.Errorf("a boolean for a select: %v", err)
		}
		if err := c.SetMode(ctx, sid, "nope"); !errors.As(err, &re) {
			t.Errorf("unknown mode: %v", err)
		}
		if len(updates) != 3 || updates[0].ModeID != "code" || updates[1].Kind != acp.UpdateConfigOptions ||
			string(updates[2].ConfigOptions[0].CurrentValue) != `"large"` {
			t.Errorf("updates %+v", updates)
		}
	})
}

// TestNoticeCompactionNameCommands: the v1.22–v1.25 updates are decoded
// and kept in the turn; a /command is sent as its text.
func TestNoticeCompactionNameCommands(t *testing.T) {
	forAgents(t, func(t *testing.T, ag rowAgent) {
		c := start(t, "plain", nil, ag.mod)
		ctx := bounded(t)
		sid, err := c.NewSession(ctx, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Prompt(ctx, sid, "notice")
		if err != nil || len(res.Other) != 1 || res.Other[0].Notice == nil || res.Other[0].Notice.Severity != "warning" {
			t.Errorf("notice: %+v, %v", res, err)
		}
		res, err = c.Prompt(ctx, sid, "compact")
		if err != nil || len(res.Other) != 3 || res.Other[1].Compaction == nil || res.Other[1].Compaction.Content.Text != "Summary so far." ||
			res.Other[2].Compaction.Status != "completed" {
			t.Errorf("compact: %+v, %v", res, err)
		}
		res, err = c.Prompt(ctx, sid, "named")
		if err != nil || len(res.ToolCalls) != 1 || res.ToolCalls[0].Name != "read_file" || res.ToolCalls[0].Status != "completed" {
			t.Errorf("named: %+v, %v", res, err)
		}
		res, err = c.Prompt(ctx, sid, "commands")
		if err != nil || len(res.Other) != 1 || len(res.Other[0].Commands) != 1 || res.Other[0].Commands[0].Input.Hint != "what to say" {
			t.Errorf("commands: %+v, %v", res, err)
		}
		res, err = c.Prompt(ctx, sid, "/echo hi there")
		if err != nil || res.Message != "command echo: hi there" {
			t.Errorf("/echo: %+v, %v", res, err)
		}
	})
}

// TestAttachBlocks: an image goes as an image block to an agent that
// takes images, anything else as a resource link.
func TestAttachBlocks(t *testing.T) {
	forAgents(t, func(t *testing.T, ag rowAgent) {
		c := start(t, "plain", nil, ag.mod)
		ctx := bounded(t)
		dir := t.TempDir()
		png := filepath.Join(dir, "dot.png")
		// A PNG's signature is enough for its type.
		if err := os.WriteFile(png, []byte("\x89PNG\r\n\x1a\n0000"), 0o600); err != nil {
			t.Fatal(err)
		}
		txt := filepath.Join(dir, "notes.txt")
		if err := os.WriteFile(txt, []byte("hi\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		blocks := []acp.ContentBlock{{Type: "text", Text: "blocks"}}
		for _, f := range []string{png, txt} {
			b, err := c.Attach(f)
			if err != nil {
				t.Fatal(err)
			}
			blocks = append(blocks, b)
		}
		sid, err := c.NewSession(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.PromptBlocks(ctx, sid, blocks)
		if err != nil || res.Message != "text,image:image/png,resource_link:notes.txt:text/plain" {
			t.Errorf("blocks: %+v, %v", res, err)
		}
	})
}

func realPath(p string) (string, error) { return filepath.EvalSymlinks(p) }

// TestLogout: logout goes to an agent that declares auth.logout, and
// ends as an action.
func TestLogout(t *testing.T) {
	forAgents(t, func(t *testing.T, ag rowAgent) {
		c := start(t, "plain", nil, ag.mod)
		if err := c.Logout(bounded(t)); err != nil {
			t.Fatal(err)
		}
		if !hasAction(c, acp.MethodLogout, "ok") {
			t.Errorf("actions %+v", c.Actions())
		}
	})
}
