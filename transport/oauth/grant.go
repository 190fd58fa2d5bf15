package oauth

import "context"

// Grant is a way to get a token with no person in the loop (the auth
// extensions: client credentials, JWT bearer, enterprise-managed
// authorization). grants.go has the implementations.
type Grant interface {
	grant(ctx context.Context, f *flow, d *discovered, scopes []string) (*grantResult, error)
}
