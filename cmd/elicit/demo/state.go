package demo

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Limits on the requestState a tool hands out between MRTR rounds.
const (
	// stateTTL is how long a requestState stays valid: long enough for a
	// person to fill in a form, short enough that stale states die.
	stateTTL = time.Hour
	// maxRounds bounds the rounds of one call, so neither a client nor a
	// buggy tool can loop forever.
	maxRounds = 16
	// stateFormat versions the payload, so a future layout is refused
	// cleanly rather than misread.
	stateFormat = 1
	// maxStateLen bounds what open will decode; demo states are far smaller.
	maxStateLen = 64 << 10
)

// errStateRefused is wrapped by every requestState rejection, so tests and
// callers can tell them from other tool errors.
var errStateRefused = errors.New("requestState refused")

// stateCodec seals and opens the requestState of multi-round tools. A
// stateless server keeps nothing between the rounds of a call, so what a
// later round needs (an earlier answer) travels with the client; the HMAC
// makes sure the client hands back exactly what it was given.
//
// The format is base64url(JSON payload) "." base64url(HMAC-SHA256). It is
// readable, not secret: the demo carries nothing confidential in it.
type stateCodec struct {
	key []byte
}

// newStateCodec returns a codec with a fresh random key. Each server gets its
// own, so states die with the server that issued them.
func newStateCodec() stateCodec {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // crypto/rand.Read never fails (it crashes the program instead)
	return stateCodec{key: key}
}

// statePayload is what a requestState carries.
type statePayload struct {
	Format int    `json:"f"`
	Tool   string `json:"tool"`
	// Args is the digest of the call's arguments: a state is only good for
	// the call that received it (mrtr.mdx: no cross-use).
	Args string `json:"args"`
	// Round is the round that issued the state, 1-based.
	Round int `json:"round"`
	// Issued is when, in Unix seconds.
	Issued int64 `json:"iat"`
	// Data is the tool's own payload.
	Data json.RawMessage `json:"data,omitempty"`
}

var b64 = base64.RawURLEncoding

func (c stateCodec) mac(body []byte) []byte {
	m := hmac.New(sha256.New, c.key)
	m.Write(body) // a hash.Hash never returns an error
	return m.Sum(nil)
}

// seal encodes and signs p.
func (c stateCodec) seal(p statePayload) (string, error) {
	body, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("encoding requestState: %w", err)
	}
	return b64.EncodeToString(body) + "." + b64.EncodeToString(c.mac(body)), nil
}

// open checks that s was sealed by this codec for this tool and these
// arguments, less than stateTTL before now, and returns its payload.
func (c stateCodec) open(s, tool, args string, now time.Time) (statePayload, error) {
	var p statePayload
	if len(s) > maxStateLen {
		return p, fmt.Errorf("%w: it is %d bytes long, more than this server ever issues", errStateRefused, len(s))
	}
	body64, sig64, ok := strings.Cut(s, ".")
	body, err1 := b64.DecodeString(body64)
	sig, err2 := b64.DecodeString(sig64)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(sig, c.mac(body)) {
		return p, fmt.Errorf("%w: it was not issued by this server, or it was changed on the way back "+
			"(or the server restarted since); echo requestState exactly, or call the tool afresh without it", errStateRefused)
	}
	if err := json.Unmarshal(body, &p); err != nil || p.Format != stateFormat {
		return p, fmt.Errorf("%w: unknown format", errStateRefused)
	}
	switch age := now.Sub(time.Unix(p.Issued, 0)); {
	case p.Tool != tool:
		return p, fmt.Errorf("%w: it was issued for the tool %q, not %q", errStateRefused, p.Tool, tool)
	case p.Args != args:
		return p, fmt.Errorf("%w: it was issued for a call with other arguments", errStateRefused)
	case age > stateTTL:
		return p, fmt.Errorf("%w: it expired (issued %s ago, valid for %s); call the tool afresh", errStateRefused,
			age.Round(time.Second), stateTTL)
	case p.Round < 1 || p.Round >= maxRounds:
		return p, fmt.Errorf("%w: the call went through %d rounds, the most this server allows is %d", errStateRefused, p.Round, maxRounds)
	}
	return p, nil
}

// argsDigest identifies a call's arguments as the tool decoded them, so
// that formatting differences between rounds do not matter.
func argsDigest(in any) (string, error) {
	raw, err := json.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("encoding the arguments: %w", err)
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:16]), nil
}
