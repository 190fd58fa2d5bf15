package apphost

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/elicit-dev/elicit/client/wire"
)

// CSP is what an app's resource declares in _meta.ui.csp: the origins it
// may reach beyond its own document.
type CSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// cspOf reads _meta.ui.csp of the resource's content by exact name; a
// malformed one declares nothing (the strictest policy).
func cspOf(meta json.RawMessage) CSP {
	var c CSP
	m, err := wire.ExactMembers(meta)
	if err != nil {
		return c
	}
	ui, err := wire.ExactMembers(m["ui"])
	if err != nil {
		return c
	}
	csp, err := wire.ExactMembers(ui["csp"])
	if err != nil {
		return c
	}
	list := func(name string) []string {
		var l []string
		if raw, ok := csp[name]; ok && json.Unmarshal(raw, &l) != nil {
			return nil
		}
		return l
	}
	c.ConnectDomains = list("connectDomains")
	c.ResourceDomains = list("resourceDomains")
	c.FrameDomains = list("frameDomains")
	c.BaseURIDomains = list("baseUriDomains")
	return c
}

// origin is what a declared domain may be: a scheme, a host (a leading
// "*." allowed) and a port; nothing that could end or add a directive.
var originRE = regexp.MustCompile(`^(https?|wss?)://(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?$`)

// sources keeps the declared origins that are origins.
func sources(domains []string) []string {
	var out []string
	for _, d := range domains {
		if originRE.MatchString(d) {
			out = append(out, d)
		}
	}
	return out
}

// Header is the Content-Security-Policy the app's document is served
// with: inline script and style (an app is one HTML document), nothing
// of the host's origin (the page and its token are not the app's to
// reach), and only the origins the resource declared for the rest.
func (c CSP) Header() string {
	res := sources(c.ResourceDomains)
	dir := func(name string, base []string, extra []string) string {
		all := append(append([]string{}, base...), extra...)
		if len(all) == 0 {
			all = []string{"'none'"}
		}
		return name + " " + strings.Join(all, " ")
	}
	return strings.Join([]string{
		"default-src 'none'",
		dir("script-src", []string{"'unsafe-inline'"}, res),
		dir("style-src", []string{"'unsafe-inline'"}, res),
		dir("img-src", []string{"data:"}, res),
		dir("font-src", []string{"data:"}, res),
		dir("media-src", []string{"data:"}, res),
		dir("connect-src", nil, sources(c.ConnectDomains)),
		dir("frame-src", nil, sources(c.FrameDomains)),
		dir("base-uri", nil, sources(c.BaseURIDomains)),
		"form-action 'none'",
	}, "; ")
}
