package demo_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// urlCapable declares form and URL elicitation, as a client must for the
// consent tool.
func urlCapable(h func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error), completed chan<- string) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ElicitationHandler: h,
		ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			select { // notification handlers must not block the session
			case completed <- req.Params.ElicitationID:
			default:
			}
		},
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
			Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{},
		}},
	}
}

func TestConsentAccept(t *testing.T) {
	t.Parallel()
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			asked := make(chan *mcp.ElicitParams, 1)
			completed := make(chan string, 1)
			cs := connect(t, kind, nil, urlCapable(func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked <- req.Params
				return &mcp.ElicitResult{Action: "accept"}, nil
			}, completed), pinned)

			got := okText(t, cs, "consent", nil)
			p := <-asked
			if p.Mode != "url" || p.ElicitationID == "" || p.RequestedSchema != nil {
				t.Errorf("want a url-mode request with an id and no schema, got %+v", p)
			}
			if want := "https://example.com/consent?session=" + p.ElicitationID; p.URL != want {
				t.Errorf("url = %q, want %q", p.URL, want)
			}
			if p.Message != "Open the page to approve access to the demo calendar." {
				t.Errorf("message = %q", p.Message)
			}
			if !strings.Contains(got, "consented") || !strings.Contains(got, p.URL) {
				t.Errorf("result = %q", got)
			}
			if id := within(t, 5*time.Second, completed, "notifications/elicitation/complete"); id != p.ElicitationID {
				t.Errorf("completed id = %q, want %q", id, p.ElicitationID)
			}
		})
	}
}

func TestConsentIDsAreUnique(t *testing.T) {
	t.Parallel()
	ids := make(chan string, 2)
	cs := connect(t, "memory", nil, urlCapable(func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		ids <- req.Params.ElicitationID
		return &mcp.ElicitResult{Action: "decline"}, nil
	}, make(chan string, 2)), pinned)
	for range 2 {
		if got := okText(t, cs, "consent", nil); !strings.Contains(got, "declined") {
			t.Errorf("decline: result = %q", got)
		}
	}
	if a, b := <-ids, <-ids; a == b {
		t.Errorf("two consents share elicitation id %q", a)
	}
}

// TestConsentNeedsURLMode: a client that only declared form mode gets a tool
// error that names the missing capability, and is never sent a URL request.
func TestConsentNeedsURLMode(t *testing.T) {
	t.Parallel()
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			cs := connect(t, kind, nil, answer(&mcp.ElicitResult{Action: "accept"}), pinned)
			res := call(t, cs, "consent", nil)
			if !res.IsError || !strings.Contains(textOf(t, res), "did not declare URL-mode elicitation") {
				t.Errorf("want a tool error about URL mode, got error=%v %q", res.IsError, textOf(t, res))
			}
		})
	}
}
