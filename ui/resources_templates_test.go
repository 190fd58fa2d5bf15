package ui

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/elicit-dev/elicit/client/wire"
)

// TestExpandTemplateRFC6570: the RFC's examples (§1.2, levels 1–4) as the
// form hands them over (every value a string); an empty field is an
// undefined variable, so its part goes.
func TestExpandTemplateRFC6570(t *testing.T) {
	t.Parallel()
	vals := map[string]any{"var": "value", "hello": "Hello World!", "path": "/foo/bar", "x": "1024", "y": "768", "empty": ""}
	for _, tc := range []struct{ tpl, want string }{
		{"{var}", "value"},                           // level 1
		{"{hello}", "Hello%20World%21"},              // level 1
		{"{+var}", "value"},                          // level 2 reserved
		{"{+hello}", "Hello%20World!"},               // level 2
		{"{+path}/here", "/foo/bar/here"},            // level 2
		{"here?ref={+path}", "here?ref=/foo/bar"},    // level 2
		{"X{#var}", "X#value"},                       // level 2 fragment
		{"X{#hello}", "X#Hello%20World!"},            // level 2
		{"map?{x,y}", "map?1024,768"},                // level 3
		{"{x,hello,y}", "1024,Hello%20World%21,768"}, // level 3
		{"{+x,hello,y}", "1024,Hello%20World!,768"},  // level 3
		{"{#x,hello,y}", "#1024,Hello%20World!,768"}, // level 3
		{"X{.var}", "X.value"},                       // level 3 label
		{"X{.x,y}", "X.1024.768"},                    // level 3
		{"{/var}", "/value"},                         // level 3 path
		{"{/var,x}/here", "/value/1024/here"},        // level 3
		{"{;x,y}", ";x=1024;y=768"},                  // level 3 path params
		{"{;x,y,empty}", ";x=1024;y=768"},            // empty field: undefined, left out
		{"{?x,y}", "?x=1024&y=768"},                  // level 3 query
		{"?fixed=yes{&x}", "?fixed=yes&x=1024"},      // level 3 continuation
		{"{var:3}", "val"},                           // level 4 prefix
		{"{/path:4}", "/%2Ffoo"},                     // level 4
		{"{?x,nothing}", "?x=1024"},                  // an unknown name is undefined
		{"demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/text/"}, // server-everything's, unset
	} {
		tpl, _, err := templateVars(tc.tpl)
		if err != nil {
			t.Errorf("%s: %v", tc.tpl, err)
			continue
		}
		got, err := expandTemplate(tpl, vals)
		if err != nil || got != tc.want {
			t.Errorf("%s = %q, %v; want %q", tc.tpl, got, err, tc.want)
		}
	}
	if _, _, err := templateVars("bad{"); err == nil {
		t.Error(`"bad{" parsed as a template`)
	}
	_, names, _ := templateVars("{/a,b}{?b,c}{#a}")
	if !slices.Equal(names, []string{"a", "b", "c"}) {
		t.Errorf("names %q, want each once in order", names)
	}
}

func withResTemplates(e *fakeEngine) {
	e.rtemplates = map[string][]wire.ResourceTemplate{"demo": {
		{URITemplate: "demo://text/{id}{?lang}", Name: "text", Title: "A text", MimeType: "text/plain", Description: "one text"},
		{URITemplate: "demo://fixed", Name: "fixed"},
	}}
	e.contents["demo://text/7?lang=en"] = []wire.ResourceContents{{URI: "demo://text/7?lang=en", Text: "text seven in en"}}
	e.contents["demo://fixed"] = []wire.ResourceContents{{URI: "demo://fixed", Text: "fixed body"}}
}

// TestResourceTemplateFormExpandsAndReads: templates come after the
// resources, marked; Enter opens a form of the variables, and the
// expanded URI is read in the view's pager.
func TestResourceTemplateFormExpandsAndReads(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, twoServers, withResources, withResTemplates)
		d.keys(keyF9)
		s := d.screen()
		if i, j := strings.Index(s, "file:///long.txt"), strings.Index(s, "template text — A text  demo://text/{id}{?lang}"); i < 0 || j < i {
			t.Fatalf("templates not listed, marked, after the resources:\n%s", s)
		}
		for range 4 {
			d.keys(keyDown)
		}
		d.keys(keyEnter)
		mustShow(t, d, "variables of text", "demo://text/{id}{?lang}", "id", "lang")
		d.typeText("7")
		d.keys(keyEnter)
		d.typeText("en")
		d.keys(keyEnter)
		mustShow(t, d, "resources/read demo://text/7?lang=en", "text seven in en")
		d.keys(keyEsc, keyDown, keyEnter) // a template without variables reads at once
		mustShow(t, d, "resources/read demo://fixed", "fixed body")
		if got := d.eng.reads; !slices.Equal(got, []string{"demo demo://text/7?lang=en", "demo demo://fixed"}) {
			t.Fatalf("reads %q", got)
		}
		// The filter finds templates by their URI template.
		d.keys(keyEsc, key1('/'))
		d.typeText("{?lang}")
		mustShow(t, d, "template text")
		if strings.Contains(d.screen(), "notes — Notes") {
			t.Errorf("the filter kept a resource:\n%s", d.screen())
		}
	})
}

// TestResourceTemplatesListFailureKeepsResources: a server whose
// templates/list fails still shows its resources, and says why.
func TestResourceTemplatesListFailureKeepsResources(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, twoServers, withResources, func(e *fakeEngine) { e.rtemplErr = errors.New("Method not found") })
		d.keys(keyF9)
		mustShow(t, d, "notes — Notes", "resources/templates/list of demo failed: Method not found")
	})
}
