package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testenv"
)

// appsServer is the command of the MCP Apps server on the TypeScript SDK
// and @modelcontextprotocol/ext-apps' server helpers
// (testdata/apps-server.mjs), or why it cannot run here.
func appsServer(t *testing.T) []string {
	t.Helper()
	sdk := testenv.Getenv(t, "ELICIT_TS_SDK", "the @modelcontextprotocol/sdk folder")
	apps := testenv.Getenv(t, "ELICIT_EXT_APPS", "the @modelcontextprotocol/ext-apps folder")
	node := testenv.LookPath(t, "node")
	script, err := filepath.Abs(filepath.Join("testdata", "apps-server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	return []string{node, script, sdk, apps}
}

// TestToolsNameTheApp: elicit tools prints what each tool's _meta says of
// its MCP App — the ui:// resource, the visibility, and appOnly for a tool
// only the app may call — for a server built with ext-apps' helpers.
func TestToolsNameTheApp(t *testing.T) {
	t.Parallel()
	code, out, errs := runBinary(t, append([]string{"tools", "--"}, appsServer(t)...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Tools []struct {
			Name string `json:"name"`
			App  *struct {
				ResourceURI string   `json:"resourceUri"`
				Visibility  []string `json:"visibility"`
				AppOnly     bool     `json:"appOnly"`
			} `json:"app"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	apps := map[string]string{}
	for _, tl := range got.Tools {
		if tl.App == nil {
			t.Fatalf("tool %s: no app in %s", tl.Name, out)
		}
		apps[tl.Name] = tl.App.ResourceURI + " " + strings.Join(tl.App.Visibility, ",") + " " + map[bool]string{true: "app-only", false: "offered"}[tl.App.AppOnly]
	}
	want := map[string]string{
		"counter":   "ui://counter/app.html  offered",
		"increment": "ui://counter/app.html app app-only",
	}
	for name, w := range want {
		if apps[name] != w {
			t.Errorf("%s: app %q, want %q", name, apps[name], w)
		}
	}
}

// TestReadAppResource: elicit read ui://… prints the app's HTML, with the
// extension's mimeType.
func TestReadAppResource(t *testing.T) {
	t.Parallel()
	code, out, errs := runBinary(t, append([]string{"read", "ui://counter/app.html", "--"}, appsServer(t)...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Contents []struct {
			URI, MimeType, Text string
		} `json:"contents"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got.Contents) != 1 || got.Contents[0].MimeType != "text/html;profile=mcp-app" ||
		!strings.Contains(got.Contents[0].Text, `<button id="inc">increment</button>`) {
		t.Fatalf("contents: %.400s", out)
	}
}
