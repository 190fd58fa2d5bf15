package wire

import (
	"encoding/json"
	"slices"
)

// MCP Apps (SEP-1865, the io.modelcontextprotocol/ui extension): a tool
// names an HTML app in its _meta.ui, and says who may call it.
const (
	// ExtensionApps is the extension's key under capabilities.extensions.
	ExtensionApps = "io.modelcontextprotocol/ui"
	// AppMimeType is the mimeType of an app's ui:// resource, and what a
	// host that renders apps declares it renders.
	AppMimeType = "text/html;profile=mcp-app"
	// metaUILegacyURI is the flat key of the extension's drafts, which
	// servers built on older ext-apps releases still send beside "ui".
	metaUILegacyURI = "ui/resourceUri"
)

// Who may call a tool (_meta.ui.visibility); a tool without the list is
// visible to both.
const (
	VisibilityModel = "model"
	VisibilityApp   = "app"
)

// ToolApp is what a tool's _meta says of its app, read by exact name
// (server text: untrusted).
type ToolApp struct {
	// ResourceURI is the ui:// resource holding the app's HTML.
	ResourceURI string `json:"resourceUri,omitempty"`
	// Visibility is as sent; empty means model and app.
	Visibility []string `json:"visibility,omitempty"`
	// AppOnly is a tool only the app may call: a visibility that leaves
	// out the model. It is not offered as an ordinary call.
	AppOnly bool `json:"appOnly,omitempty"`
}

// App reads the tool's _meta.ui (and the drafts' _meta["ui/resourceUri"]);
// ok is false for a tool that names no app and sets no visibility. A
// malformed _meta names none: it is shown raw, never fails the list.
func (t Tool) App() (app ToolApp, ok bool) {
	if len(t.Meta) == 0 {
		return ToolApp{}, false
	}
	meta, err := ExactMembers(t.Meta)
	if err != nil {
		return ToolApp{}, false
	}
	if s, _, err := ExactString(meta, metaUILegacyURI); err == nil {
		app.ResourceURI = s
	}
	if raw, has := meta["ui"]; has {
		if ui, err := ExactMembers(raw); err == nil {
			if s, _, err := ExactString(ui, "resourceUri"); err == nil && s != "" {
				app.ResourceURI = s
			}
			if v, has := ui["visibility"]; has {
				var vis []string
				if json.Unmarshal(v, &vis) == nil {
					app.Visibility = vis
				}
			}
		}
	}
	if app.ResourceURI == "" && app.Visibility == nil {
		return ToolApp{}, false
	}
	app.AppOnly = app.Visibility != nil && !slices.Contains(app.Visibility, VisibilityModel)
	return app, true
}

// AppVisible reports whether an app may call the tool: its visibility
// lists "app", or it has none (both by default).
func (t Tool) AppVisible() bool {
	app, ok := t.App()
	return !ok || app.Visibility == nil || slices.Contains(app.Visibility, VisibilityApp)
}
