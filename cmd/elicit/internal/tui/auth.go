package tui

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/oauth"
	"github.com/elicit-dev/elicit/ui"
)

// tuiAuth asks through the TUI: the authorization step is a URL-mode
// question of elicit's own (the pane shows the full URL with its host
// marked; o opens it in the browser, c copies it). Accepting means "I
// opened it": the flow goes on waiting for the redirect to the loopback
// listener, and the pane goes away when it comes. Declining ends the
// authorization. The server's status line shows the state.
func tuiAuth(br *ui.Bridge, timeout time.Duration) *serverspec.AuthHooks {
	return &serverspec.AuthHooks{
		Timeout: timeout,
		Open: func(ctx context.Context, server string, a oauth.Authorization) error {
			msg := "Sign in to " + server + " at " + serverspec.HostOf(a.Issuer)
			if a.StepUp {
				msg = server + " needs more access (" + strings.Join(a.Scopes, " ") + "): sign in again at " + serverspec.HostOf(a.Issuer)
			}
			msg += ". Open the link, approve, and come back: elicit waits for the browser's redirect."
			q := &question.Question{
				// Its own id: no server sent it, and no server id can be it.
				Key:     question.Key{Server: server, Delivery: question.ServerRequest, RequestID: jsonrpc.StringID("elicit-oauth-" + rand.Text())},
				Server:  server,
				Mode:    question.ModeURL,
				Message: msg,
				URL:     a.URL,
				Arrived: time.Now(),
			}
			out := br.Prompt(ctx, q)
			if ctx.Err() != nil {
				return nil // the redirect came (or the flow gave up): nothing to say
			}
			switch out.Kind {
			case question.Accept:
			case question.Decline:
				return errors.New("the sign-in was declined in elicit")
			default:
				return errors.New("the sign-in was dismissed in elicit (" + out.Kind.String() + ")")
			}
			return nil
		},
		OnState: func(server string, s oauth.State) { br.AuthState(server, string(s)) },
	}
}
