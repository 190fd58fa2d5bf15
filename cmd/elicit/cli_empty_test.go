package main

import (
	"encoding/json"
	"testing"
)

// TestEmptyListsPrintedAsArrays: a server that lists nothing gets [] in
// the output, not null or a missing member, so a script can iterate it.
func TestEmptyListsPrintedAsArrays(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ cmd, member string }{
		{"tools", "tools"},
		{"resources", "resources"},
		{"templates", "resourceTemplates"},
		{"prompts", "prompts"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			t.Parallel()
			code, out, errs := runHostile(t, "empty-lists", c.cmd)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var got map[string]json.RawMessage
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			if v, ok := got[c.member]; !ok || string(v) != "[]" {
				t.Errorf("%q = %s (present: %v), want []\n%s", c.member, v, ok, out)
			}
		})
	}
}
