package findings

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
)

// A form field asks for a secret when its name, title, description or
// format names one: the spec (client/elicitation, "Safe URL mode
// elicitation requests") says servers MUST NOT ask for passwords, API
// keys, access tokens or payment credentials in form mode. Words are
// matched whole, after splitting camelCase and snake_case, so "maxTokens"
// and "secretary" are not secrets, "apiKey" and "github_token" are.
var (
	// secretWords are secrets on their own.
	secretWords = []string{"password", "passwd", "passphrase", "passcode", "secret", "secrets",
		"credential", "credentials", "cvv", "cvc", "otp", "totp", "mfa", "2fa"}
	// secretPairs are secrets as two words in a row.
	secretPairs = [][2]string{{"api", "key"}, {"api", "keys"}, {"access", "key"}, {"private", "key"},
		{"secret", "key"}, {"card", "number"}, {"credit", "card"}, {"security", "code"},
		{"client", "secret"}, {"pin", "code"}, {"one", "time"}}
	// tokenKinds are the words before "token" that make it a credential
	// in prose ("an access token"), where "token" alone may count words.
	tokenKinds = []string{"api", "access", "auth", "bearer", "refresh", "personal", "github", "gitlab",
		"session", "oauth", "id", "slack", "npm", "pat", "jwt", "secret", "security"}
)

// Secret reports whether a form field named name, with title, description
// and format, asks for a secret, and which words said so.
func Secret(name, title, description, format string) (why string, ok bool) {
	if f := strings.ToLower(format); f == "password" {
		return `format "password"`, true
	}
	for _, c := range []struct {
		what, text string
		bare       bool // "token" alone counts (a name, a title), not in prose
	}{{"name", name, true}, {"title", title, true}, {"description", description, false}} {
		if w, ok := secretIn(words(c.text), c.bare); ok {
			return c.what + " says " + w, true
		}
	}
	return "", false
}

// secretIn finds a secret among ws.
func secretIn(ws []string, bare bool) (string, bool) {
	for i, w := range ws {
		if slices.Contains(secretWords, w) {
			return `"` + w + `"`, true
		}
		if i > 0 {
			for _, p := range secretPairs {
				if ws[i-1] == p[0] && w == p[1] {
					return `"` + p[0] + " " + p[1] + `"`, true
				}
			}
		}
		if w == "token" || w == "tokens" {
			if i > 0 && slices.Contains(tokenKinds, ws[i-1]) {
				return `"` + ws[i-1] + " " + w + `"`, true
			}
			if bare && (i == 0 || ws[i-1] != "max") && !slices.Contains(ws, "count") && !slices.Contains(ws, "limit") {
				return `"` + w + `"`, true
			}
		}
	}
	return "", false
}

// words splits s into lower-case words at spaces, punctuation, underscores
// and lower-to-upper case changes ("apiKey" → api, key).
func words(s string) []string {
	var out []string
	var cur []rune
	var prev rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// SecretFields returns, for a requestedSchema as sent, each top-level
// property that asks for a secret and why, sorted by name. A schema that
// is not an object of properties has none.
func SecretFields(requestedSchema []byte) [][2]string {
	var s struct {
		Properties map[string]struct {
			Title       string `json:"title"`
			Description string `json:"description"`
			Format      string `json:"format"`
		} `json:"properties"`
	}
	if json.Unmarshal(requestedSchema, &s) != nil {
		return nil
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	var out [][2]string
	for _, n := range names {
		p := s.Properties[n]
		if why, ok := Secret(n, p.Title, p.Description, p.Format); ok {
			out = append(out, [2]string{n, why})
		}
	}
	return out
}
