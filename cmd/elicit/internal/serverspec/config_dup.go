package serverspec

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// A config that names a member twice is refused: encoding/json keeps the
// last silently, so a harmless "notes" entry at the top of mcpServers
// could hide the "notes" whose command runs, and a "command" the one
// after it. JSON allows duplicates only as a SHOULD NOT; the person must
// see them. Every object of the file is checked, since each member of a
// server entry decides what runs or where elicit connects (command,
// args, env, cwd, url, headers, type, oauth…), and the rest costs
// nothing to check.

// configDuplicate says which member of the config text b is named twice,
// on which lines, or nil.
func configDuplicate(b []byte) error {
	d, err := wire.FindDuplicate(b, configKey)
	if err != nil || d == nil {
		return nil // not JSON: json.Unmarshal has said so
	}
	where := "in the top level"
	if len(d.Path) > 0 {
		where = "in " + d.Pointer()
	}
	where = untrusted.Line(where)
	l1, l2 := lineOf(b, d.FirstEnd), lineOf(b, d.SecondEnd)
	switch {
	case !strings.EqualFold(d.First, d.Second):
		return fmt.Errorf(`%q (line %d) and %q (line %d) both list servers: elicit reads only "mcpServers", and a reader may take the other for what runs; keep one`,
			d.First, l1, d.Second, l2)
	case d.First == d.Second:
		return fmt.Errorf("%q is given twice %s (lines %d and %d): JSON keeps only the last, silently; remove one", d.First, where, l1, l2)
	}
	return fmt.Errorf("%q (line %d) and %q (line %d) %s are one member to elicit (their names are read regardless of case): only the last would count; remove one",
		d.First, l1, d.Second, l2, where)
}

// configKey is which names of the config are one member: in objects read
// as structs, names regardless of case (encoding/json); in the maps of
// exact names, the name: the servers by name ("notes" and "Notes" are
// two) and each one's environment (PATH and path are two variables).
// Headers fold: http.Header takes "authorization" for "Authorization".
// At the top level "servers" (VS Code's) is one with "mcpServers": elicit
// reads the second only when the first is absent.
func configKey(path []string, name string) string {
	switch {
	case len(path) == 0 && strings.EqualFold(name, "servers"):
		return wire.FoldName("mcpServers")
	case len(path) == 1 && (strings.EqualFold(path[0], "mcpServers") || strings.EqualFold(path[0], "servers")):
		return name
	case len(path) == 3 && strings.EqualFold(path[2], "env"):
		return name
	}
	return wire.FoldName(name)
}

// lineOf is the line (from 1) of byte offset off of b.
func lineOf(b []byte, off int64) int {
	return bytes.Count(b[:min(off, int64(len(b)))], []byte("\n")) + 1
}
