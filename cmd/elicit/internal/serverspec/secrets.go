package serverspec

import (
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/redact"
)

// One set of secrets per run (redact.Secrets): run makes it and hands it
// down on the stderr it passes to every command (a *redact.Writer, which
// masks it in whatever is printed there); headless commands get their
// stdout wrapped the same way (dispatch). What the set holds is added
// where it is known: each server's configured secrets when its transport
// is built (Server.SecretValues), an agent's secret arguments when it starts, and
// everything the OAuth flow gets (transport/oauth). Every sink applies
// it: stdout, stderr, recordings (record.Redact), the traffic frames and
// stderr lines a transport reports (RedactObserver), what the engine
// gives the TUI (cmd/elicit/internal/tui and internal/shown: every
// ui.Engine answer and event, the journal and findings snapshots, the
// questions), a
// replay's comparison.

// SecretsOf is the run's set, carried by its stderr; a writer that is not
// one (a test calling a command directly) gets a set of its own.
func SecretsOf(w io.Writer) *redact.Secrets {
	if rw, ok := w.(*redact.Writer); ok {
		return rw.Secrets()
	}
	return redact.NewSecrets()
}

// SecretValues are the secrets of a server's configuration: the values
// (and a "Scheme credentials" value's credentials) of headers named as
// secrets (Authorization, X-Api-Key, Cookie) or that look like a key,
// environment values named as secrets, the URL's user info and secret
// query values, secret arguments, values the config took from an input
// or a secret variable, the OAuth client secret. A value that is none of
// these ("Accept: application/json", "?tenant=blue") is not masked in
// everything shown: that would blank out ordinary words.
func (spec Server) SecretValues() []string {
	var out []string
	for k, vs := range spec.Header {
		for _, v := range vs {
			if secretName(k) || keyLike(v) {
				out = append(out, v)
			}
		}
	}
	out = append(out, envSecrets(spec.Env)...)
	out = append(out, urlSecrets(spec.URL)...)
	out = append(out, ArgSecrets(spec.Args)...)
	out = append(out, spec.secrets...)
	return append(out, spec.OAuth.ClientSecret)
}

// keyLike reports a value that looks like a key or token: long, one word,
// letters and digits.
func keyLike(v string) bool {
	if len(v) < 16 || strings.ContainsAny(v, " \t") {
		return false
	}
	letter := strings.ContainsFunc(v, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' })
	digit := strings.ContainsFunc(v, func(r rune) bool { return r >= '0' && r <= '9' })
	return letter && digit
}

// secretRef reports whether a config value takes a VS Code input
// (${input:ID}: what a person types there is a key, most often) or a
// variable named as a secret (${GITHUB_TOKEN}): its value is a secret
// whatever the entry it fills is called.
func secretRef(raw string) bool {
	found := false
	os.Expand(raw, func(name string) string {
		if strings.HasPrefix(name, "input:") || secretName(name) {
			found = true
		}
		return ""
	})
	return found
}

// envSecrets are the values of variables named as secrets (API_KEY,
// GITHUB_TOKEN) and the user info of URL values (DATABASE_URL).
func envSecrets(env []string) []string {
	var out []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if secretName(k) {
			out = append(out, v)
		}
		out = append(out, userInfo(v)...)
	}
	return out
}

// urlSecrets are what redact.URL masks of raw: the user info and the
// query values.
func urlSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	out := userInfo(raw)
	for k, vs := range u.Query() {
		for _, v := range vs {
			// A value is masked in every URL shown (redact.URL); in all
			// other text only one named as a secret, or long enough to
			// be a key: "?tenant=blue" must not blank out "blue".
			if secretName(k) || keyLike(v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// userInfo is the password of a URL, and its user name when there is no
// password (a user name alone is often the token itself) or it looks
// like a key.
func userInfo(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return nil
	}
	name := u.User.Username()
	p, ok := u.User.Password()
	if !ok || keyLike(name) {
		return []string{name, p}
	}
	return []string{p}
}

// ArgSecrets are the values MaskArgs masks: "--token X", "--api-key=X",
// "API_KEY=X", "Authorization: Bearer X".
func ArgSecrets(args []string) []string {
	var out []string
	for i, a := range MaskArgs(args) {
		if a == args[i] {
			continue
		}
		if a == Masked {
			out = append(out, args[i])
			continue
		}
		for _, sep := range []string{"=", ":"} {
			if _, v, ok := strings.Cut(args[i], sep); ok {
				out = append(out, strings.TrimSpace(v))
				break
			}
		}
	}
	return out
}

// RedactObserver masks the run's secrets in what a transport reports
// (frames, their errors, stderr lines) before anything sees it: the
// recording, the traffic view and its exports, stderr. A server may echo
// a header it was sent, or a stdio server print its environment.
func RedactObserver(next transport.Observer, sec *redact.Secrets) transport.Observer {
	if next == nil {
		return nil
	}
	return transport.ObserverFuncs{
		OnFrame: func(f transport.Frame) {
			f.Raw = sec.Bytes(f.Raw) // a copy when it changes: Raw is not ours
			f.Err = sec.Error(f.Err)
			if f.HTTP != nil {
				f.HTTP = redactHTTP(f.HTTP, sec)
			}
			next.Frame(f)
		},
		OnStderr: func(line string) { next.Stderr(sec.String(line)) },
	}
}

// redactHTTP is h with the secrets masked in its URL and header values; h
// itself when it holds none (it is the transport's, not to be changed).
func redactHTTP(h *transport.HTTPInfo, sec *redact.Secrets) *transport.HTTPInfo {
	out := *h
	changed := false
	if u := sec.String(h.URL); u != h.URL {
		out.URL, changed = u, true
	}
	cloned := false
	for k, vs := range h.Header {
		for i, v := range vs {
			if r := sec.String(v); r != v {
				if !cloned {
					out.Header, cloned = h.Header.Clone(), true
				}
				out.Header[k][i], changed = r, true
			}
		}
	}
	if !changed {
		return h
	}
	return &out
}
