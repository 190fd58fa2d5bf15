package oauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// Grant is a way to get a token with no person in the loop: the auth
// extensions (client credentials, workload identity JWT bearer,
// enterprise-managed authorization). A failed grant is not tried again
// by itself: the error is the answer (the extensions say so).
type Grant interface {
	grant(ctx context.Context, f *flow, d *discovered, scopes []string) (*grantResult, error)
	// secrets are the configured secrets it sends (secrets.go).
	secrets() []string
}

// Grant types of the extensions.
const (
	grantClientCredentials = "client_credentials"
	grantJWTBearer         = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	clientAssertionType    = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
)

// ClientCredentials is the OAuth client credentials grant (the
// io.modelcontextprotocol/oauth-client-credentials extension): the client
// authenticates with its secret (client_secret_basic or _post, as the
// server lists), or with a JWT signed by Key (private_key_jwt, RFC 7523
// §2.2), and gets a token for itself.
type ClientCredentials struct {
	ClientID     string
	ClientSecret string
	// Key signs the client assertion instead of a secret (ES256 for a
	// P-256 key, RS256 for RSA).
	Key crypto.Signer
}

// ParsePrivateKey reads a PEM private key (PKCS#8, or SEC 1 / PKCS#1)
// for ClientCredentials.Key.
func ParsePrivateKey(pemText []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(pemText)
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	var k any
	var err error
	switch block.Type {
	case "EC PRIVATE KEY":
		k, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		k, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		k, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	}
	if err != nil {
		return nil, fmt.Errorf("private key: %w", err)
	}
	switch k := k.(type) {
	case *ecdsa.PrivateKey:
		if k.Curve != elliptic.P256() {
			return nil, errors.New("private key: an EC key must be on P-256 (ES256)")
		}
		return k, nil
	case *rsa.PrivateKey:
		return k, nil
	}
	return nil, fmt.Errorf("private key of type %T: want a P-256 EC key (ES256) or an RSA key (RS256)", k)
}

func (g *ClientCredentials) grant(ctx context.Context, f *flow, d *discovered, scopes []string) (*grantResult, error) {
	cfg := &clientcredentials.Config{
		ClientID:       g.ClientID,
		ClientSecret:   g.ClientSecret,
		TokenURL:       d.asm.TokenEndpoint,
		Scopes:         scopes,
		EndpointParams: map[string][]string{"resource": {d.resource}},
		AuthStyle:      oauth2.AuthStyleInParams,
	}
	method := secretMethod(d.asm.TokenEndpointAuthMethodsSupported)
	client := Client{Kind: "preregistered", ClientID: g.ClientID, AuthMethod: method}
	switch {
	case g.Key != nil:
		// A fresh assertion per request: a signed JWT expires.
		assertion, err := clientAssertion(g.Key, g.ClientID, d.asm.Issuer)
		if err != nil {
			return nil, err
		}
		f.hold(assertion)
		cfg.ClientSecret = ""
		cfg.EndpointParams.Set("client_assertion_type", clientAssertionType)
		cfg.EndpointParams.Set("client_assertion", assertion)
		client.AuthMethod = "private_key_jwt"
	case method == "client_secret_basic":
		cfg.AuthStyle = oauth2.AuthStyleInHeader
	}
	tc, key, err := f.tokenContext(ctx, d, f.dpop)
	if err != nil {
		return nil, err
	}
	f.logf("client credentials grant at %s", d.asm.TokenEndpoint)
	tok, err := cfg.Token(tc)
	if err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "client credentials", Err: tokenError(err)}
	}
	return &grantResult{d: d, client: client, token: tok, scopes: scopes, dpop: key.pkcs8()}, nil
}

// clientAssertion is a private_key_jwt client assertion (RFC 7523 §3):
// iss and sub the client, aud the authorization server's issuer, short
// lived, with a unique jti.
func clientAssertion(key crypto.Signer, clientID, audience string) (string, error) {
	now := time.Now()
	claims := map[string]any{
		"iss": clientID, "sub": clientID, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(time.Minute).Unix(), "jti": rand.Text(),
	}
	return signWith(key, map[string]any{"alg": algOf(key), "typ": "JWT"}, claims)
}

func algOf(key crypto.Signer) string {
	if _, ok := key.(*ecdsa.PrivateKey); ok {
		return "ES256"
	}
	return "RS256"
}

// JWTBearer is the RFC 7523 JWT bearer grant with a workload's identity
// token (the io.modelcontextprotocol/auth/wif extension): Assertion is
// read afresh for each token request (a token file is rotated by its
// platform). The client is public (auth method none) unless a secret is
// given.
type JWTBearer struct {
	ClientID     string
	ClientSecret string
	Assertion    func() (string, error)
}

func (g *JWTBearer) grant(ctx context.Context, f *flow, d *discovered, scopes []string) (*grantResult, error) {
	assertion, err := g.Assertion()
	if err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "jwt bearer", Err: fmt.Errorf("read the assertion: %w", err)}
	}
	f.hold(assertion)
	method := "none"
	if g.ClientSecret != "" {
		method = secretMethod(d.asm.TokenEndpointAuthMethodsSupported)
	}
	c := Client{Kind: "preregistered", ClientID: g.ClientID, ClientSecret: g.ClientSecret, AuthMethod: method}
	tok, key, err := f.jwtBearer(ctx, d, c, assertion, scopes)
	if err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "jwt bearer", Err: err}
	}
	return &grantResult{d: d, client: c, token: tok, scopes: scopes, dpop: key.pkcs8()}, nil
}

// jwtBearer posts grant_type=jwt-bearer with the assertion, the resource
// and the scope, the client authenticating as c says.
func (f *flow) jwtBearer(ctx context.Context, d *discovered, c Client, assertion string, scopes []string) (*oauth2.Token, *dpopKey, error) {
	cfg := oauth2Config(d, c, "", nil)
	opts := []oauth2.AuthCodeOption{
		oauth2.SetAuthURLParam("grant_type", grantJWTBearer),
		oauth2.SetAuthURLParam("assertion", assertion),
		oauth2.SetAuthURLParam("resource", d.resource),
	}
	if len(scopes) > 0 {
		opts = append(opts, oauth2.SetAuthURLParam("scope", strings.Join(scopes, " ")))
	}
	tc, key, err := f.tokenContext(ctx, d, f.dpop)
	if err != nil {
		return nil, nil, err
	}
	f.logf("jwt bearer grant at %s", d.asm.TokenEndpoint)
	// x/oauth2 has no JWT bearer grant of its own; Exchange with the
	// grant_type replaced is how go-sdk's oauthex.ExchangeToken sends its
	// token exchange too (an empty code, which servers ignore).
	tok, err := cfg.Exchange(tc, "", opts...)
	if err != nil {
		return nil, nil, tokenError(err)
	}
	return tok, key, nil
}

// Enterprise is enterprise-managed authorization (SEP-990, the
// io.modelcontextprotocol/enterprise-managed-authorization extension):
// the person's identity token from their enterprise IdP is exchanged at
// the IdP (RFC 8693) for an ID-JAG for this server's authorization
// server, which the client then presents in a JWT bearer grant.
type Enterprise struct {
	// IdPTokenEndpoint, IdPClientID, IdPClientSecret: the IdP and the
	// client's credentials there.
	IdPTokenEndpoint string
	IdPClientID      string
	IdPClientSecret  string
	// IDToken is the person's ID token from the IdP, read afresh.
	IDToken func() (string, error)
	// ClientID and ClientSecret: the client at the MCP authorization
	// server.
	ClientID     string
	ClientSecret string
}

func (g *Enterprise) grant(ctx context.Context, f *flow, d *discovered, scopes []string) (*grantResult, error) {
	idToken, err := g.IDToken()
	if err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "token exchange", Err: fmt.Errorf("read the ID token: %w", err)}
	}
	f.hold(idToken)
	if err := checkEndpoint(g.IdPTokenEndpoint); err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "token exchange", Err: err}
	}
	creds := &oauthex.ClientCredentials{ClientID: g.IdPClientID}
	if g.IdPClientSecret != "" {
		creds.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: g.IdPClientSecret}
	}
	f.logf("token exchange at %s", g.IdPTokenEndpoint)
	jag, err := oauthex.ExchangeToken(ctx, g.IdPTokenEndpoint, &oauthex.TokenExchangeRequest{
		RequestedTokenType: oauthex.TokenTypeIDJAG,
		Audience:           d.asm.Issuer,
		Resource:           d.resource,
		Scope:              scopes,
		SubjectToken:       idToken,
		SubjectTokenType:   oauthex.TokenTypeIDToken,
	}, creds, f.http())
	if err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "token exchange", Err: tokenError(err)}
	}
	f.hold(jag.AccessToken)
	method := "none"
	if g.ClientSecret != "" {
		method = secretMethod(d.asm.TokenEndpointAuthMethodsSupported)
	}
	c := Client{Kind: "preregistered", ClientID: g.ClientID, ClientSecret: g.ClientSecret, AuthMethod: method}
	tok, key, err := f.jwtBearer(ctx, d, c, jag.AccessToken, scopes)
	if err != nil {
		return nil, &Error{Resource: f.cfg.Resource, Step: "jwt bearer", Err: err}
	}
	return &grantResult{d: d, client: c, token: tok, scopes: scopes, dpop: key.pkcs8()}, nil
}
