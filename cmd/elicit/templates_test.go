package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
)

// TestTemplatesEmptyIsAList: a server without templates prints
// "resourceTemplates": [], not nothing (the same for resources and
// prompts), so a script reads an empty list rather than a missing member.
func TestTemplatesEmptyIsAList(t *testing.T) {
	for _, out := range []*headless.ReadOutput{
		{Templates: []wire.ResourceTemplate{}},
		{Resources: []wire.Resource{}},
		{Prompts: []wire.Prompt{}},
	} {
		var b bytes.Buffer
		if err := headless.WriteJSON(&b, out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), ": []") {
			t.Errorf("an empty list is not printed:\n%s", b.String())
		}
	}
}

// TestTemplatesUnsupported: a server that declares resources but does not
// answer resources/templates/list fails the command with exit 4 and
// failure JSON naming the method. (One that did not declare resources is
// not asked: TestHeadlessListsOfUndeclaredCapability.)
func TestTemplatesUnsupported(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "templates", "--", "env", testServerEnv+"=resources-refused", self)
	var got struct {
		Failure *exit.Failure `json:"failure"`
	}
	if json.Unmarshal([]byte(out), &got) != nil || got.Failure == nil || code != exit.ToolError ||
		!strings.Contains(got.Failure.Message, "resources/templates/list") {
		t.Errorf("exit %d, stdout %s", code, out)
	}
}

// TestEverythingTemplates lists server-everything's resource templates
// (when it is installed: see everythingCommand).
func TestEverythingTemplates(t *testing.T) {
	cmdline := everythingCommand(t)
	code, out, errs := runCLI(t, append([]string{"templates", "--"}, cmdline...)...)
	var got struct {
		Templates []wire.ResourceTemplate `json:"resourceTemplates"`
	}
	if code != exit.OK || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("exit %d, stderr %q, stdout %s", code, errs, out)
	}
	found := false
	for _, tp := range got.Templates {
		found = found || strings.Contains(tp.URITemplate, "{resourceId}")
	}
	if !found {
		t.Errorf("no {resourceId} template in %+v", got.Templates)
	}
}
