package serverspec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport/oauth"
	"github.com/elicit-dev/elicit/transport/redact"
)

// OAuth is a server's "oauth" config object (and the --client-id,
// --client-secret and --scope flags for --url).
type OAuth struct {
	ClientID          string   `json:"clientId"`
	ClientSecret      string   `json:"clientSecret"`
	Scopes            []string `json:"scopes"`
	ClientMetadataURL string   `json:"clientMetadataUrl"`
	RedirectPort      int      `json:"redirectPort"`
	// Grant picks a grant with no person in the loop: "client_credentials"
	// (with clientSecret, or privateKeyFile for private_key_jwt) or
	// "jwt-bearer" (workload identity: assertionFile).
	Grant          string `json:"grant"`
	PrivateKeyFile string `json:"privateKeyFile"`
	AssertionFile  string `json:"assertionFile"`
}

// AuthHooks is how the person is asked to authorize, per mode (headless
// prints and runs $BROWSER; the TUI shows a pane), and where state
// changes go.
type AuthHooks struct {
	Open    func(ctx context.Context, server string, a oauth.Authorization) error
	OnState func(server string, s oauth.State)
	Timeout time.Duration
	Logf    func(server, format string, args ...any)
}

// authDir is where tokens are kept: $XDG_STATE_HOME/elicit/auth
// (~/.local/state/elicit/auth by default).
func authDir(getenv func(string) string) string {
	dir := getenv("XDG_STATE_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "elicit", "auth")
}

// AuthStore is the token store, nil (memory only) when there is no home.
func AuthStore() *oauth.Store {
	if d := authDir(os.Getenv); d != "" {
		return &oauth.Store{Dir: d}
	}
	return nil
}

// usesOAuth reports whether the spec's server gets OAuth: an HTTP server
// without a configured Authorization header (one given by hand wins).
func (s Server) usesOAuth() bool {
	return s.URL != "" && s.Header.Get("Authorization") == ""
}

// OAuthTransport builds the OAuth RoundTripper for the spec; what the
// flow gets (verifiers, codes, tokens) goes into sec.
func (s Server) OAuthTransport(sec *redact.Secrets) (*oauth.Transport, error) {
	o := s.OAuth
	cfg := oauth.Config{
		Secrets:           sec,
		Resource:          s.URL,
		ClientID:          o.ClientID,
		ClientSecret:      o.ClientSecret,
		ClientMetadataURL: o.ClientMetadataURL,
		Scopes:            o.Scopes,
		RedirectPort:      o.RedirectPort,
		Store:             AuthStore(),
	}
	name := s.Name
	if h := s.Auth; h != nil {
		if h.Open != nil {
			cfg.Open = func(ctx context.Context, a oauth.Authorization) error { return h.Open(ctx, name, a) }
		}
		if h.OnState != nil {
			cfg.OnState = func(st oauth.State) { h.OnState(name, st) }
		}
		if h.Logf != nil {
			cfg.Logf = func(format string, args ...any) { h.Logf(name, format, args...) }
		}
		cfg.Timeout = h.Timeout
	}
	g, err := o.grant()
	if err != nil {
		return nil, exit.Usagef("server %s: oauth: %v", name, err)
	}
	cfg.Grant = g
	return oauth.New(cfg)
}

// grant is the configured grant, nil for the authorization code flow.
func (o OAuth) grant() (oauth.Grant, error) {
	switch o.Grant {
	case "", "authorization_code":
		return nil, nil
	case "client_credentials":
		g := &oauth.ClientCredentials{ClientID: o.ClientID, ClientSecret: o.ClientSecret}
		if o.PrivateKeyFile != "" {
			// Read as a config is: a FIFO or a device is never waited on.
			b, err := readConfigFile(o.PrivateKeyFile)
			if err != nil {
				return nil, err
			}
			if g.Key, err = oauth.ParsePrivateKey(b); err != nil {
				return nil, fmt.Errorf("%s: %w", o.PrivateKeyFile, err)
			}
		}
		if o.ClientID == "" || o.ClientSecret == "" && g.Key == nil {
			return nil, errors.New(`client_credentials needs "clientId" and "clientSecret" or "privateKeyFile"`)
		}
		return g, nil
	case "jwt-bearer":
		if o.AssertionFile == "" {
			return nil, errors.New(`jwt-bearer needs "assertionFile" (the workload's identity token)`)
		}
		path := o.AssertionFile
		return &oauth.JWTBearer{ClientID: o.ClientID, ClientSecret: o.ClientSecret, Assertion: func() (string, error) {
			b, err := readConfigFile(path)
			return strings.TrimSpace(string(b)), err
		}}, nil
	}
	return nil, fmt.Errorf(`unknown "grant" %q (want authorization_code, client_credentials or jwt-bearer)`, o.Grant)
}

// httpClientFor is the HTTP client of the spec's transport: one whose
// RoundTripper authorizes, when the server gets OAuth.
func (s Server) httpClientFor(sec *redact.Secrets) (*http.Client, error) {
	if !s.usesOAuth() {
		return nil, nil
	}
	t, err := s.OAuthTransport(sec)
	if err != nil {
		return nil, err
	}
	return &http.Client{Transport: t}, nil
}

// HeadlessAuth asks on stderr: the URL is printed (every time, so it can
// be copied on a machine without a browser), $BROWSER runs it when set,
// and the flow waits up to timeout for the redirect.
func HeadlessAuth(stderr io.Writer, timeout time.Duration) *AuthHooks {
	return &AuthHooks{
		Timeout: timeout,
		Open: func(ctx context.Context, server string, a oauth.Authorization) error {
			what := "needs authorization"
			if a.StepUp {
				what = "needs more scope (" + strings.Join(a.Scopes, " ") + ")"
			}
			fmt.Fprintf(stderr, "elicit: %s %s at %s; open this URL to sign in (waiting %v):\n  %s\n",
				untrusted.Line(server), what, untrusted.Line(HostOf(a.Issuer)), timeout, untrusted.Line(a.URL))
			if b := os.Getenv("BROWSER"); b != "" {
				if err := startBrowser(b, a.URL); err != nil {
					fmt.Fprintf(stderr, "elicit: $BROWSER: %v\n", err)
				}
			}
			return nil
		},
		OnState: func(server string, s oauth.State) {
			if s == oauth.StateAuthorized || s == oauth.StateRefreshing {
				fmt.Fprintf(stderr, "elicit: %s: %s\n", untrusted.Line(server), s)
			}
		},
	}
}

// HostOf is the host of a URL (an issuer), or raw when it has none.
func HostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return raw
}

// browserCommand is a browser command on u, never through a shell (the
// security best practices say MUST NOT): $BROWSER's first entry (it may
// list several, colon-separated), split into words, with %s replaced by
// the URL or the URL appended. Only http and https URLs are opened.
func browserCommand(browser, u string) (*exec.Cmd, error) {
	pu, err := url.Parse(u)
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") {
		return nil, fmt.Errorf("refusing to open %q: not an http or https URL", u)
	}
	entry, _, _ := strings.Cut(browser, ":")
	words := strings.Fields(entry)
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	replaced := false
	for i, w := range words {
		if strings.Contains(w, "%s") {
			words[i] = strings.ReplaceAll(w, "%s", u)
			replaced = true
		}
	}
	if !replaced {
		words = append(words, u)
	}
	cmd := exec.Command(words[0], words[1:]...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	return cmd, nil
}

// startBrowser starts $BROWSER on u and does not wait for it (the flow
// waits for the redirect, not for the browser); it is reaped when it
// exits.
func startBrowser(browser, u string) error {
	cmd, err := browserCommand(browser, u)
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// BrowserOpener is the TUI's "o" on a URL pane: $BROWSER when set (run as
// the pane's opener, which waits for it), else the UI's own (xdg-open,
// or open on macOS).
func BrowserOpener() func(string) error {
	b := os.Getenv("BROWSER")
	if b == "" {
		return nil
	}
	return func(u string) error {
		cmd, err := browserCommand(b, u)
		if err != nil {
			return err
		}
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("$BROWSER: %w", err)
		}
		return nil
	}
}
