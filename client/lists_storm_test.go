package client_test

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stormKind is one list a server can say changed: how to change it on a
// go-sdk server, the notification that says so, the method that lists
// it, and how the client lists it (the names it sees).
type stormKind struct {
	what   string // the ListChanged event's What
	notify string
	method string
	change func(srv *mcp.Server)
	list   func(ctx context.Context, s *client.Session) ([]string, error)
	added  string // the name the change adds
}

func stormKinds() []stormKind {
	return []stormKind{
		{"tools", wire.NotifyToolsListChanged, wire.MethodToolsList,
			func(srv *mcp.Server) {
				srv.AddTool(&mcp.Tool{Name: "added", InputSchema: map[string]any{"type": "object"}},
					func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
						return &mcp.CallToolResult{}, nil
					})
			},
			func(ctx context.Context, s *client.Session) ([]string, error) {
				l, err := s.ListTools(ctx)
				return namesOf(l, func(t wire.Tool) string { return t.Name }), err
			}, "added"},
		{"prompts", wire.NotifyPromptsListChanged, wire.MethodPromptsList,
			func(srv *mcp.Server) {
				srv.AddPrompt(&mcp.Prompt{Name: "added"},
					func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
						return &mcp.GetPromptResult{}, nil
					})
			},
			func(ctx context.Context, s *client.Session) ([]string, error) {
				l, err := s.ListPrompts(ctx)
				return namesOf(l, func(p wire.Prompt) string { return p.Name }), err
			}, "added"},
		{"resources", wire.NotifyResourcesListChanged, wire.MethodResourcesList,
			func(srv *mcp.Server) {
				srv.AddResource(&mcp.Resource{Name: "added", URI: "test://added"},
					func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
						return &mcp.ReadResourceResult{}, nil
					})
			},
			func(ctx context.Context, s *client.Session) ([]string, error) {
				l, err := s.ListResources(ctx)
				return namesOf(l, func(r wire.Resource) string { return r.Name }), err
			}, "added"},
		// Templates have no notification of their own: resources'
		// list_changed says they changed too.
		{"resources", wire.NotifyResourcesListChanged, wire.MethodResourcesTemplatesList,
			func(srv *mcp.Server) {
				srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "added", URITemplate: "test://added/{x}"},
					func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
						return &mcp.ReadResourceResult{}, nil
					})
			},
			func(ctx context.Context, s *client.Session) ([]string, error) {
				l, err := s.ListResourceTemplates(ctx)
				return namesOf(l, func(r wire.ResourceTemplate) string { return r.Name }), err
			}, "added"},
	}
}

func namesOf[T any](l []T, name func(T) string) []string {
	out := make([]string, 0, len(l))
	for _, v := range l {
		out = append(out, name(v))
	}
	return out
}

// churnServer is a go-sdk server whose every list_changed of kind k goes
// out n times, one after the other, and which answers k's list only once
// they are all written (a server busy sending its storm). It counts the
// list requests it gets and the most it had at once.
type churnServer struct {
	srv *mcp.Server

	mu          sync.Mutex
	storming    chan struct{} // closed when a storm is written; nil before
	lists, most int
	inFlight    int
}

func newChurnServer(k stormKind, n int) *churnServer {
	ss := &churnServer{}
	caps := &mcp.ServerCapabilities{
		Tools:     &mcp.ToolCapabilities{ListChanged: true},
		Prompts:   &mcp.PromptCapabilities{ListChanged: true},
		Resources: &mcp.ResourceCapabilities{ListChanged: true},
	}
	ss.srv = mcp.NewServer(&mcp.Implementation{Name: "storm", Version: "1"}, legacyOpts(&mcp.ServerOptions{Capabilities: caps}))
	ss.srv.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != k.notify {
				return next(ctx, method, req)
			}
			ss.mu.Lock()
			done := ss.storming
			ss.mu.Unlock()
			defer close(done)
			for range n {
				if _, err := next(ctx, method, req); err != nil {
					return nil, err
				}
			}
			return nil, nil
		}
	})
	ss.srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != k.method {
				return next(ctx, method, req)
			}
			ss.mu.Lock()
			ss.lists++
			ss.inFlight++
			ss.most = max(ss.most, ss.inFlight)
			wait := ss.storming
			ss.mu.Unlock()
			defer func() {
				ss.mu.Lock()
				ss.inFlight--
				ss.mu.Unlock()
			}()
			if wait != nil {
				select {
				case <-wait:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return next(ctx, method, req)
		}
	})
	return ss
}

// counts reports the list requests so far and the most at once.
func (ss *churnServer) counts() (lists, most int) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.lists, ss.most
}

// TestListChangedStormCoalescedAtSession: a go-sdk server sends 10,000
// list_changed of one kind and a consumer lists that kind on every one
// of them, either at once (100 consumers) or one after the other,
// lagging behind (as the TUI's event loop does). The session sends at
// most one list request of the kind at a time and holds at most one more,
// and answers from the last list while no change came since it was
// asked: the server gets the request the first notification started and
// one after it, not 10,000, and every answer has the change in it.
func TestListChangedStormCoalescedAtSession(t *testing.T) {
	const storm = 10_000
	for _, k := range stormKinds() {
		for _, concurrent := range []bool{true, false} {
			name := k.method + "/one-after-the-other"
			if concurrent {
				name = k.method + "/at-once"
			}
			t.Run(name, func(t *testing.T) {
				ss := newChurnServer(k, storm)
				// Buffered for the whole storm: the observer never blocks.
				changed := make(chan struct{}, storm)
				obs := client.ObserverFunc(func(e client.Event) {
					if lc, ok := e.(client.ListChanged); ok && lc.What == k.what {
						changed <- struct{}{}
					}
				})
				s := servePipe(t, ss.srv, &client.Options{Observer: obs}, nil)
				if _, err := k.list(t.Context(), s); err != nil {
					t.Fatalf("%s before the storm: %v", k.method, err)
				}
				before, _ := ss.counts()

				ss.mu.Lock()
				ss.storming = make(chan struct{})
				ss.mu.Unlock()
				k.change(ss.srv)

				var (
					mu      sync.Mutex
					results [][]string
					errs    []error
					wg      sync.WaitGroup
				)
				list := func() {
					names, err := k.list(t.Context(), s)
					mu.Lock()
					results, errs = append(results, names), append(errs, err)
					mu.Unlock()
				}
				// At once is 100 consumers taking the events as they come
				// (a goroutine for each of 10,000 would pass the race
				// detector's limit); one after the other is one.
				workers := 1
				if concurrent {
					workers = 100
				}
				for range workers {
					wg.Go(func() {
						for range storm / workers {
							<-changed
							list()
						}
					})
				}
				wg.Wait()

				lists, most := ss.counts()
				if got := lists - before; got > 2 || most > 1 {
					t.Errorf("%d list_changed cost %d %s requests, at most %d at once; want at most 2, one at a time", storm, got, k.method, most)
				}
				mu.Lock()
				defer mu.Unlock()
				for i, names := range results {
					if errs[i] != nil {
						t.Fatalf("%s: %v", k.method, errs[i])
					}
					if !slices.Contains(names, k.added) {
						t.Fatalf("a %s answered after the change lacks %q: %v", k.method, k.added, names)
					}
				}
			})
		}
	}
}

// TestListAbandonedNotJoined: a list request whose every caller gave up
// is cancelled; a caller who comes after does not join it (and get its
// cancellation) but has a request of its own, answered.
func TestListAbandonedNotJoined(t *testing.T) {
	release := make(chan struct{})
	got := make(chan struct{}, 2)
	srv := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, legacyOpts(nil))
	srv.AddTool(&mcp.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	var answered atomic.Bool
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				got <- struct{}{}
				if answered.CompareAndSwap(false, true) { // the first waits to be released, or cancelled
					select {
					case <-release:
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}
			}
			return next(ctx, method, req)
		}
	})
	defer close(release)
	s := servePipe(t, srv, nil, nil)
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() { _, err := s.ListTools(ctx); errc <- err }()
	<-got
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("the abandoned ListTools returned no error")
	}
	tools, err := s.ListTools(t.Context())
	if err != nil || len(tools) != 1 {
		t.Fatalf("ListTools after an abandoned one: %v, %v", tools, err)
	}
}

// TestListGivenAgainOnlyWhereChangesAreSaid: the last answer is given
// again only where the server says when the list changes. In 2026-07-28
// that is once a subscriptions/listen agreed to it: before, every
// ListTools asks; after, one asks and the next is answered from it until
// a list_changed comes.
func TestListGivenAgainOnlyWhereChangesAreSaid(t *testing.T) {
	var lists atomic.Int64
	srv := mcp.NewServer(&mcp.Implementation{Name: "modern", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				lists.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	rec := &recorder{}
	s := serveHTTP(t, srv, &mcp.StreamableHTTPOptions{Stateless: true}, &client.Options{}, rec)
	if s.Protocol() != "2026-07-28" {
		t.Fatalf("protocol %s", s.Protocol())
	}
	list := func() {
		t.Helper()
		if _, err := s.ListTools(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	list()
	list()
	if n := lists.Load(); n != 2 {
		t.Fatalf("without a listen: %d tools/list for 2 ListTools, want 2", n)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	l, err := s.Listen(ctx, client.ListenOptions{ToolsListChanged: true})
	if err != nil || !l.Agreed().ToolsListChanged {
		t.Fatalf("listen: %v", err)
	}
	list()
	list()
	if n := lists.Load(); n != 3 {
		t.Fatalf("with a listen: %d tools/list in all, want 3 (the second given again)", n)
	}
	srv.AddTool(&mcp.Tool{Name: "u", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	waitEvent(t, rec, func(e client.ListChanged) bool { return e.What == "tools" })
	tools, err := s.ListTools(t.Context())
	if err != nil || len(tools) != 2 || lists.Load() != 4 {
		t.Fatalf("after list_changed: %d tools, %v, %d requests; want 2 tools from a 4th request", len(tools), err, lists.Load())
	}
}
