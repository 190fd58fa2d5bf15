package client_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/internal/testenv"
	"github.com/elicit-dev/elicit/transport"
)

// Roots and receiver-side tasks against the Node reference servers.

// filesystemCommand starts @modelcontextprotocol/server-filesystem over
// stdio with args: ELICIT_SERVER_FILESYSTEM is the path to its
// dist/index.js; else npx fetches it. Without either the test is skipped.
func filesystemCommand(t *testing.T, args ...string) (string, []string) {
	t.Helper()
	if p := os.Getenv("ELICIT_SERVER_FILESYSTEM"); p != "" {
		testenv.LookPath(t, "node")
		return "node", append([]string{p}, args...)
	}
	testenv.LookPath(t, "npx")
	return "npx", append([]string{"-y", "@modelcontextprotocol/server-filesystem@2026.8.31"}, args...)
}

// realDir makes a directory under the test's temp dir, as the server will
// name it (symlinks resolved: server-filesystem reports realpaths).
func realDir(t *testing.T, name string) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := filepath.EvalSymlinks(d)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRootsFilesystem: server-filesystem started with one directory on its
// command line replaces it with our roots once it has listed them (it
// calls roots/list after initialized); after SetRoots it re-lists on the
// list_changed notification and allows only the new root.
func TestRootsFilesystem(t *testing.T) {
	t.Parallel()
	cli, a, b := realDir(t, "cli"), realDir(t, "a"), realDir(t, "b")
	cmd, args := filesystemCommand(t, cli)
	ra, err := client.RootFor(a, "", "a")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var stderr strings.Builder
	s, err := client.Connect(ctx, &transport.Stdio{Command: cmd, Args: args, Observer: transport.ObserverFuncs{
		OnStderr: func(l string) { stderr.WriteString(l + "\n") },
	}}, &client.Options{Name: "fs", Roots: []client.Root{ra}, ConnectTimeout: 90 * time.Second})
	if err != nil {
		if strings.Contains(stderr.String(), "npm") {
			testenv.Missing(t, "npx could not fetch server-filesystem (set ELICIT_SERVER_FILESYSTEM): %v\n%s", err, stderr.String())
		}
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	defer s.Close()
	allowed := func() string {
		res, err := s.CallTool(ctx, "list_allowed_directories", map[string]any{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Text()
	}
	waitAllowed := func(want, not string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		var got string
		for time.Now().Before(deadline) {
			got = allowed()
			if strings.Contains(got, want) && !strings.Contains(got, not) {
				return
			}
			time.Sleep(50 * time.Millisecond) // the interval of a poll of the server's allowed directories
		}
		t.Fatalf("allowed directories %q: want %s and not %s\nserver stderr:\n%s", got, want, not, stderr.String())
	}
	waitAllowed(a, cli)
	asked := s.Roots().Asked
	rb, _ := client.RootFor(b, "", "b")
	if err := s.SetRoots(ctx, []client.Root{rb}); err != nil {
		t.Fatal(err)
	}
	waitAllowed(b, a)
	if got := s.Roots().Asked; got <= asked {
		t.Errorf("roots asked %d times, %d before SetRoots: the server did not re-list", got, asked)
	}
}

// everythingScript is server-everything's dist/index.js
// (ELICIT_SERVER_EVERYTHING, as .ci/run installs it), or skips.
func everythingScript(t *testing.T) string {
	t.Helper()
	path := testenv.Getenv(t, "ELICIT_SERVER_EVERYTHING", "path to server-everything's dist/index.js")
	testenv.LookPath(t, "node")
	return path
}

// TestEverythingAsyncElicitation: server-everything lists
// trigger-elicitation-request-async only to a client that declares
// tasks.requests.elicitation.create; its tool sends a task-augmented
// elicitation/create, polls our tasks/get every second and fetches
// tasks/result once completed. The question is a ReceiverTask prompt of
// the call, and the task is ours.
func TestEverythingAsyncElicitation(t *testing.T) {
	path := everythingScript(t)
	t.Parallel()
	rec := &recorder{}
	pr := newTaskPrompter(func(ctx context.Context, p *question.Question) question.Outcome {
		time.Sleep(1500 * time.Millisecond) // a deliberately slow person, long enough for a poll or two
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"name": "Ada", "favoriteColor": "Blue", "agreeToTerms": true}}
	})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	s, err := client.Connect(ctx, &transport.Stdio{Command: "node", Args: []string{path, "stdio"}, Observer: rec},
		&client.Options{Name: "everything", Protocol: wire.Protocol2025_11_25, Prompter: pr, Observer: rec, Roots: []client.Root{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	waitFor(t, "the async tool to be listed", func() bool {
		tools, err := s.ListTools(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range tools {
			if tl.Name == "trigger-elicitation-request-async" {
				return true
			}
		}
		return false
	})
	res, err := s.CallTool(ctx, "trigger-elicitation-request-async", map[string]any{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Text()
	for _, want := range []string{"[COMPLETED]", "Name: Ada", "Favorite Color: Blue", "Agreed to terms: true", "Poll 1: working"} {
		if !strings.Contains(text, want) {
			t.Errorf("result lacks %q:\n%s", want, text)
		}
	}
	prompts := pr.prompts()
	if len(prompts) != 1 || prompts[0].Key.Delivery != question.ReceiverTask || prompts[0].Origin.Name != "trigger-elicitation-request-async" {
		t.Fatalf("prompts %+v: want one ReceiverTask question of the call", prompts)
	}
	var ours []client.Task
	for _, tk := range s.Tasks() {
		if tk.Ours {
			ours = append(ours, tk)
		}
	}
	if len(ours) != 1 || ours[0].ID != prompts[0].Key.TaskID || ours[0].Status != client.TaskCompleted || ours[0].Polls < 1 {
		t.Errorf("our tasks %+v", ours)
	}
	if got := rec.sentTask("notifications/tasks/status", ours[0].ID); len(got) != 1 {
		t.Errorf("%d status notifications, want one (completed)", len(got))
	}
}
