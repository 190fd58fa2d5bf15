package demo_test

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPaletteApp: palette names its app and stays useful to a client that
// does not declare MCP Apps (this one declares nothing): its text lists the
// colours; pick_colour is app-only and answers by its argument; the ui://
// resource is the app's HTML under the extension's mimeType.
func TestPaletteApp(t *testing.T) {
	t.Parallel()
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			cs := connect(t, kind, nil, nil, pinned)
			tools, err := cs.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			vis := map[string]string{}
			for _, tool := range tools.Tools {
				ui, _ := tool.Meta["ui"].(map[string]any)
				if ui == nil {
					continue
				}
				if ui["resourceUri"] != demo.PaletteAppURI {
					t.Errorf("%s: resourceUri %v, want %s", tool.Name, ui["resourceUri"], demo.PaletteAppURI)
				}
				var who []string
				list, _ := ui["visibility"].([]any)
				for _, v := range list {
					s, _ := v.(string)
					who = append(who, s)
				}
				vis[tool.Name] = strings.Join(who, ",")
			}
			if vis["palette"] != "model,app" || vis["pick_colour"] != "app" || len(vis) != 2 {
				t.Errorf("tools with an app and their visibility: %v", vis)
			}
			if got := okText(t, cs, "palette", map[string]any{}); got != "colours: red, teal, amber" {
				t.Errorf("palette's text = %q", got)
			}
			if got := okText(t, cs, "pick_colour", map[string]any{"colour": "teal"}); got != "you picked teal" {
				t.Errorf("pick_colour teal = %q", got)
			}
			bad := call(t, cs, "pick_colour", map[string]any{"colour": "mauve"})
			if !bad.IsError || !strings.Contains(textOf(t, bad), "mauve") {
				t.Errorf("pick_colour mauve = %+v, want a tool error naming it", bad)
			}
			res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: demo.PaletteAppURI})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Contents) != 1 || res.Contents[0].MIMEType != "text/html;profile=mcp-app" ||
				!strings.Contains(res.Contents[0].Text, `"ui/initialize"`) || !strings.Contains(res.Contents[0].Text, `"pick_colour"`) {
				t.Errorf("the app's resource = %+v", res.Contents)
			}
		})
	}
}
