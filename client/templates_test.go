package client_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
)

// TestListResourceTemplatesDemo: the demo's templates (its scenes, its
// skills' files) come back with their members, in both eras.
func TestListResourceTemplatesDemo(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"http", "pipe"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			s := connectDemo(t, kind, question.CancelAll, &recorder{})
			got, err := s.ListResourceTemplates(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			want := []wire.ResourceTemplate{{URITemplate: demo.SceneTemplate, Name: "scene", Title: "One demo tool's scene",
				Description: "What one demo tool shows, e.g. demo://scene/deploy.", MimeType: "text/markdown"},
				{URITemplate: "skill://{+path}", Name: "skill-file", Title: "A file of one of the demo's skills",
					Description: "What skills/list names, e.g. skill://release-notes/SKILL.md."}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("templates (-want +got):\n%s", diff)
			}
		})
	}
}

// TestListResourceTemplatesPages: every page is followed, with the
// server's cursor, until there is none.
func TestListResourceTemplatesPages(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	srv := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "1"}, legacyOpts(&mcp.ServerOptions{PageSize: 2}))
	for i := range 5 {
		srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: fmt.Sprintf("x://t%d/{id}", i), Name: fmt.Sprintf("t%d", i)},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) { return nil, nil })
	}
	s := servePipe(t, srv, nil, rec)
	got, err := s.ListResourceTemplates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tp := range got {
		names = append(names, tp.Name)
	}
	if want := []string{"t0", "t1", "t2", "t3", "t4"}; !cmp.Equal(names, want) {
		t.Errorf("templates %v, want %v", names, want)
	}
	var pages []string
	for _, m := range rec.out() {
		if m.Method == "resources/templates/list" {
			pages = append(pages, string(m.Params))
		}
	}
	if len(pages) != 3 || pages[0] != "" || !strings.Contains(pages[1], "cursor") {
		t.Errorf("resources/templates/list requests %q", pages)
	}
}

// TestListResourceTemplatesRepeatedCursor: a server that hands back the
// same cursor is not followed forever.
func TestListResourceTemplatesRepeatedCursor(t *testing.T) {
	t.Parallel()
	s, p, _ := pipePeer(t, "2025-11-25", nil, nil)
	done := make(chan error, 1)
	go func() { _, err := s.ListResourceTemplates(context.Background()); done <- err }()
	for range 2 {
		m := p.expect("resources/templates/list")
		p.respond(m.ID, `{"resourceTemplates":[{"uriTemplate":"x://{a}","name":"a"}],"nextCursor":"same"}`)
	}
	if err := <-done; err == nil || !strings.Contains(err.Error(), "repeated cursor") {
		t.Fatalf("err %v", err)
	}
}
