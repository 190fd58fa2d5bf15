package redact

import (
	"errors"
	"net/url"
	"slices"
	"strings"
)

// masked stands for a value left out of a URL.
const masked = "…"

// URL keeps what says where a URL goes (scheme, host, path, the
// names of its query parameters) and masks the rest: the user info (a
// user name alone is often the token itself), query values, the fragment.
// People put API keys in query strings; the request carries them to the
// origin, but frames, errors and anything printed show this form.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a URL that does not parse)"
	}
	if u.User != nil {
		u.User = url.User(masked)
	}
	if u.RawQuery != "" {
		q := u.Query()
		names := make([]string, 0, len(q))
		for k := range q {
			names = append(names, url.QueryEscape(k)+"="+masked)
		}
		slices.Sort(names)
		u.RawQuery = strings.Join(names, "&")
	}
	u.Fragment, u.RawFragment = "", ""
	s := u.String()
	// String escapes the mask; show it plain.
	return strings.ReplaceAll(s, url.QueryEscape(masked), masked)
}

// Error redacts, in place, the URL of the *url.Error in err's chain
// (net/http's errors quote the whole request URL) and returns err. It is
// meant for an error just returned by an http.Client, which no one else
// holds yet; the chain is kept, so errors.Is and errors.As still work.
func Error(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = URL(ue.URL)
	}
	return err
}
