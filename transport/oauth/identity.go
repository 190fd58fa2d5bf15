package oauth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Client identity, in the spec's order of preference (2025-11-25 and
// 2026-07-28 "Client Registration"): pre-registered credentials, a client
// ID metadata document, dynamic registration. go-sdk's
// AuthorizationCodeHandler tries the metadata document first and keeps
// no registration, which is why this is not it.

// identity picks the client for d's authorization server. redirect is the
// callback listener's URI (for a registration); a stored dynamic
// registration is reused when it lists it. The registration, if any, is
// returned to be stored once the flow succeeds: nothing is kept for a
// flow that fails.
func (f *flow) identity(ctx context.Context, d *discovered, rec *Record, redirect string) (Client, error) {
	issuer := d.asm.Issuer
	if f.cfg.ClientID != "" {
		// Pre-registered credentials are bound to the issuer they were
		// first used with (2026-07-28 "Authorization Server Binding").
		for iss, c := range rec.Clients {
			if c.Kind == "preregistered" && iss != issuer {
				return Client{}, fmt.Errorf("%w: they were used with %s, and the server now names %s; "+
					"log out (elicit auth logout) if the server really moved", ErrClientIssuer, iss, issuer)
			}
		}
		method := "none"
		if f.cfg.ClientSecret != "" {
			method = secretMethod(d.asm.TokenEndpointAuthMethodsSupported)
		}
		return Client{Kind: "preregistered", ClientID: f.cfg.ClientID, ClientSecret: f.cfg.ClientSecret, AuthMethod: method}, nil
	}
	if f.cfg.ClientMetadataURL != "" && d.asm.ClientIDMetadataDocumentSupported {
		return Client{Kind: "metadata", ClientID: f.cfg.ClientMetadataURL, AuthMethod: "none"}, nil
	}
	if c, ok := rec.Clients[issuer]; ok && c.Kind == "dynamic" && contains(c.RedirectURIs, redirect) {
		return c, nil
	}
	if d.asm.RegistrationEndpoint == "" {
		return Client{}, fmt.Errorf("%w: %s offers no dynamic registration%s; configure a client ID (--client-id, or \"oauth\": {\"clientId\": …})",
			ErrNoClient, issuer, cimdNote(d.asm.ClientIDMetadataDocumentSupported))
	}
	return f.register(ctx, d, redirect)
}

func cimdNote(supported bool) string {
	if supported {
		return " (it takes client ID metadata documents: set clientMetadataUrl)"
	}
	return ""
}

// register asks for a client by RFC 7591 (oauthex.RegisterClient).
func (f *flow) register(ctx context.Context, d *discovered, redirect string) (Client, error) {
	method := "none"
	if sup := d.asm.TokenEndpointAuthMethodsSupported; len(sup) > 0 && !contains(sup, "none") {
		method = secretMethod(sup)
	}
	name := f.cfg.ClientName
	if name == "" {
		name = "elicit"
	}
	meta := &oauthex.ClientRegistrationMetadata{
		ClientName:              name,
		RedirectURIs:            []string{redirect},
		GrantTypes:              []string{"authorization_code", "refresh_token"},
		ResponseTypes:           []string{"code"},
		TokenEndpointAuthMethod: method,
		// A terminal program on the person's machine (2026-07-28: clients
		// MUST say which; SEP-837).
		ApplicationType: "native",
	}
	f.logf("registering at %s", d.asm.RegistrationEndpoint)
	resp, err := oauthex.RegisterClient(ctx, d.asm.RegistrationEndpoint, meta, f.http())
	if err != nil {
		var re *oauthex.ClientRegistrationError
		if errors.As(err, &re) {
			return Client{}, fmt.Errorf("%w: %s: %s", ErrRegistration, re.ErrorCode, re.ErrorDescription)
		}
		return Client{}, fmt.Errorf("%w: %v", ErrRegistration, err)
	}
	got := resp.TokenEndpointAuthMethod
	switch {
	case got != "":
	case resp.ClientSecret != "":
		got = "client_secret_basic" // RFC 7591 §2's default
	default:
		got = "none"
	}
	return Client{
		Kind: "dynamic", ClientID: resp.ClientID, ClientSecret: resp.ClientSecret,
		AuthMethod: got, RedirectURIs: []string{redirect}, Registered: time.Now().UTC(),
	}, nil
}

// secretMethod is how a client with a secret authenticates where the
// server lists sup: client_secret_basic (RFC 6749 §2.3.1: every server
// supports it, and it is the default when nothing is listed), else
// client_secret_post.
func secretMethod(sup []string) string {
	if len(sup) == 0 || contains(sup, "client_secret_basic") || !contains(sup, "client_secret_post") {
		return "client_secret_basic"
	}
	return "client_secret_post"
}
