package wire

import (
	"encoding/json"
	"testing"
)

// TestToolApp: _meta.ui is read by exact name ("UI", "ResourceUri" are not
// the members), the drafts' flat key counts, and app-only is a visibility
// without "model".
func TestToolApp(t *testing.T) {
	cases := []struct {
		meta                string
		ok, appOnly, appVis bool
		uri                 string
	}{
		{`{"ui":{"resourceUri":"ui://a"}}`, true, false, true, "ui://a"},
		{`{"ui/resourceUri":"ui://old"}`, true, false, true, "ui://old"},
		{`{"ui":{"resourceUri":"ui://a","visibility":["app"]}}`, true, true, true, "ui://a"},
		{`{"ui":{"visibility":["model"]}}`, true, false, false, ""},
		{`{"UI":{"resourceUri":"ui://a"}}`, false, false, true, ""},
		{`{"ui":{"ResourceUri":"ui://a","Visibility":["app"]}}`, false, false, true, ""},
		{`{"ui":7}`, false, false, true, ""},
		{`[1]`, false, false, true, ""},
	}
	for _, c := range cases {
		tl := Tool{Name: "x", Meta: json.RawMessage(c.meta)}
		app, ok := tl.App()
		if ok != c.ok || app.AppOnly != c.appOnly || app.ResourceURI != c.uri || tl.AppVisible() != c.appVis {
			t.Errorf("%s: App() = %+v, %v; AppVisible %v", c.meta, app, ok, tl.AppVisible())
		}
	}
}
