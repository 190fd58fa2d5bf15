package headless

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport/oauth"
	"github.com/elicit-dev/elicit/transport/redact"
)

// AuthUsage is elicit auth -h.
const AuthUsage = `Usage: elicit auth login|status|logout [--url URL | --config FILE --server NAME] [flags]

OAuth for HTTP servers. elicit authorizes by itself when a server answers
401 (in the TUI a pane shows the sign-in link; headless, the link is
printed on stderr and $BROWSER runs it); these commands do it ahead of
time, show what is kept, and revoke and forget it.

  login    authorize now: discovery, registration, the browser sign-in
           (redirected to a listener on 127.0.0.1), the token
  status   what is kept for the server (or every server, with no server
           given): issuer, scopes, expiry, whether a refresh token is
           kept; never the tokens themselves
  logout   revoke the server's tokens at its authorization server
           (RFC 7009: the refresh token, then the access token, where the
           server publishes a revocation endpoint; at most 10 s), then
           forget them and the client registrations whatever the server
           said; each token's fate is printed. --no-revoke forgets
           without asking the server (offline): the tokens stay valid
           there until they expire

Tokens live in $XDG_STATE_HOME/elicit/auth (~/.local/state/elicit/auth),
one file per server URL, mode 0600.
`

// Auth is elicit auth login|status|logout: OAuth ahead of time, what is
// kept, revoking and forgetting it.
func (Env) Auth(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fmt.Fprint(stderr, AuthUsage)
			return exit.ErrHelp
		}
		return exit.Usagef("auth needs login, status or logout (see elicit auth -h)")
	}
	verb := args[0]
	var c cli.Flags
	fs := cli.NewFlagSet("auth "+verb, stderr, AuthUsage)
	fs.StringVar(&c.URL, "url", "", "the server's Streamable HTTP endpoint")
	c.RegisterConfig(fs)
	c.RegisterAuth(fs)
	var noRevoke bool
	if verb == "logout" {
		fs.BoolVar(&noRevoke, "no-revoke", false, "logout: forget the tokens without asking the authorization server to revoke them (offline)")
	}
	// Unused here; spec checks that they are bounds.
	c.ConnectTimeout, c.RequestTimeout, c.URLWait = time.Second, time.Second, time.Second
	pos, err := cli.ParseInterleaved(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return exit.Usagef("auth %s takes no arguments, got %q", verb, pos[0])
	}
	store := serverspec.AuthStore()
	if store == nil {
		return exit.Fail(exit.Internal, "auth: no place for tokens: set XDG_STATE_HOME or HOME")
	}
	if verb == "status" && c.URL == "" && c.Config == "" && c.Server == "" {
		return authStatusAll(stdout, store)
	}
	if c.URL == "" && c.Config == "" && c.Server == "" {
		return exit.Usagef("auth %s needs the server: --url URL or --config FILE --server NAME", verb)
	}
	spec, err := c.Spec(false)
	if err != nil {
		return err
	}
	if spec.URL == "" {
		return exit.Usagef("auth %s: %s is not an HTTP server; OAuth is for servers with a URL", verb, spec.Name)
	}
	switch verb {
	case "login":
		return authLogin(ctx, spec, &c, stdout, stderr)
	case "status":
		rec, err := store.Load(spec.URL)
		if err != nil {
			return exit.Fail(exit.Internal, "%w", err)
		}
		if rec == nil {
			fmt.Fprintf(stdout, "%s: nothing kept (not logged in)\n", untrusted.Line(redact.URL(spec.URL)))
			return nil
		}
		printRecord(stdout, rec)
		return nil
	case "logout":
		return authLogout(ctx, spec, !noRevoke, stdout, stderr)
	}
	return exit.Usagef("unknown auth command %q: want login, status or logout", verb)
}

func authLogin(ctx context.Context, spec serverspec.Server, c *cli.Flags, stdout, stderr io.Writer) error {
	if spec.Header.Get("Authorization") != "" {
		return exit.Usagef("auth login: the config gives %s an Authorization header, which elicit sends instead of OAuth", spec.Name)
	}
	spec.Auth = serverspec.HeadlessAuth(stderr, c.AuthTimeout)
	sec := serverspec.SecretsOf(stderr)
	sec.Add(spec.SecretValues()...)
	t, err := spec.OAuthTransport(sec)
	if err != nil {
		return err
	}
	// The person's wait is bounded by --auth-timeout inside the flow;
	// this bounds the rest (discovery, registration, the token request).
	ctx, cancel := context.WithTimeout(ctx, c.AuthTimeout+2*time.Minute)
	defer cancel()
	if err := t.Login(ctx); err != nil {
		if errors.Is(err, oauth.ErrNotNeeded) {
			fmt.Fprintf(stdout, "%s: %v\n", untrusted.Line(redact.URL(spec.URL)), untrusted.Line(err.Error()))
			return nil
		}
		return exit.Fail(exit.Connect, "auth login: %w", err)
	}
	rec, err := serverspec.AuthStore().Load(spec.URL)
	if err != nil {
		return exit.Fail(exit.Internal, "%w", err)
	}
	if rec != nil {
		printRecord(stdout, rec)
	}
	return nil
}

// authLogout revokes and forgets. The exit is 0 once the tokens are
// forgotten, even when revocation failed: the person's request (elicit no
// longer holds or uses them) is done, a rerun cannot revoke what is no
// longer kept, and "logout && login" must not break on an authorization
// server that is down; what the server did is said per token instead.
//
// A failed revocation is also one warning on stderr, so it is seen when
// stdout goes elsewhere.
func authLogout(ctx context.Context, spec serverspec.Server, revoke bool, stdout, stderr io.Writer) error {
	sec := serverspec.SecretsOf(stderr)
	sec.Add(spec.SecretValues()...)
	t, err := spec.OAuthTransport(sec)
	if err != nil {
		return err
	}
	out, err := t.Logout(ctx, revoke)
	if err != nil {
		return exit.Fail(exit.Internal, "auth logout: %w", err)
	}
	name := untrusted.Line(redact.URL(spec.URL))
	if !out.Kept {
		fmt.Fprintf(stdout, "%s: nothing was kept\n", name)
		return nil
	}
	fmt.Fprintf(stdout, "%s: logged out (tokens and registrations forgotten)\n", name)
	var failed []string
	for _, r := range out.Tokens {
		fmt.Fprintf(stdout, "  %-13s  %s\n", r.Token, revocationLine(r, out.Issuer))
		if r.Outcome == oauth.Failed {
			failed = append(failed, r.Token)
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(stderr, "elicit: warning: revocation failed (%s): forgotten here, still valid at %s until they expire\n",
			strings.Join(failed, ", "), untrusted.Line(out.Issuer))
	}
	return nil
}

// revocationLine says what became of one token; server text goes
// through untrusted, and oauth keeps tokens and secrets out of it.
func revocationLine(r oauth.Revocation, issuer string) string {
	stays := "it stays valid at " + untrusted.Line(issuer) + " until it expires"
	why := ""
	if r.Err != nil {
		why = untrusted.Line(r.Err.Error())
	}
	switch r.Outcome {
	case oauth.Revoked:
		return "revoked at " + untrusted.Line(r.Endpoint)
	case oauth.Expired:
		return "had expired; forgotten"
	case oauth.NotAsked:
		return "forgotten only (--no-revoke); " + stays
	case oauth.NoEndpoint:
		return "forgotten only: " + why + "; " + stays
	}
	at := ""
	if r.Endpoint != "" {
		at = " at " + untrusted.Line(r.Endpoint)
	}
	return "NOT revoked" + at + ": " + why + "; forgotten here, " + stays
}

func authStatusAll(stdout io.Writer, store *oauth.Store) error {
	recs, err := store.List()
	if err != nil {
		return exit.Fail(exit.Internal, "%w", err)
	}
	if len(recs) == 0 {
		fmt.Fprintln(stdout, "no server is logged in")
		return nil
	}
	for i, r := range recs {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		printRecord(stdout, r)
	}
	return nil
}

// printRecord shows what is kept for a server, never a token or secret.
func printRecord(w io.Writer, r *oauth.Record) {
	fmt.Fprintf(w, "%s\n", untrusted.Line(redact.URL(r.URL)))
	if r.Issuer != "" {
		fmt.Fprintf(w, "  authorization server  %s\n", untrusted.Line(r.Issuer))
	}
	if r.Resource != "" && r.Resource != r.URL {
		fmt.Fprintf(w, "  resource              %s\n", untrusted.Line(r.Resource))
	}
	if t := r.Token; t != nil {
		state := "valid"
		switch {
		case t.Expiry.IsZero():
			state = "valid (no expiry given)"
		case time.Now().After(t.Expiry):
			state = "expired " + t.Expiry.Local().Format(time.DateTime)
		default:
			state = "valid until " + t.Expiry.Local().Format(time.DateTime)
		}
		fmt.Fprintf(w, "  token                 %s %s\n", untrusted.Line(t.TokenType), state)
		refresh := "no"
		if t.RefreshToken != "" {
			refresh = "yes"
		}
		fmt.Fprintf(w, "  refresh token         %s\n", refresh)
		scope := t.Scope
		if scope == "" {
			scope = strings.Join(r.Scopes, " ")
		}
		if scope != "" {
			fmt.Fprintf(w, "  scopes                %s\n", untrusted.Line(scope))
		}
	} else {
		fmt.Fprintf(w, "  token                 none\n")
	}
	for iss, c := range r.Clients {
		fmt.Fprintf(w, "  client at %s  %s %s (%s)\n", untrusted.Line(iss), c.Kind, untrusted.Line(c.ClientID), untrusted.Line(c.AuthMethod))
	}
}
