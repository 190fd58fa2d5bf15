package demo_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// byHandURL is byHand with URL-mode elicitation declared too.
func byHandURL() *mcp.ClientOptions {
	o := byHand()
	o.Capabilities.Elicitation.URL = &mcp.URLElicitationCapabilities{}
	return o
}

// TestModernConsent: in 2026-07-28 consent asks through input_required, a
// URL-mode question without elicitationId, and the retry's answer decides
// the result; accept, decline and cancel each read their own way.
func TestModernConsent(t *testing.T) {
	t.Parallel()
	for _, kind := range modernTransports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			cs := connectModern(t, kind, nil, byHandURL())
			r1 := retry(t, cs, "consent", nil, nil, "")
			q := asked(t, r1, "consent")["consent"]
			if q.Mode != "url" || q.ElicitationID != "" || q.RequestedSchema != nil || q.Message != "Open the page to approve access to the demo calendar." {
				t.Fatalf("want a url-mode question with no elicitationId and no schema, got %+v", q)
			}
			if !strings.HasPrefix(q.URL, "https://example.com/consent?session=") {
				t.Fatalf("url = %q", q.URL)
			}
			// Asked again without an answer: the same page.
			again := asked(t, retry(t, cs, "consent", nil, nil, r1.RequestState), "consent")["consent"]
			if again.URL != q.URL {
				t.Errorf("a retry without an answer asks about %q, not the same page %q", again.URL, q.URL)
			}
			for action, want := range map[string]string{
				"accept":  "The user consented to open " + q.URL,
				"decline": "declined to open the consent page",
				"cancel":  "Consent cancelled",
			} {
				got := done(t, retry(t, cs, "consent", nil, mcp.InputResponseMap{"consent": &mcp.ElicitResult{Action: action}}, r1.RequestState))
				if !strings.Contains(got, want) {
					t.Errorf("%s: result %q lacks %q", action, got, want)
				}
			}
		})
	}
}

// TestModernConsentAutomatic: go-sdk's own retry loop hands the URL-mode
// question to the same handler as in 2025-11-25, and the call completes.
func TestModernConsentAutomatic(t *testing.T) {
	t.Parallel()
	asked := make(chan *mcp.ElicitParams, 1)
	cs := connectModern(t, "pipes", nil, urlCapable(func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked <- req.Params
		return &mcp.ElicitResult{Action: "accept"}, nil
	}, make(chan string, 1)))
	got := okText(t, cs, "consent", nil)
	p := <-asked
	if p.Mode != "url" || !strings.Contains(got, "consented to open "+p.URL) {
		t.Errorf("question %+v, result %q", p, got)
	}
}

// TestModernConsentNeedsURLMode: a 2026-07-28 client that declared form
// mode only gets -32021 naming elicitation.url, not a question it cannot
// answer.
func TestModernConsentNeedsURLMode(t *testing.T) {
	t.Parallel()
	cs := connectModern(t, "memory", nil, byHand())
	_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "consent"})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != mcp.CodeMissingRequiredClientCapabilities || !strings.Contains(je.Message, "elicitation.url") {
		t.Errorf("want -32021 about elicitation.url, got %v", err)
	}
}

// TestModernOnlyServer: a server pinned to 2026-07-28 does not list the
// scene it cannot play (withdrawn), nor mention it in its readme or its
// instructions; every tool it lists works. A server of both eras lists it
// and says which era it needs.
func TestModernOnlyServer(t *testing.T) {
	t.Parallel()
	cs := connectModern(t, "memory", &demo.Options{Protocol: demo.ProtocolStateless}, urlCapable(
		func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}, make(chan string, 1)))
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if slices.Contains(names, "withdrawn") || !slices.Contains(names, "consent") || !slices.Contains(names, "deploy") {
		t.Errorf("tools of a 2026-07-28 server = %v", names)
	}
	if ins := cs.InitializeResult().Instructions; strings.Contains(ins, "withdrawn") || !strings.Contains(ins, "consent") {
		t.Errorf("instructions = %q", ins)
	}
	res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: demo.ReadmeURI})
	if err != nil || strings.Contains(res.Contents[0].Text, "withdrawn") {
		t.Errorf("readme = %v, %v", res, err)
	}
	if got := okText(t, cs, "consent", nil); !strings.Contains(got, "declined") {
		t.Errorf("consent = %q", got)
	}

	both := connect(t, "memory", nil, nil, pinned)
	all, err := both.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(all.Tools, func(tl *mcp.Tool) bool { return tl.Name == "withdrawn" })
	if i < 0 || !strings.Contains(all.Tools[i].Description, "2025-11-25 and older only") {
		t.Errorf("withdrawn on a server of both eras: %+v", all.Tools)
	}
}

// TestSceneTemplate: resources/templates/list has demo://scene/{tool}, and
// reading through it gives that tool's scene; an unknown tool is not found.
func TestSceneTemplate(t *testing.T) {
	t.Parallel()
	for _, era := range []struct {
		name string
		cs   func(t *testing.T) *mcp.ClientSession
	}{
		{"2025-11-25", func(t *testing.T) *mcp.ClientSession { return connect(t, "memory", nil, nil, pinned) }},
		{"2026-07-28", func(t *testing.T) *mcp.ClientSession { return connectModern(t, "stateless", nil, nil) }},
	} {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			cs := era.cs(t)
			list, err := cs.ListResourceTemplates(t.Context(), nil)
			if err != nil || len(list.ResourceTemplates) != 2 || list.ResourceTemplates[0].URITemplate != demo.SceneTemplate { // and the skills' files
				t.Fatalf("templates = %+v, %v", list, err)
			}
			res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "demo://scene/wizard"})
			if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "the second question depends on the first answer") {
				t.Errorf("demo://scene/wizard = %+v, %v", res, err)
			}
			if _, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "demo://scene/nope"}); err == nil {
				t.Error("demo://scene/nope: want not found")
			}
		})
	}
}
