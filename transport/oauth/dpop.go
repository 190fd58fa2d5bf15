package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
)

// dpopKey is the key a DPoP-bound token is bound to (RFC 9449): ES256 on
// P-256, with the nonces servers asked for, by origin (the authorization
// server and the resource server keep their own).
type dpopKey struct {
	priv *ecdsa.PrivateKey

	mu     sync.Mutex
	nonces map[string]string
}

func newDPoPKey() (*dpopKey, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("dpop key: %w", err)
	}
	return &dpopKey{priv: priv, nonces: map[string]string{}}, nil
}

// parseDPoPKey reads a stored key (PKCS#8 DER).
func parseDPoPKey(der []byte) (*dpopKey, error) {
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("dpop key: %w", err)
	}
	priv, ok := k.(*ecdsa.PrivateKey)
	if !ok || priv.Curve != elliptic.P256() {
		return nil, fmt.Errorf("dpop key: not a P-256 key")
	}
	return &dpopKey{priv: priv, nonces: map[string]string{}}, nil
}

// pkcs8 is the key to store; nil for no key.
func (k *dpopKey) pkcs8() []byte {
	if k == nil {
		return nil
	}
	der, err := x509.MarshalPKCS8PrivateKey(k.priv)
	if err != nil {
		return nil
	}
	return der
}

func (k *dpopKey) nonceFor(u *url.URL) string {
	if k == nil {
		return ""
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.nonces[originKey(u)]
}

func (k *dpopKey) setNonce(u *url.URL, nonce string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.nonces[originKey(u)] = nonce
}

func originKey(u *url.URL) string { return strings.ToLower(u.Scheme + "://" + u.Host) }

// jwk is the public key as a JWK (RFC 7517), members in the order RFC
// 7638's thumbprint wants.
func (k *dpopKey) jwk() map[string]string {
	pub := k.priv.PublicKey
	b, _ := pub.Bytes() // uncompressed point: 0x04 || X || Y
	return map[string]string{
		"crv": "P-256",
		"kty": "EC",
		"x":   b64(b[1:33]),
		"y":   b64(b[33:65]),
	}
}

// proof signs a DPoP proof JWT for one request (RFC 9449 §4.2): a fresh
// jti, the method and the URL without query and fragment, the server's
// nonce if it gave one, and ath (the access token's hash) when the proof
// goes with a token to a resource server.
func (k *dpopKey) proof(method string, u *url.URL, nonce, accessToken string) (string, error) {
	htu := *u
	htu.RawQuery, htu.Fragment, htu.RawFragment = "", "", ""
	claims := map[string]any{
		"jti": rand.Text(),
		"htm": method,
		"htu": htu.String(),
		"iat": time.Now().Unix(),
	}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = b64(sum[:])
	}
	return signES256(k.priv, map[string]any{"typ": "dpop+jwt", "alg": "ES256", "jwk": k.jwk()}, claims)
}

// signES256 builds a compact JWS (RFC 7515) signed with ES256: the
// signature is R || S, 32 bytes each (RFC 7518 §3.4).
func signES256(priv *ecdsa.PrivateKey, header, claims map[string]any) (string, error) {
	signingInput, err := jwsInput(header, claims)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(signingInput))
	r, s, err := ecdsa.Sign(rand.Reader, priv, sum[:])
	if err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return signingInput + "." + b64(sig), nil
}

// signWith signs with any crypto.Signer key the algorithms here take:
// ES256 for P-256, RS256 for RSA.
func signWith(key crypto.Signer, header, claims map[string]any) (string, error) {
	if ec, ok := key.(*ecdsa.PrivateKey); ok {
		return signES256(ec, header, claims)
	}
	signingInput, err := jwsInput(header, claims)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(signingInput))
	sig, err := key.Sign(rand.Reader, sum[:], crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	return signingInput + "." + b64(sig), nil
}

func jwsInput(header, claims map[string]any) (string, error) {
	h, err := json.Marshal(header)
	if err != nil {
		return "", err
	}
	c, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	return b64(h) + "." + b64(c), nil
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
