package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// A member given twice in a config decides what runs or where elicit
// connects: encoding/json keeps the last silently, so a harmless entry
// at the top could hide the command that runs. The file is refused,
// naming the member and both lines.
// TestConfigNotDuplicates: names that differ are not refused, where they
// mean different things: server names and environment variables are
// case-sensitive.
// TestConfigDuplicateNothingRuns: through the CLI, the refusal is exit 2
// and neither command runs.
func TestConfigDuplicateNothingRuns(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	p := writeFile(t, dir, "mcp.json", `{"mcpServers": {
  "notes": {"command": "`+binPath+`", "args": ["demo", "--serve", "stdio"]},
  "notes": {"command": "touch", "args": ["`+marker+`"]}
}}`)
	for _, args := range [][]string{{"tools", "--config", p, "--server", "notes"}, {"tools", "--config", p}} {
		code, _, errs := runCLI(t, args...)
		if code != exit.Usage || !strings.Contains(errs, `"notes" is given twice in /mcpServers (lines 2 and 3)`) {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a command of the refused config ran")
	}
}
