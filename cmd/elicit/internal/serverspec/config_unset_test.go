package serverspec

import (
	"os"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

func TestConfigVariablesEverywhere(t *testing.T) {
	t.Setenv("ELICIT_TEST_SET_X", "x1")
	t.Setenv("ELICIT_TEST_UNSET_Y", "")
	if err := os.Unsetenv("ELICIT_TEST_UNSET_Y"); err != nil {
		t.Fatal(err)
	}
	p := writeFile(t, t.TempDir(), "mcp.json", `{"mcpServers": {
		"set": {"command": "/bin/${ELICIT_TEST_SET_X}", "args": ["--k=${ELICIT_TEST_SET_X}", "print $x"], "cwd": "/tmp/${ELICIT_TEST_SET_X}"},
		"url": {"url": "https://h.example/${ELICIT_TEST_SET_X}/mcp"},
		"badarg": {"command": "srv", "args": ["--token", "${ELICIT_TEST_UNSET_Y}"]},
		"badurl": {"url": "https://h.example/${ELICIT_TEST_UNSET_Y}"},
		"badcmd": {"command": "${ELICIT_TEST_UNSET_Y}/srv"}}}`)
	cfg, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Server{}
	for _, s := range cfg.Servers {
		got[s.Name] = s
	}
	if s := got["set"]; s.Broken != nil || s.Command != "/bin/x1" || strings.Join(s.Args, "|") != "--k=x1|print $x" || s.Dir != "/tmp/x1" {
		t.Errorf("set: %+v", s)
	}
	if s := got["url"]; s.Broken != nil || s.URL != "https://h.example/x1/mcp" {
		t.Errorf("url: %+v", s)
	}
	for name, where := range map[string]string{"badarg": "args[1]", "badurl": "url", "badcmd": "command"} {
		s := got[name]
		if s.Broken == nil || exit.CodeOf(s.Broken) != exit.Connect || !strings.Contains(s.Broken.Error(), where+": ${ELICIT_TEST_UNSET_Y} is not set") {
			t.Errorf("%s: broken = %v, want exit %d naming %s and the variable", name, s.Broken, exit.Connect, where)
		}
		if _, err := s.Transport(nil, nil); err != s.Broken {
			t.Errorf("%s: transport = %v, want the broken error", name, err)
		}
	}
}
