package demo

import (
	"context"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The palette scene: an MCP App (SEP-1865). palette names its app in
// _meta.ui.resourceUri; pick_colour is called by that app only.
const (
	PaletteAppURI = "ui://demo/palette.html"
	appMimeType   = "text/html;profile=mcp-app"
)

// colours are the ones the app offers (a function: no package state).
func colours() []string { return []string{"red", "teal", "amber"} }

// pickArgs are pick_colour's arguments.
type pickArgs struct {
	Colour string `json:"colour" jsonschema:"one of red, teal, amber"`
}

// addPalette registers palette, the app-only pick_colour and the app's
// ui:// resource. palette's text content is what clients without the
// extension get; a host renders the app and hands it the same result.
func addPalette(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "palette",
		Title:       "Pick a colour (MCP App)",
		Description: "Opens an MCP App to pick a colour; without an app host it lists the colours.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
		Meta: mcp.Meta{"ui": map[string]any{
			"resourceUri": PaletteAppURI,
			"visibility":  []string{"model", "app"},
		}},
	}, func(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return text("colours: %s", strings.Join(colours(), ", ")), nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "pick_colour",
		Title:       "Pick a colour",
		Description: "Called by the palette app's buttons: says which colour was picked.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
		Meta: mcp.Meta{"ui": map[string]any{
			"resourceUri": PaletteAppURI,
			"visibility":  []string{"app"},
		}},
	}, func(_ context.Context, _ *mcp.CallToolRequest, in pickArgs) (*mcp.CallToolResult, any, error) {
		if !slices.Contains(colours(), in.Colour) {
			res := text("no colour %q here: pick one of %s", in.Colour, strings.Join(colours(), ", "))
			res.IsError = true
			return res, nil, nil
		}
		return text("you picked %s", in.Colour), nil, nil
	})
	srv.AddResource(&mcp.Resource{
		URI:         PaletteAppURI,
		Name:        "palette app",
		Title:       "The palette tool's MCP App",
		Description: "A self-contained HTML page that speaks the app side of MCP Apps.",
		MIMEType:    appMimeType,
	}, func(_ context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: PaletteAppURI, MIMEType: appMimeType, Text: paletteHTML,
		}}}, nil
	})
}
