package ui

import (
	"net/url"
	"strings"
	"unicode"
)

// urlInfo is what a URL-mode pane shows about its link before consent. The
// URL is never fetched (the MCP spec: not without the person's consent):
// everything here comes from parsing the string.
type urlInfo struct {
	raw string
	// before, host and after split raw so the host can be highlighted.
	before, host, after string
	ok                  bool // parsed with a scheme and a host
	warnings            []string
}

// inspectURL parses raw and lists what should make a person careful.
// serverHost is the host of the server's own endpoint ("" for stdio).
func inspectURL(raw, serverHost string) urlInfo {
	info := urlInfo{raw: raw, before: raw}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Scheme == "" {
		info.warnings = append(info.warnings, "this is not a valid absolute URL; it cannot be opened")
		return info
	}
	info.ok = true
	if i := strings.Index(raw, u.Host); i >= 0 {
		info.before, info.host, info.after = raw[:i], raw[i:i+len(u.Host)], raw[i+len(u.Host):]
	}
	host := strings.ToLower(u.Hostname())
	if !strings.EqualFold(u.Scheme, "https") {
		info.warnings = append(info.warnings, "not https ("+u.Scheme+"): the page is not protected in transit")
	}
	if u.User != nil {
		info.warnings = append(info.warnings, "the URL carries a user name before the host ("+
			u.User.Username()+"@): the real host is "+host)
	}
	for _, label := range strings.Split(host, ".") {
		if strings.HasPrefix(label, "xn--") {
			info.warnings = append(info.warnings, "punycode label "+label+": the name may imitate another one")
			break
		}
	}
	for _, r := range host {
		if r > unicode.MaxASCII {
			info.warnings = append(info.warnings, "the host has non-ASCII letters: it may imitate another name")
			break
		}
	}
	switch sh := strings.ToLower(serverHost); {
	case sh == "":
		info.warnings = append(info.warnings, "the server runs locally; this link goes to "+host)
	case host != sh && !strings.HasSuffix(host, "."+sh):
		info.warnings = append(info.warnings, "the host differs from the server's ("+sh+")")
	}
	return info
}
