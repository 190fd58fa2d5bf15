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

// consentKey is the inputRequests key of the consent question (2026-07-28).
const consentKey = "consent"

func addConsent(srv *mcp.Server, cfg config) {
	rounds := multiRound(cfg.codec, "consent", consentRound)
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "consent",
		Title: "Approve access in the browser",
		Description: "Asks the user to open a consent page (URL-mode elicitation). Needs a client that " +
			"declared elicitation.url. Accept means consent to open the page, nothing more.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true)},
	}, func(ctx context.Context, req *mcp.CallToolRequest, in any) (*mcp.CallToolResult, any, error) {
		// Two handlers, not one step: 2025-11-25 shows what only it has
		// (elicitationId, notifications/elicitation/complete); 2026-07-28
		// asks through input_required and learns the answer from the retry.
		if modern(req.Session) {
			return rounds(ctx, req, in)
		}
		return consent(ctx, req, in)
	})
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

// consent is the 2025-11-25 scene: an elicitation/create in URL mode with
// an elicitationId, and notifications/elicitation/complete once accepted.
func consent(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
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
	return consentOutcome(res.Action, page, func() (*mcp.CallToolResult, error) {
		// There is no real page behind the URL, so the demo plays the page too:
		// it reports the out-of-band step as finished right away.
		if err := req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: id}); err != nil {
			return nil, fmt.Errorf("notifications/elicitation/complete: %w", err)
		}
		return text("The user consented to open %s (elicitation %s). Accept means consent only; "+
			"the demo pretends the page was completed and sent notifications/elicitation/complete.", page, id), nil
	})
}

// consentOutcome is the result for an answer to the consent question;
// accepted runs on accept.
func consentOutcome(action, page string, accepted func() (*mcp.CallToolResult, error)) (*mcp.CallToolResult, any, error) {
	switch action {
	case actionAccept:
		res, err := accepted()
		return res, nil, err
	case actionDecline:
		return text("The user declined to open the consent page: no access was granted."), nil, nil
	case actionCancel:
		return text("Consent cancelled: the request was dismissed without an answer; ask again later."), nil, nil
	default:
		return nil, nil, unknownAction(action)
	}
}

// consentState is what the 2026-07-28 round carries: the page's session,
// so that the page asked about and the page reported are the same.
type consentState struct {
	Session string `json:"session"`
}

// consentRound is the 2026-07-28 scene: the URL-mode question goes out in
// an input_required result (no elicitationId: 2026-07-28 removed it, and
// notifications/elicitation/complete with it), and the client's retry
// carries the answer. On accept the server would look in its own state
// whether the page was completed; the demo pretends it was.
func consentRound(_ context.Context, _ *mcp.CallToolRequest, _ any, r *round) (*mcp.CallToolResult, error) {
	var st consentState
	if err := r.carry(&st); err != nil {
		return nil, err
	}
	res, err := r.answer(consentKey, nil)
	if err != nil {
		return nil, err
	}
	if res == nil {
		if st.Session == "" {
			st.Session = rand.Text()
		}
		return r.ask(st, map[string]*mcp.ElicitParams{consentKey: {
			Mode: "url", Message: consentMessage, URL: consentURL(st.Session),
		}})
	}
	page := consentURL(st.Session)
	out, _, err := consentOutcome(res.Action, page, func() (*mcp.CallToolResult, error) {
		return text("The user consented to open %s. Accept means consent only; in 2026-07-28 the "+
			"client's retry brings the answer, and the demo pretends the page was completed.", page), nil
	})
	return out, err
}
