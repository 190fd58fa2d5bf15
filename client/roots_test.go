//lint:file-ignore SA1019 roots is deprecated as of 2026-07-28 (SEP-2577) but still served in the deprecation window; go-sdk's roots API is the real peer that tests it.

package client_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestRootFor(t *testing.T) {
	t.Parallel()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, base, want, err string }{
		{in: "/srv/proj", want: "file:///srv/proj"},
		{in: "/srv/a b/./c/", want: "file:///srv/a%20b/c"},
		{in: "proj", base: "/etc/elicit", want: "file:///etc/elicit/proj"},
		{in: "../up", base: "/etc/elicit", want: "file:///etc/up"},
		{in: "rel", want: "file://" + filepath.ToSlash(filepath.Join(cwd, "rel"))},
		// A relative base (a config found as ./.vscode/mcp.json) is from
		// the working directory: "file://.vscode" would name a host.
		{in: ".", base: ".vscode", want: "file://" + filepath.ToSlash(filepath.Join(cwd, ".vscode"))},
		{in: "p", base: "conf", want: "file://" + filepath.ToSlash(filepath.Join(cwd, "conf", "p"))},
		{in: "~/work", want: "file://" + filepath.ToSlash(filepath.Join(home, "work"))},
		{in: "file:///srv/x", want: "file:///srv/x"},
		{in: "file://localhost/srv/x", want: "file:///srv/x"},
		{in: "file:///srv/a%20b", want: "file:///srv/a%20b"},
		{in: "file:///srv/../etc", err: "not clean"},
		{in: "file://host/srv", err: "another host"},
		{in: "file:srv", err: "not an absolute path"},
		{in: "https://example.com/x", err: "only file://"},
		{in: "  ", err: "empty"},
	} {
		r, err := client.RootFor(tc.in, tc.base, "n")
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("RootFor(%q): %+v, %v; want an error saying %q", tc.in, r, err, tc.err)
			}
		case err != nil || r.URI != tc.want || r.Name != "n":
			t.Errorf("RootFor(%q, %q) = %+v, %v; want %s", tc.in, tc.base, r, err, tc.want)
		}
	}
	if p, err := (client.Root{URI: "file:///srv/a%20b"}).Path(); err != nil || p != "/srv/a b" {
		t.Errorf("Path = %q, %v", p, err)
	}
}

// newRootsServer is a go-sdk server whose "roots" tool lists the client's
// roots as "uri name" lines: in the stateful era by calling roots/list
// itself; in 2026-07-28 by returning a roots/list input request, which
// go-sdk turns into a real roots/list for an older session. changed gets
// each notifications/roots/list_changed.
func newRootsServer(opts *mcp.ServerOptions, changed chan<- struct{}) *mcp.Server {
	var o mcp.ServerOptions
	if opts != nil {
		o = *opts
	}
	o.RootsListChangedHandler = func(context.Context, *mcp.RootsListChangedRequest) { changed <- struct{}{} }
	srv := mcp.NewServer(&mcp.Implementation{Name: "roots-server", Version: "1"}, &o)
	lines := func(roots []*mcp.Root) string {
		var b strings.Builder
		for _, r := range roots {
			b.WriteString(r.URI + " " + r.Name + "\n")
		}
		return b.String()
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "roots"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: lines(res.Roots)}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "ask-roots"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		r, ok := req.Params.InputResponses["ws"].(*mcp.ListRootsResult)
		if !ok {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"ws": &mcp.ListRootsParams{}}}, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: lines(r.Roots)}}}, nil, nil
	})
	return srv
}

func rootsCall(t *testing.T, s *client.Session, tool string) string {
	t.Helper()
	res, err := s.CallTool(t.Context(), tool, map[string]any{}, nil)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s: %s", tool, res.Raw)
	}
	return res.Text()
}

// TestRootsStateful: a 2025-11-25 go-sdk server lists our roots with
// roots/list; SetRoots sends notifications/roots/list_changed, and the
// server lists the new ones.
func TestRootsStateful(t *testing.T) {
	t.Parallel()
	changed := make(chan struct{}, 4)
	rec := &recorder{}
	s := servePipe(t, newRootsServer(legacyOpts(nil), changed), &client.Options{
		Roots: []client.Root{{URI: "file:///srv/a", Name: "a"}},
	}, rec)
	if got := rootsCall(t, s, "roots"); got != "file:///srv/a a\n" {
		t.Errorf("roots listed %q", got)
	}
	if err := s.SetRoots(t.Context(), []client.Root{{URI: "file:///srv/b"}, {URI: "file:///srv/c", Name: "c"}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-t.Context().Done():
		t.Fatal("no list_changed reached the server")
	}
	if got := rootsCall(t, s, "roots"); got != "file:///srv/b \nfile:///srv/c c\n" {
		t.Errorf("roots listed after SetRoots %q", got)
	}
	info := s.Roots()
	if !info.Declared || !info.ListChanged || info.Asked != 2 || len(info.Roots) != 2 {
		t.Errorf("Roots() = %+v", info)
	}
	if err := s.SetRoots(t.Context(), []client.Root{{URI: "/srv/plain"}}); err == nil {
		t.Error("SetRoots took a root that is no file:// URI")
	}
	// The MRTR fixture, on a stateful session: go-sdk's middleware asks
	// with a real roots/list.
	if got := rootsCall(t, s, "ask-roots"); got != "file:///srv/b \nfile:///srv/c c\n" {
		t.Errorf("ask-roots on a stateful session %q", got)
	}
}

// TestRootsStateless: a 2026-07-28 server asks for roots with a
// roots/list entry of inputRequests; elicit answers it from its list
// without a person (no Prompter is set) and retries; SetRoots sends no
// notification (2026-07-28 has none) and the next ask gets the new list.
func TestRootsStateless(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s := servePipe(t, newRootsServer(nil, make(chan struct{}, 4)), &client.Options{
		Roots: []client.Root{{URI: "file:///srv/a", Name: "a"}},
	}, rec)
	if s.Protocol() != "2026-07-28" {
		t.Fatalf("protocol %s", s.Protocol())
	}
	if got := rootsCall(t, s, "ask-roots"); got != "file:///srv/a a\n" {
		t.Errorf("ask-roots %q", got)
	}
	if err := s.SetRoots(t.Context(), []client.Root{{URI: "file:///srv/b", Name: "b"}}); err != nil {
		t.Fatal(err)
	}
	if got := rootsCall(t, s, "ask-roots"); got != "file:///srv/b b\n" {
		t.Errorf("ask-roots after SetRoots %q", got)
	}
	for _, m := range rec.out() {
		if m.Method == "notifications/roots/list_changed" {
			t.Error("a 2026-07-28 session sent notifications/roots/list_changed")
		}
		if m.Method == "tools/call" && !strings.Contains(string(m.Params), `"roots":{}`) {
			t.Errorf("tools/call without roots in its clientCapabilities: %s", m.Params)
		}
	}
	if info := s.Roots(); !info.Declared || info.ListChanged || info.Asked != 2 {
		t.Errorf("Roots() = %+v", info)
	}
	if n := s.Journal().Counts().Total(); n != 0 {
		t.Errorf("%d journal entries: a roots/list is no question", n)
	}
}

// TestRootsNotDeclared: without Options.Roots the capability is not
// declared, a roots/list is refused -32601 "Roots not supported" (the
// spec's words), and SetRoots keeps the list but says it cannot tell.
func TestRootsNotDeclared(t *testing.T) {
	t.Parallel()
	s, p, _ := pipePeer(t, "2025-11-25", nil, nil)
	m := p.ask(1, "roots/list", `{}`, nil)
	if m.Error == nil || m.Error.Code != jsonrpc.CodeMethodNotFound || m.Error.Message != "Roots not supported" {
		t.Errorf("roots/list undeclared: %s %v", m.Result, m.Error)
	}
	if err := s.SetRoots(t.Context(), []client.Root{{URI: "file:///x"}}); !errors.Is(err, client.ErrRootsNotDeclared) {
		t.Errorf("SetRoots undeclared: %v", err)
	}
}

// TestRootsEmptyList: a declared empty list is "roots": [], never null.
func TestRootsEmptyList(t *testing.T) {
	t.Parallel()
	_, p, _ := pipePeer(t, "2025-11-25", &client.Options{Roots: []client.Root{}}, nil)
	if m := p.ask(1, "roots/list", ``, nil); string(m.Result) != `{"roots":[]}` {
		t.Errorf("roots/list: %s %v", m.Result, m.Error)
	}
}

// TestManagerRoots: the Manager keeps a server's roots across a
// reconnect, and a server first connected without roots declares them
// once SetRoots gave it some.
func TestManagerRoots(t *testing.T) {
	t.Parallel()
	changed := make(chan struct{}, 4)
	srv := newRootsServer(legacyOpts(nil), changed)
	m := client.NewManager(nil)
	tr := &serverTransport{srv: srv}
	defer tr.wg.Wait()
	defer m.Close()
	if err := m.Add(t.Context(), "r", tr, nil); err != nil {
		t.Fatal(err)
	}
	if info, _ := m.Roots("r"); info.Declared {
		t.Errorf("declared without roots: %+v", info)
	}
	if err := m.SetRoots(t.Context(), "r", []client.Root{{URI: "file:///srv/m"}}); !errors.Is(err, client.ErrRootsNotDeclared) {
		t.Errorf("SetRoots on a session without the capability: %v", err)
	}
	if err := m.Reconnect(t.Context(), "r"); err != nil {
		t.Fatal(err)
	}
	info, err := m.Roots("r")
	if err != nil || !info.Declared || len(info.Roots) != 1 || info.Roots[0].URI != "file:///srv/m" {
		t.Errorf("after reconnect: %+v %v", info, err)
	}
	if got := rootsCall(t, m.Session("r"), "roots"); got != "file:///srv/m \n" {
		t.Errorf("roots listed after reconnect %q", got)
	}
	if _, err := m.Roots("nope"); !errors.Is(err, client.ErrUnknownServer) {
		t.Errorf("Roots of an unknown server: %v", err)
	}
}
