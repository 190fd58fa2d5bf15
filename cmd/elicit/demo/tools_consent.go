package demo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// consentMessage is the message of the consent tool's URL-mode elicitation.
const consentMessage = "Open the page to approve access to the demo calendar."

// errNoURLMode explains why consent cannot ask: the spec forbids sending a
// mode the client did not declare.
var errNoURLMode = errors.New("the client did not declare URL-mode elicitation " +
	"(capabilities.elicitation.url), so the server cannot ask it to open a page")

func addConsent(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "consent",
		Title: "Approve access in the browser",
		Description: "Sends a URL-mode elicitation asking the user to open a consent page. Needs a " +
			"client that declared elicitation.url. Accept means consent to open the page, nothing more.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true)},
	}, consent)
}

// consentURL is the page a URL-mode elicitation asks the user to open.
func consentURL(id string) string {
	return "https://example.com/consent?session=" + url.QueryEscape(id)
}

func clientDeclaredURLMode(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil &&
		p.Capabilities.Elicitation.URL != nil
}

func consent(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
	if modern(req.Session) {
		return nil, nil, legacyOnly("consent", "the scene shows elicitationId and "+
			"notifications/elicitation/complete, which 2026-07-28 removed")
	}
	if !clientDeclaredURLMode(req.Session) {
		return nil, nil, errNoURLMode
	}
	id := rand.Text() // opaque and unique per server, as the spec asks
	page := consentURL(id)
	res, err := elicit(ctx, req, &mcp.ElicitParams{
		Mode:          "url",
		Message:       consentMessage,
		URL:           page,
		ElicitationID: id,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("elicitation/create (url mode): %w", err)
	}
	switch res.Action {
	case actionAccept:
		// There is no real page behind the URL, so the demo plays the page too:
		// it reports the out-of-band step as finished right away.
		if err := req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: id}); err != nil {
			return nil, nil, fmt.Errorf("notifications/elicitation/complete: %w", err)
		}
		return text("The user consented to open %s (elicitation %s). Accept means consent only; "+
			"the demo pretends the page was completed and sent notifications/elicitation/complete.", page, id), nil, nil
	case actionDecline:
		return text("The user declined to open the consent page: no access was granted."), nil, nil
	case actionCancel:
		return text("Consent cancelled: the request was dismissed without an answer; ask again later."), nil, nil
	default:
		return nil, nil, unknownAction(res.Action)
	}
}
